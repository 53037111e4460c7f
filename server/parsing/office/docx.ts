import * as cheerio from "cheerio";
import type JSZip from "jszip";
import mammoth from "mammoth";
import { AppError } from "@/server/errors";
import { childrenOf as domChildren, type DomNode } from "../html-dom";
import { CODE_STYLES } from "../monospace";
import type { ParsedElement, PartitionResult } from "../types";
import { collapse, ImageBudget, promoteLeadTitles, rasterMime } from "./common";
import { codeByFont } from "./docx-code";
import { readHeadersFooters } from "./docx-headers";
import { DocxWalker, type ImageRef, markPageBreaks } from "./docx-walker";
import { asUnprocessable, loadZip, readRelationships, readZipText } from "./xml";
import { checkOfficeZip } from "./zip-limits";

/**
 * DOCX: mammoth turns the body into clean HTML (headings from styles, lists from numbering, tables with spans),
 * which is walked into elements (docx-walker.ts). What mammoth leaves out is added around it: headers and footers
 * (read from their own parts, docx-headers.ts) and page numbers. Word does not store pages, so pages are counted from
 * the breaks the file records: explicit page breaks, "page break before" paragraphs, and the breaks Word wrote when it
 * last laid the document out (w:lastRenderedPageBreak).
 */

/**
 * Paragraph styles mammoth does not map by default: headings to a reader, and code, whose consecutive paragraphs
 * become one <pre> (one listing) with a line each.
 */
const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
  ...CODE_STYLES.map((style) => `p[style-name='${style}'] => pre:separator('\\n')`),
];

/** The zip "file" mammoth reads from (its documented inputs are paths and buffers; this one is its internal API). */
const mammothFile = (zip: JSZip, mainPath: string, mainXml: string) => ({
  exists: (name: string) => zip.file(name) !== null,
  read: async (name: string, encoding?: string) => {
    const file = zip.file(name);
    if (!file) throw new Error(`The part ${name} is missing`);
    if (encoding === "base64") return file.async("base64");
    if (encoding) {
      if (name === mainPath) return mainXml;
      const text = await file.async("string");
      if (/<!DOCTYPE/i.test(text)) throw new AppError("UNPROCESSABLE", `The part ${name} has a DOCTYPE declaration`);
      return text;
    }
    return Buffer.from(await file.async("uint8array"));
  },
  write: () => undefined,
  toArrayBuffer: () => zip.generateAsync({ type: "arraybuffer" }),
});

const mainDocumentPath = async (zip: JSZip): Promise<string> => {
  const rels = await readRelationships(zip, "_rels/.rels").catch(() => new Map());
  for (const rel of rels.values()) {
    if (String(rel.type).endsWith("/officeDocument") && zip.file(rel.target)) return rel.target as string;
  }
  return "word/document.xml";
};

export const partitionDocx = async (bytes: Uint8Array, ext = "docx"): Promise<PartitionResult> => {
  await checkOfficeZip(bytes, ext);
  try {
    const zip = await loadZip(bytes, ext);
    const mainPath = await mainDocumentPath(zip);
    const original = await readZipText(zip, mainPath);
    if (original === null) {
      throw new AppError("UNPROCESSABLE", `The .${ext} file is not a valid Word document (it has no ${mainPath})`);
    }
    if (/<!DOCTYPE/i.test(original)) {
      throw new AppError("UNPROCESSABLE", `The .${ext} file's document part has a DOCTYPE declaration`);
    }
    const images: ImageRef[] = [];
    const result = await mammoth.convertToHtml(
      { file: mammothFile(zip, mainPath, markPageBreaks(original)) } as unknown as { buffer: Buffer },
      {
        styleMap: STYLE_MAP,
        transformDocument: codeByFont,
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async (image) => {
          const data = new Uint8Array(await image.read());
          images.push({
            bytes: data,
            mime: rasterMime(data),
            alt: collapse((image as { altText?: string }).altText ?? ""),
          });
          return { src: `quarry-image:${images.length - 1}` };
        }),
      },
    );
    const budget = new ImageBudget();
    const walker = new DocxWalker(images, budget);
    const $ = cheerio.load(result.value);
    const body = ($("body")[0] ?? $.root()[0]) as unknown as DomNode;
    walker.walk(domChildren(body));
    promoteLeadTitles(walker.elements);

    const lastPage = walker.page;
    const headersFooters = await readHeadersFooters(zip, mainPath, original);
    const element = (h: (typeof headersFooters)[number], page: number): ParsedElement => ({
      type: h.kind,
      text: h.text,
      markdown: h.text,
      pageNumber: page,
      metadata: { header_footer_type: h.hfType },
    });
    const elements = [
      ...headersFooters.filter((h) => h.kind === "Header").map((h) => element(h, 1)),
      ...walker.elements,
      ...headersFooters.filter((h) => h.kind === "Footer").map((h) => element(h, lastPage)),
    ];
    return { elements, totalPages: lastPage, warnings: budget.warnings() };
  } catch (error) {
    throw asUnprocessable(error, ext);
  }
};
