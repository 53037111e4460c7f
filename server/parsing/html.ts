import * as cheerio from "cheerio";
import { boundHtmlNesting, MAX_HTML_DEPTH } from "./html-depth";
import { hasLetters, isEmailAddress, wordCount } from "./classify-text";
import { decodeText } from "./encoding";
import { attr, childrenOf, collapsedText, rawText, tagName, type DomNode } from "./html-dom";
import { isLayoutTable, tableText, tableToElementParts } from "./html-tables";
import type { ElementType, ParsedElement, PartitionResult } from "./types";

/** Boilerplate a reader skips: scripts, navigation, page chrome, forms. */
const REMOVED_SELECTOR = [
  "script",
  "style",
  "noscript",
  "template",
  "nav",
  "aside",
  "form",
  "iframe",
  "svg",
  "canvas",
  "object",
  "embed",
  "map",
  "head",
  "button",
  "select",
  "input",
  "textarea",
  "dialog",
  "[hidden]",
  '[aria-hidden="true"]',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
].join(",");

const BLOCK_TAGS = new Set([
  "address",
  "article",
  "blockquote",
  "body",
  "caption",
  "center",
  "dd",
  "details",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "header",
  "hgroup",
  "hr",
  "html",
  "legend",
  "li",
  "main",
  "menu",
  "ol",
  "p",
  "section",
  "summary",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
]);
const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
const HIDDEN_STYLE_RE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
const BOLD_STYLE_RE = /font-weight\s*:\s*(?:bold|[6-9]00)/i;

type Piece = { kind: "text"; text: string; link: string | null; bold: boolean } | { kind: "br" };
type Context = { type: ElementType; link: string | null; bold: boolean; listDepth: number; nesting: number };

/** Deeper than this, a subtree is read as one block of text: real pages never nest this far, hostile ones do. */
const MAX_NESTING = 200;

