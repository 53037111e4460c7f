import type { ElementType, ParsedElement } from "../types";
import { attr as domAttr, childrenOf as domChildren, tagName, type DomNode } from "../html-dom";
import { escapeHtml, rowsToText } from "../table-html";
import {
  bulletGlyphLength,
  cellsToHtml,
  classifyDocParagraph,
  cleanText,
  collapse,
  ImageBudget,
  isJunkText,
  PageCounter,
  rowsToMarkdown,
  safeHref,
  type Span,
  spansToMarkdown,
  type TableCell,
} from "./common";
import { MAX_XML_DEPTH } from "./xml";

/**
 * The walk of mammoth's HTML of a Word body into elements. Word does not store pages: the page breaks the file
 * records reach the HTML as two private-use characters (markPageBreaks), counted here.
 */

const HARD_BREAK = "\uE000";
const RENDERED_BREAK = "\uE001";
const MARKERS_RE = /[\uE000\uE001]/;

const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
/** Nested tables deeper than this are kept as text in their cell. */
const MAX_TABLE_NESTING = 8;

/** Rewrites the main part so the page breaks survive mammoth (which drops them) as marker characters. */
export const markPageBreaks = (xml: string): string => {
  let out = xml
    .replace(/[\uE000\uE001]/g, "")
    .replace(/<w:br\b[^>]*\bw:type="page"[^>]*\/>/g, `<w:t>${HARD_BREAK}</w:t>`)
    .replace(/<w:lastRenderedPageBreak\s*\/>/g, `<w:t>${RENDERED_BREAK}</w:t>`);
  // <w:pageBreakBefore/> lives in the paragraph properties: a run with the marker goes right after them.
  const inserts: number[] = [];
  const re = /<w:pageBreakBefore\b([^>]*)\/>/g;
  for (let m = re.exec(out); m; m = re.exec(out)) {
    const val = /w:val="([^"]*)"/.exec(m[1] ?? "")?.[1];
    if (val && ["0", "false", "off"].includes(val)) continue;
    const end = out.indexOf("</w:pPr>", m.index);
    if (end >= 0) inserts.push(end + "</w:pPr>".length);
  }
  for (const at of inserts.reverse()) {
    out = `${out.slice(0, at)}<w:r><w:t>${HARD_BREAK}</w:t></w:r>${out.slice(at)}`;
  }
  return out;
};

export type ImageRef = { bytes: Uint8Array; mime: string | null; alt: string };

type BlockKind =
  | { kind: "p" }
  | { kind: "heading"; level: number }
  | { kind: "list"; depth: number; ordered: boolean }
  | { kind: "note"; note: string };

/** Walks mammoth's HTML in document order, counting pages at the markers. */
export class DocxWalker {
  readonly elements: ParsedElement[] = [];
  private readonly pages = new PageCounter();

  constructor(
    private readonly images: ImageRef[],
    private readonly budget: ImageBudget,
  ) {}

  get page() {
    return this.pages.page;
  }

  /** Text with the markers taken out, and the page its first visible character is on. */
  private consume(text: string): { text: string; firstPage: number | null } {
    if (!MARKERS_RE.test(text)) {
      return { text, firstPage: this.pages.text(text) ? this.pages.page : null };
    }
    let out = "";
    let firstPage: number | null = null;
    for (const ch of text) {
      if (ch === HARD_BREAK) this.pages.hardBreak();
      else if (ch === RENDERED_BREAK) this.pages.renderedBreak();
      else {
        if (this.pages.text(ch)) firstPage ??= this.pages.page;
        out += ch;
      }
    }
    return { text: out, firstPage };
  }

  private push(element: Omit<ParsedElement, "pageNumber">, page: number | null) {
    this.elements.push({ ...element, pageNumber: page ?? this.pages.page });
  }

  private emitImages(refs: number[], page: number | null) {
    for (const index of refs) {
      const image = this.images[index];
      if (!image) continue;
      const imgBase64 = image.mime ? this.budget.take(image.bytes) : null;
      if (!imgBase64 && !image.alt) continue;
      this.push(
        {
          type: "Image",
          text: image.alt,
          markdown: image.alt ? `![${image.alt.replace(/[[\]]/g, "")}]()` : null,
          imgBase64,
          metadata: { image_mime_type: image.mime, ...(imgBase64 ? {} : { image_omitted: true }) },
        },
        page,
      );
    }
  }

