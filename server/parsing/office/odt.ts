import { AppError } from "@/server/errors";
import type { ParsedElement, PartitionResult } from "../types";
import { isPageChrome, promoteLeadTitles } from "./common";
import { readStyles } from "./odt-styles";
import { OdtWalker } from "./odt-walker";
import {
  asUnprocessable,
  attr,
  childrenOf,
  findAll,
  loadZip,
  nameOf,
  path,
  readZipBytes,
  readZipText,
  readZipXml,
  resolvePartPath,
} from "./xml";
import { checkOfficeZip } from "./zip-limits";

/**
 * ODT (OpenDocument text): content.xml holds the body (walked in odt-walker.ts), styles.xml the styles (odt-styles.ts)
 * and the page headers and footers, read here.
 */

const HEADER_FOOTER: Record<string, { kind: "Header" | "Footer"; hfType: string }> = {
  "style:header": { kind: "Header", hfType: "primary" },
  "style:header-left": { kind: "Header", hfType: "even_page" },
  "style:header-first": { kind: "Header", hfType: "first_page" },
  "style:footer": { kind: "Footer", hfType: "primary" },
  "style:footer-left": { kind: "Footer", hfType: "even_page" },
  "style:footer-first": { kind: "Footer", hfType: "first_page" },
};

export const partitionOdt = async (bytes: Uint8Array, ext = "odt"): Promise<PartitionResult> => {
  await checkOfficeZip(bytes, ext);
  try {
    const zip = await loadZip(bytes, ext);
    const manifest = await readZipText(zip, "META-INF/manifest.xml");
    if (manifest?.includes("encryption-data")) {
      throw new AppError(
        "UNPROCESSABLE",
        `The .${ext} file is password-protected (encrypted); remove the password and upload it again`,
      );
    }
    const content = await readZipXml(zip, "content.xml", `The .${ext} file's content.xml`);
    if (!content)
      throw new AppError("UNPROCESSABLE", `The .${ext} file is not a valid OpenDocument text (no content.xml)`);
    const stylesXml = (await readZipXml(zip, "styles.xml", `The .${ext} file's styles.xml`)) ?? [];
    const styles = readStyles([stylesXml, content]);

    const images = new Map<string, Uint8Array>();
    for (const frameImage of findAll(content, "draw:image")) {
      const href = attr(frameImage, "xlink:href");
      if (!href || /^[a-z]+:/i.test(href)) continue;
      const name = resolvePartPath("content.xml", href);
      if (images.has(name)) continue;
      const data = await readZipBytes(zip, name);
      if (data) images.set(name, data);
    }

    const body =
      path(content[content.length - 1] ?? {}, "office:body", "office:text") ?? findAll(content, "office:text")[0];
    if (!body)
      throw new AppError("UNPROCESSABLE", `The .${ext} file holds no text document (it may be another ODF type)`);
    const paragraphs = findAll(childrenOf(body), "text:p");
    const inFixedPitch = paragraphs.filter((p) => styles.resolve(attr(p, "text:style-name"), "code") === "font");
    const walker = new OdtWalker(styles, images, inFixedPitch.length <= paragraphs.length / 2);
    walker.walk(childrenOf(body), 0, 0);
    promoteLeadTitles(walker.elements);

    const lastPage = walker.pages.page;
    const headers: ParsedElement[] = [];
    const footers: ParsedElement[] = [];
    const seen = new Set<string>();
    for (const master of findAll(stylesXml, "style:master-page").slice(0, 50)) {
      for (const part of childrenOf(master)) {
        const kind = HEADER_FOOTER[nameOf(part)];
        if (!kind || attr(part, "style:display") === "false") continue;
        const text = findAll(childrenOf(part), "text:p")
          .concat(findAll(childrenOf(part), "text:h"))
          .map((p) => walker.plain(p, true))
          .filter((t) => t)
          .join("\n");
        const key = `${kind.kind}:${text}`;
        if (!text || isPageChrome(text) || seen.has(key)) continue;
        seen.add(key);
        const element: ParsedElement = {
          type: kind.kind,
          text,
          markdown: text,
          pageNumber: kind.kind === "Header" ? 1 : lastPage,
          metadata: { header_footer_type: kind.hfType },
        };
        (kind.kind === "Header" ? headers : footers).push(element);
      }
    }
    return {
      elements: [...headers, ...walker.elements, ...footers],
      totalPages: lastPage,
      warnings: walker.budget.warnings(),
    };
  } catch (error) {
    throw asUnprocessable(error, ext);
  }
};
