import path from "node:path/posix";
import { XMLParser } from "fast-xml-parser";
import { AppError } from "@/server/errors";
import { boundHtmlNesting } from "./html-depth";
import { partitionHtmlText } from "./html";
import { loadZip, readZipText } from "./office/xml";
import { checkOfficeZip } from "./office/zip-limits";
import type { ParsedElement, Parser } from "./types";

/**
 * EPUB: a ZIP of XHTML chapters. The package file (found through META-INF/container.xml) lists them in reading
 * order (the spine); each chapter is parsed as HTML and is one page of the result, so chunks never run across two
 * chapters. The book's title and author come from its metadata. The package passes the same ZIP limits as an Office
 * file first; scripts and styles in chapters are dropped like any HTML's, and nothing in them runs.
 */

/** Chapters read from one book; past this the rest is left out with a warning. */
const MAX_CHAPTERS = 2000;

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  removeNSPrefix: true,
  // Entities are never expanded: a DOCTYPE must not be able to define any.
  processEntities: false,
  isArray: (name) => ["item", "itemref", "rootfile", "creator", "title"].includes(name),
});

type Manifest = { id?: string; href?: string; "media-type"?: string };
type Package = {
  package?: {
    metadata?: { title?: (string | { "#text"?: string })[]; creator?: (string | { "#text"?: string })[] };
    manifest?: { item?: Manifest[] };
    spine?: { itemref?: { idref?: string; linear?: string }[] };
  };
};

const textOf = (v: string | { "#text"?: string } | undefined) =>
  typeof v === "string" ? v : typeof v === "object" ? String(v["#text"] ?? "") : "";

const invalid = (why: string) => new AppError("UNPROCESSABLE", `The .epub file is not a readable e-book: ${why}`);

export const partitionEpub: Parser = async ({ bytes }) => {
  await checkOfficeZip(bytes, "epub");
  const zip = await loadZip(bytes, "epub");
  const container = await readZipText(zip, "META-INF/container.xml");
  if (!container) throw invalid("it has no META-INF/container.xml");
  const rootfile = (xml.parse(container) as { container?: { rootfiles?: { rootfile?: { "full-path"?: string }[] } } })
    .container?.rootfiles?.rootfile?.[0]?.["full-path"];
  const opfText = rootfile ? await readZipText(zip, rootfile) : null;
  if (!rootfile || !opfText) throw invalid("its package file is missing");
  const opf = (xml.parse(opfText) as Package).package;
  const base = path.dirname(rootfile);
  const items = new Map((opf?.manifest?.item ?? []).map((i) => [i.id ?? "", i]));
  const spine = (opf?.spine?.itemref ?? []).map((r) => items.get(r.idref ?? "")).filter((i): i is Manifest => !!i);
  const warnings: string[] = [];
  if (spine.length > MAX_CHAPTERS)
    warnings.push(`Only the first ${MAX_CHAPTERS} of ${spine.length} chapters were read`);

  const elements: ParsedElement[] = [];
  const title = textOf(opf?.metadata?.title?.[0]).trim();
  const authors = (opf?.metadata?.creator ?? []).map(textOf).filter(Boolean);
  let page = 0;
  for (const item of spine.slice(0, MAX_CHAPTERS)) {
    if (!item.href || !/html|xml/.test(item["media-type"] ?? "html")) continue;
    const name = path.normalize(path.join(base, decodeURIComponent(item.href)));
    const html = await readZipText(zip, name);
    if (!html) {
      warnings.push(`Chapter ${item.href} is listed but missing from the package`);
      continue;
    }
    const chapter = partitionHtmlText(boundHtmlNesting(html).html);
    if (chapter.length === 0) continue;
    page++;
    for (const e of chapter) elements.push({ ...e, pageNumber: page, metadata: { ...e.metadata, chapter: item.href } });
  }
  const meta = { ...(title ? { book_title: title } : {}), ...(authors.length ? { book_authors: authors } : {}) };
  return {
    elements: elements.map((e) => ({ ...e, metadata: { ...e.metadata, ...meta } })),
    totalPages: page,
    warnings,
  };
};