  /** Inline content of a block: spans for text/markdown, images referenced, page of the first visible text. */
  private inline(nodes: DomNode[]) {
    const spans: Span[] = [];
    const images: number[] = [];
    let firstPage: number | null = null;
    const visit = (node: DomNode, fmt: Omit<Span, "text">, depth: number) => {
      if (node.type === "text") {
        const { text, firstPage: p } = this.consume(node.data ?? "");
        firstPage ??= p;
        if (text) spans.push({ text: text.replace(/\s*\n\s*/g, " "), ...fmt });
        return;
      }
      const name = tagName(node);
      if (!name || depth > MAX_XML_DEPTH) return;
      if (name === "br") {
        spans.push({ text: "\n" });
        return;
      }
      if (name === "img") {
        const index = /^quarry-image:(\d+)$/.exec(domAttr(node, "src") ?? "")?.[1];
        if (index !== undefined) images.push(Number(index));
        return;
      }
      const href = domAttr(node, "href") ?? "";
      // Back-links from footnotes to their reference ("↑") are navigation, not text.
      if (name === "a" && /^#(?:footnote|endnote|comment)-ref/.test(href)) return;
      const next = {
        bold: fmt.bold || name === "strong" || name === "b",
        italic: fmt.italic || name === "em" || name === "i",
        href: name === "a" ? (safeHref(href) ?? fmt.href ?? null) : (fmt.href ?? null),
      };
      for (const c of domChildren(node)) visit(c, next, depth + 1);
    };
    for (const node of nodes) visit(node, {}, 0);
    return { spans, images, firstPage };
  }

  /** One paragraph-like block (p, heading, list item, note) becomes an element, plus its images. */
  private block(nodes: DomNode[], kind: BlockKind) {
    const { spans, images, firstPage } = this.inline(nodes);
    const raw = spans.map((s) => s.text).join("");
    let text = cleanText(raw);
    let markdown = spansToMarkdown(spans);
    if (text && !isJunkText(text)) {
      const visible = text.replace(/\s/g, "").length;
      const boldChars = spans.filter((s) => s.bold).reduce((n, s) => n + s.text.replace(/\s/g, "").length, 0);
      let type: ElementType;
      const metadata: Record<string, unknown> = {};
      if (kind.kind === "heading") {
        type = "Title";
        metadata.heading_level = kind.level;
        // Headings are bold by style; the markers would only repeat that.
        const plainSpans = spans.map((s) => ({ ...s, bold: false }));
        markdown = `${"#".repeat(kind.level)} ${spansToMarkdown(plainSpans).replace(/\n/g, " ")}`;
      } else if (kind.kind === "list") {
        type = "ListItem";
        metadata.category_depth = kind.depth;
        markdown = `${"  ".repeat(kind.depth)}${kind.ordered ? "1." : "-"} ${markdown}`;
      } else if (kind.kind === "note") {
        type = "NarrativeText";
        metadata.note = kind.note;
      } else {
        type = classifyDocParagraph({ text, bold: boldChars >= visible * 0.9 });
        const glyph = bulletGlyphLength(text);
        if (type === "ListItem" && glyph > 0) {
          text = text.slice(glyph).trim();
          markdown = `- ${markdown.slice(bulletGlyphLength(markdown)).trim()}`;
          metadata.category_depth = 0;
        }
      }
      this.push({ type, text, markdown, metadata }, firstPage);
    }
    this.emitImages(images, firstPage);
  }

  /** Cells of this table (not of nested ones) as sanitised HTML and text, in document order. */
  private tableCells(table: DomNode, nesting: number, images: number[], pages: (number | null)[]): TableCell[][] {
    const rows: DomNode[] = [];
    const collectRows = (node: DomNode) => {
      for (const c of domChildren(node)) {
        const name = tagName(c);
        if (name === "tr") rows.push(c);
        else if (name === "thead" || name === "tbody" || name === "tfoot") collectRows(c);
      }
    };
    collectRows(table);
    return rows.map((tr) =>
      domChildren(tr)
        .filter((c) => tagName(c) === "td" || tagName(c) === "th")
        .map((cell) => {
          const { html, text } = this.cellContent(cell, nesting, images, pages);
          const span = (name: string) => {
            const n = Number.parseInt(domAttr(cell, name) ?? "1", 10);
            return Number.isFinite(n) && n > 1 ? Math.min(n, 1000) : 1;
          };
          return { html, text, colspan: span("colspan"), rowspan: span("rowspan"), header: tagName(cell) === "th" };
        }),
    );
  }

  /**
   * A cell's content: paragraphs become lines (<br>), links and emphasis stay, a nested table stays a table (its
   * text joins the cell text). Markers are consumed in order so pages keep counting through long tables.
   */
  private cellContent(cell: DomNode, nesting: number, images: number[], pages: (number | null)[]) {
    const lines: string[] = [];
    const texts: string[] = [];
    let htmlLine = "";
    let textLine = "";
    const endLine = () => {
      if (textLine.trim() || htmlLine.includes("<table>")) {
        lines.push(htmlLine.trim());
        texts.push(textLine.trim());
      }
      htmlLine = "";
      textLine = "";
    };
    const visit = (node: DomNode, depth: number) => {
      if (node.type === "text") {
        const { text, firstPage } = this.consume(node.data ?? "");
        pages.push(firstPage);
        const clean = text.replace(/\s+/g, " ");
        htmlLine += escapeHtml(clean);
        textLine += clean;
        return;
      }
      const name = tagName(node);
      if (!name || depth > MAX_XML_DEPTH) return;
      if (name === "br") {
        endLine();
        return;
      }
      if (name === "img") {
        const index = /^quarry-image:(\d+)$/.exec(domAttr(node, "src") ?? "")?.[1];
        if (index !== undefined) images.push(Number(index));
        return;
      }
      if (name === "table") {
        endLine();
        if (nesting < MAX_TABLE_NESTING) {
          const rows = this.tableCells(node, nesting + 1, images, pages);
          htmlLine = cellsToHtml(rows);
          textLine = rowsToText(rows.map((r) => r.map((c) => c.text))).replace(/\n/g, " ");
        } else {
          for (const c of domChildren(node)) visit(c, depth + 1);
        }
        endLine();
        return;
      }
      const href = domAttr(node, "href") ?? "";
      if (name === "a" && /^#(?:footnote|endnote|comment)-ref/.test(href)) return;
      const block = ["p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "div"].includes(name);
      if (block) endLine();
      const wrapTag =
        name === "a" && safeHref(href)
          ? { open: `<a href="${escapeHtml(safeHref(href) ?? "")}">`, close: "</a>" }
          : name === "strong" || name === "b"
            ? { open: "<strong>", close: "</strong>" }
            : name === "em" || name === "i"
              ? { open: "<em>", close: "</em>" }
              : null;
      if (wrapTag) htmlLine += wrapTag.open;
      for (const c of domChildren(node)) visit(c, depth + 1);
      if (wrapTag) htmlLine += wrapTag.close;
      if (block) endLine();
    };
    for (const c of domChildren(cell)) visit(c, 0);
    endLine();
    return { html: lines.join("<br>"), text: collapse(texts.join(" ")) };
  }

  private table(node: DomNode) {
    const images: number[] = [];
    const pages: (number | null)[] = [];
    const startPage = this.pages.page;
    const rows = this.tableCells(node, 0, images, pages).filter((r) => r.length > 0);
    const texts = rows.map((r) => r.map((c) => c.text));
    const text = rowsToText(texts);
    const page = pages.find((p) => p !== null) ?? startPage;
    if (text) {
      this.push({ type: "Table", text, html: cellsToHtml(rows), markdown: rowsToMarkdown(texts) }, page);
    }
    this.emitImages(images, page);
  }

  /** A listing: its lines as they are, indentation kept. */
  private code(node: DomNode) {
    let raw = "";
    const visit = (n: DomNode) => {
      if (n.type === "text") raw += n.data ?? "";
      else for (const c of domChildren(n)) visit(c);
    };
    visit(node);
    const { text, firstPage } = this.consume(raw);
    const code = text.replace(/\s+$/, "").replace(/^\n+/, "");
    if (code.trim()) this.push({ type: "CodeSnippet", text: code, markdown: `\`\`\`\n${code}\n\`\`\`` }, firstPage);
  }

  private list(node: DomNode, depth: number, note: boolean) {
    const ordered = tagName(node) === "ol";
    for (const li of domChildren(node)) {
      if (tagName(li) !== "li") {
        this.walk([li], depth);
        continue;
      }
      const id = domAttr(li, "id") ?? "";
      const noteKind = /^(footnote|endnote|comment)-/.exec(id)?.[1];
      const kind: BlockKind =
        note || noteKind ? { kind: "note", note: noteKind ?? "footnote" } : { kind: "list", depth, ordered };
      let pending: DomNode[] = [];
      const flush = () => {
        if (pending.length > 0) this.block(pending, kind);
        pending = [];
      };
      for (const c of domChildren(li)) {
        const name = tagName(c);
        if (name === "ul" || name === "ol") {
          flush();
          this.list(c, depth + 1, !!noteKind);
        } else if (name === "p" || HEADINGS[name] || name === "table") {
          flush();
          if (name === "table") this.table(c);
          else this.block(domChildren(c), kind);
        } else pending.push(c);
      }
      flush();
    }
  }

  walk(nodes: DomNode[], listDepth = 0) {
    let pending: DomNode[] = [];
    const flush = () => {
      if (pending.length > 0) this.block(pending, { kind: "p" });
      pending = [];
    };
    for (const node of nodes) {
      const name = tagName(node);
      const level = HEADINGS[name];
      if (
        node.type === "text" ||
        ["a", "strong", "em", "b", "i", "sup", "sub", "s", "span", "img", "br"].includes(name)
      ) {
        pending.push(node);
        continue;
      }
      flush();
      if (level) this.block(domChildren(node), { kind: "heading", level });
      else if (name === "p") this.block(domChildren(node), { kind: "p" });
      else if (name === "ul" || name === "ol") this.list(node, listDepth, false);
      else if (name === "table") this.table(node);
      else if (name === "pre") this.code(node);
      else this.walk(domChildren(node), listDepth);
    }
    flush();
  }
}