export const sniffDeclaredCharset = (bytes: Uint8Array): string | null => {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString("latin1");
  const meta = /<meta[^>]{0,500}?charset\s*=\s*["']?\s*([\w:.-]{1,40})/i.exec(head);
  if (meta?.[1]) return meta[1];
  const xml = /<\?xml[^>]{0,200}?encoding\s*=\s*["']([\w:.-]{1,40})/i.exec(head);
  return xml?.[1] ?? null;
};

/** A multi-line <code> that is all its parent holds is a listing even without <pre> around it. */
const isStandaloneListing = (node: DomNode): boolean =>
  rawText(node).includes("\n") &&
  childrenOf(node.parent ?? node).every((c) => c === node || (c.type === "text" && (c.data ?? "").trim() === ""));

/**
 * Header/footer inside an article or section usually hold that article's title or byline, which is content; only
 * page-level ones are chrome.
 */
const isPageChrome = (node: DomNode): boolean => {
  for (let p = node.parent; p; p = p.parent) {
    if (["article", "main", "section"].includes(tagName(p))) return false;
  }
  return true;
};

/** What reading one document's DOM keeps: the elements so far and the inline content of the paragraph being read. */
type HtmlReader = {
  elements: ParsedElement[];
  pieces: Piece[];
  /** The context of the first visible text decides the paragraph's type (a <li>'s text is a ListItem). */
  pieceCtx: Context | null;
};

const emit = (reader: HtmlReader, type: ElementType, text: string, extra: Partial<ParsedElement> = {}) => {
  if (text) reader.elements.push({ type, text, pageNumber: null, ...extra });
};

/** A paragraph's type: from its context (`fallback`), unless its text or its links and bold say otherwise. */
const classify = (text: string, linkChars: number, boldChars: number, fallback: ElementType): ElementType => {
  const visible = text.replace(/\s/g, "").length;
  if (!hasLetters(text) && fallback !== "ListItem") return "UncategorizedText";
  if (isEmailAddress(text)) return "EmailAddress";
  if (fallback !== "NarrativeText") return fallback;
  if (linkChars >= visible * 0.9) return "Link";
  // A short paragraph set entirely in bold is how many pages (EDGAR filings, CMS output) write headings.
  if (
    boldChars >= visible * 0.9 &&
    text.length <= 120 &&
    wordCount(text) <= 15 &&
    !/[.;,]$/.test(text) &&
    !text.startsWith("(")
  ) {
    return "Title";
  }
  return "NarrativeText";
};

/** Inline content collected so far becomes paragraphs: two <br> in a row split them, one <br> is a newline. */
const flush = (reader: HtmlReader) => {
  const paragraphs: Piece[][] = [[]];
  let breaks = 0;
  for (const piece of reader.pieces) {
    if (piece.kind === "br") {
      breaks++;
      if (breaks === 2) paragraphs.push([]);
      else paragraphs[paragraphs.length - 1]?.push(piece);
      continue;
    }
    if (piece.text.trim() !== "") breaks = 0;
    paragraphs[paragraphs.length - 1]?.push(piece);
  }
  for (const para of paragraphs) {
    let raw = "";
    let linkChars = 0;
    let boldChars = 0;
    const links: string[] = [];
    for (const piece of para) {
      if (piece.kind === "br") {
        raw += "\n";
        continue;
      }
      raw += piece.text;
      const visible = piece.text.replace(/\s/g, "").length;
      if (piece.link !== null) {
        linkChars += visible;
        if (visible > 0 && !links.includes(piece.link)) links.push(piece.link);
      }
      if (piece.bold) boldChars += visible;
    }
    const text = raw
      .replace(/[ \t]+/g, " ")
      .replace(/ ?\n ?/g, "\n")
      .replace(/\n{2,}/g, "\n")
      .trim();
    if (!text) continue;
    const type = classify(text, linkChars, boldChars, reader.pieceCtx?.type ?? "NarrativeText");
    const metadata: Record<string, unknown> = {};
    // Where a paragraph links to is content too (a web page's references, a crawl's next pages).
    if (links.length > 0) metadata.link_urls = links;
    if (type === "ListItem") metadata.category_depth = Math.max(0, (reader.pieceCtx?.listDepth ?? 1) - 1);
    emit(reader, type, text, Object.keys(metadata).length > 0 ? { metadata } : {});
  }
  reader.pieces = [];
  reader.pieceCtx = null;
};

const walk = (reader: HtmlReader, node: DomNode, ctx: Context): void => {
  if (node.type === "text") {
    const text = (node.data ?? "").replace(/\s+/g, " ");
    if (text) {
      if (!reader.pieceCtx && text.trim() !== "") reader.pieceCtx = ctx;
      reader.pieces.push({ kind: "text", text, link: ctx.link, bold: ctx.bold });
    }
    return;
  }
  const name = tagName(node);
  if (!name) return;
  if (name === "br") {
    reader.pieces.push({ kind: "br" });
    return;
  }
  if (ctx.nesting > MAX_NESTING) {
    flush(reader);
    emit(reader, "NarrativeText", collapsedText(node));
    return;
  }
  if (HEADINGS.has(name)) {
    flush(reader);
    const start = reader.elements.length;
    for (const c of childrenOf(node)) walk(reader, c, { ...ctx, type: "Title", nesting: ctx.nesting + 1 });
    flush(reader);
    for (const e of reader.elements.slice(start)) {
      if (e.type === "Title") e.metadata = { ...e.metadata, category_depth: Number(name.slice(1)) };
    }
    return;
  }
  if (name === "pre" || (name === "code" && isStandaloneListing(node))) {
    flush(reader);
    const text = rawText(node).replace(/\s+$/, "").replace(/^\n/, "");
    const codeClass =
      attr(node, "class") ??
      childrenOf(node)
        .map((c) => attr(c, "class") ?? "")
        .join(" ");
    const language = /(?:^|\s)(?:language|lang)-([\w+#-]{1,30})/.exec(codeClass)?.[1] ?? null;
    if (text.trim()) emit(reader, "CodeSnippet", text, { metadata: { language } });
    return;
  }
  if (name === "img") {
    const alt = (attr(node, "alt") ?? "").replace(/\s+/g, " ").trim();
    if (alt) {
      flush(reader);
      emit(reader, "Image", alt, { metadata: { image_url: attr(node, "src") ?? null } });
    }
    return;
  }
  if (name === "table") {
    flush(reader);
    if (isLayoutTable(node)) {
      for (const c of childrenOf(node)) walk(reader, c, { ...ctx, nesting: ctx.nesting + 1 });
      flush(reader);
      return;
    }
    const caption = childrenOf(node).find((c) => tagName(c) === "caption");
    if (caption) emit(reader, "FigureCaption", collapsedText(caption));
    const parts = tableToElementParts(node);
    if (parts) emit(reader, "Table", tableText(parts.rows), { html: parts.html });
    return;
  }
  if (name === "hr") {
    flush(reader);
    return;
  }
  const style = attr(node, "style") ?? "";
  const next: Context = {
    ...ctx,
    nesting: ctx.nesting + 1,
    link: name === "a" && attr(node, "href") ? (attr(node, "href") ?? null) : ctx.link,
    bold: ctx.bold || name === "b" || name === "strong" || BOLD_STYLE_RE.test(style),
  };
  if (!BLOCK_TAGS.has(name)) {
    for (const c of childrenOf(node)) walk(reader, c, next);
    return;
  }
  flush(reader);
  if (name === "ul" || name === "ol" || name === "menu" || name === "dir") next.listDepth = ctx.listDepth + 1;
  if (name === "li") next.type = "ListItem";
  else if (name === "figcaption" || name === "caption") next.type = "FigureCaption";
  else if (name === "address") next.type = "Address";
  for (const c of childrenOf(node)) walk(reader, c, next);
  flush(reader);
};

/** Removes what is never content: scripts and the like, page-level header and footer, hidden elements. */
const dropChrome = ($: cheerio.CheerioAPI) => {
  $(REMOVED_SELECTOR).remove();
  $("header, footer").each((_, el) => {
    if (isPageChrome(el as unknown as DomNode)) $(el).remove();
  });
  $("[style]").each((_, el) => {
    if (HIDDEN_STYLE_RE.test($(el).attr("style") ?? "")) $(el).remove();
  });
};

export const partitionHtmlText = (html: string): ParsedElement[] => {
  const $ = cheerio.load(boundHtmlNesting(html).html);
  dropChrome($);
  const reader: HtmlReader = { elements: [], pieces: [], pieceCtx: null };
  const root = ($("body")[0] ?? $.root()[0]) as unknown as DomNode;
  walk(reader, root, { type: "NarrativeText", link: null, bold: false, listDepth: 0, nesting: 0 });
  flush(reader);
  return reader.elements;
};

export const partitionHtml = ({ bytes }: { bytes: Uint8Array }): PartitionResult => {
  const { text, encoding } = decodeText({ bytes, declared: sniffDeclaredCharset(bytes) });
  const bounded = boundHtmlNesting(text);
  const elements = partitionHtmlText(bounded.html).map((e) => ({ ...e, metadata: { ...e.metadata, encoding } }));
  const warnings = bounded.flattened
    ? [`Elements nested deeper than ${MAX_HTML_DEPTH} levels were read as plain text`]
    : [];
  return { elements, totalPages: null, warnings };
};
