import { rowsToText } from "../table-html";
import type { ElementType, ParsedElement } from "../types";
import {
  bulletGlyphLength,
  cellsToHtml,
  classifyDocParagraph,
  cleanText,
  collapse,
  ImageBudget,
  isJunkText,
  PageCounter,
  rasterMime,
  rowsToMarkdown,
  safeHref,
  type Span,
  spansToHtml,
  spansToMarkdown,
  type TableCell,
} from "./common";
import {
  attr,
  child,
  childrenOf,
  findAll,
  MAX_XML_DEPTH,
  nameOf,
  resolvePartPath,
  textValue,
  type XmlNode,
} from "./xml";
import type { Styles } from "./odt-styles";

/**
 * The walk of an OpenDocument text body into elements. Pages come from the soft page breaks the editor wrote at its
 * last layout and from paragraph styles that break before/after.
 */

/** Rows repeated by a table beyond this are read once (spreadsheet-like tables repeat empty rows to the end). */
const MAX_REPEAT = 100;
const MAX_TABLE_NESTING = 8;

type Inline = { spans: Span[]; frames: XmlNode[]; notes: XmlNode[]; firstPage: number | null };

export class OdtWalker {
  readonly elements: ParsedElement[] = [];
  readonly pages = new PageCounter();
  readonly budget = new ImageBudget();

  constructor(
    private readonly styles: Styles,
    private readonly images: Map<string, Uint8Array>,
    /** Whether a fixed-pitch font makes a listing: not in a document typed wholly in one (a typewriter's page). */
    private readonly codeByFont: boolean,
  ) {}

  private isCode(node: XmlNode) {
    if (nameOf(node) !== "text:p") return false;
    const code = this.styles.resolve(attr(node, "text:style-name"), "code");
    return code === "name" || (code === "font" && this.codeByFont);
  }

  private push(element: Omit<ParsedElement, "pageNumber">, page: number | null) {
    this.elements.push({ ...element, pageNumber: page ?? this.pages.page });
  }

  /** Text runs of a paragraph with their formatting; frames and notes are handled after the paragraph. */
  private inline(node: XmlNode): Inline {
    const out: Inline = { spans: [], frames: [], notes: [], firstPage: null };
    const add = (text: string, fmt: Omit<Span, "text">) => {
      if (!text) return;
      if (this.pages.text(text)) out.firstPage ??= this.pages.page;
      out.spans.push({ text, ...fmt });
    };
    const visit = (n: XmlNode, fmt: Omit<Span, "text">, depth: number) => {
      if (depth > MAX_XML_DEPTH) return;
      const name = nameOf(n);
      switch (name) {
        case "#text":
          add(textValue(n).replace(/\s+/g, " "), fmt);
          return;
        case "text:s":
          add(" ".repeat(Math.min(Number(attr(n, "text:c") ?? "1") || 1, 100)), fmt);
          return;
        case "text:tab":
          add("\t", fmt);
          return;
        case "text:line-break":
          out.spans.push({ text: "\n" });
          return;
        case "text:soft-page-break":
          this.pages.renderedBreak();
          return;
        case "text:note":
          out.notes.push(n);
          return;
        case "draw:frame":
        case "draw:a":
          out.frames.push(n);
          return;
        case "office:annotation":
        case "office:annotation-end":
        case "text:bookmark":
        case "text:bookmark-start":
        case "text:bookmark-end":
        case "text:reference-mark-start":
        case "text:reference-mark-end":
        case "text:ruby-text":
          return;
      }
      let next = fmt;
      if (name === "text:span") {
        const style = attr(n, "text:style-name");
        next = {
          ...fmt,
          bold: this.styles.resolve(style, "bold") ?? fmt.bold,
          italic: this.styles.resolve(style, "italic") ?? fmt.italic,
        };
      } else if (name === "text:a") next = { ...fmt, href: safeHref(attr(n, "xlink:href")) };
      for (const c of childrenOf(n)) visit(c, next, depth + 1);
    };
    const style = attr(node, "text:style-name");
    const base = { bold: this.styles.resolve(style, "bold"), italic: this.styles.resolve(style, "italic") };
    for (const c of childrenOf(node)) visit(c, base, 0);
    return out;
  }

  private frames(frames: XmlNode[], page: number | null, depth: number) {
    for (const frame of frames) {
      const alt = collapse(
        [child(frame, "svg:title"), child(frame, "svg:desc")]
          .map((n) => (n ? childrenOf(n).map(textValue).join("") : ""))
          .join(" "),
      );
      const image = child(frame, "draw:image");
      const href = attr(image, "xlink:href");
      if (image && href) {
        const bytes = this.images.get(resolvePartPath("content.xml", href)) ?? null;
        const mime = bytes ? rasterMime(bytes) : null;
        const imgBase64 = bytes && mime ? this.budget.take(bytes) : null;
        if (imgBase64 || alt) {
          this.push(
            {
              type: "Image",
              text: alt,
              imgBase64,
              metadata: { image_mime_type: mime, ...(imgBase64 ? {} : { image_omitted: true }) },
            },
            page,
          );
        }
      }
      const textBox = child(frame, "draw:text-box");
      if (textBox) this.walk(childrenOf(textBox), 0, depth + 1);
      if (nameOf(frame) === "draw:a") this.frames(childrenOf(frame), page, depth + 1);
    }
  }

  private paragraph(
    node: XmlNode,
    kind: { heading?: number; list?: { depth: number; ordered: boolean } },
    depth: number,
  ) {
    const style = attr(node, "text:style-name");
    if (this.styles.resolve(style, "breakBefore")) this.pages.hardBreak();
    const { spans, frames, notes, firstPage } = this.inline(node);
    let text = cleanText(spans.map((s) => s.text).join(""));
    let markdown = spansToMarkdown(spans);
    if (text && !isJunkText(text)) {
      const metadata: Record<string, unknown> = {};
      let type: ElementType;
      const level =
        kind.heading ??
        (this.styles.inherits(style, /^Title$/) ? 1 : this.styles.inherits(style, /^Subtitle$/) ? 2 : undefined);
      if (level !== undefined) {
        type = "Title";
        metadata.heading_level = level;
        // Headings are bold by style; the markers would only repeat that.
        const plainSpans = spans.map((s) => ({ ...s, bold: false }));
        markdown = `${"#".repeat(level)} ${spansToMarkdown(plainSpans).replace(/\n/g, " ")}`;
      } else if (kind.list) {
        type = "ListItem";
        metadata.category_depth = kind.list.depth;
        markdown = `${"  ".repeat(kind.list.depth)}${kind.list.ordered ? "1." : "-"} ${markdown}`;
      } else {
        const visible = text.replace(/\s/g, "").length;
        const boldChars = spans.filter((s) => s.bold).reduce((n, s) => n + s.text.replace(/\s/g, "").length, 0);
        type = classifyDocParagraph({ text, bold: boldChars >= visible * 0.9 });
        const glyph = bulletGlyphLength(text);
        if (type === "ListItem" && glyph > 0) {
          text = text.slice(glyph).trim();
          markdown = `- ${markdown.slice(bulletGlyphLength(markdown)).trim()}`;
          metadata.category_depth = 0;
        }
      }
      if (!(type === "ListItem" && !text)) this.push({ type, text, markdown, metadata }, firstPage);
    }
    this.frames(frames, firstPage, depth);
    for (const note of notes) {
      const body = child(note, "text:note-body");
      const noteText = collapse(
        findAll(body ? childrenOf(body) : [], "text:p")
          .map((p) => this.plain(p))
          .join(" "),
      );
      if (noteText) {
        this.push(
          {
            type: "NarrativeText",
            text: noteText,
            markdown: noteText,
            metadata: { note: attr(note, "text:note-class") ?? "footnote" },
          },
          firstPage,
        );
      }
    }
    if (this.styles.resolve(style, "breakAfter")) this.pages.hardBreak();
  }

  /** Text of a paragraph without touching the page count (notes, headers). */
  plain(node: XmlNode, skipFields = false, asTyped = false): string {
    let out = "";
    const visit = (n: XmlNode, depth: number) => {
      if (depth > MAX_XML_DEPTH) return;
      const name = nameOf(n);
      if (name === "#text") out += textValue(n).replace(/\s+/g, " ");
      else if (name === "text:s") out += " ".repeat(Math.min(Number(attr(n, "text:c") ?? "1") || 1, 100));
      else if (name === "text:tab") out += "\t";
      else if (name === "text:line-break") out += "\n";
      else if (skipFields && (name === "text:page-number" || name === "text:page-count")) return;
      else if (name === "office:annotation" || name === "text:note") return;
      else for (const c of childrenOf(n)) visit(c, depth + 1);
    };
    for (const c of childrenOf(node)) visit(c, 0);
    return asTyped ? out.replace(/\s+$/, "") : cleanText(out);
  }

  private list(node: XmlNode, depth: number, listStyle: string | undefined, nesting: number) {
    const styleName = attr(node, "text:style-name") ?? listStyle;
    const ordered = this.styles.listStyles.get(styleName ?? "")?.get(depth + 1) ?? false;
    for (const item of childrenOf(node)) {
      const name = nameOf(item);
      if (name === "text:soft-page-break") this.pages.renderedBreak();
      if (name !== "text:list-item" && name !== "text:list-header") continue;
      for (const c of childrenOf(item)) {
        const childName = nameOf(c);
        if (childName === "text:list") this.list(c, depth + 1, styleName, nesting + 1);
        else if (childName === "text:p" || childName === "text:h") {
          this.paragraph(c, name === "text:list-header" ? {} : { list: { depth, ordered } }, nesting);
        } else if (childName === "text:soft-page-break") this.pages.renderedBreak();
        else this.walk([c], depth, nesting + 1);
      }
    }
  }

  /** A table's rows as cells; covered cells (hidden by a span) are left out, as HTML does. */
  private tableRows(table: XmlNode, nesting: number, pages: (number | null)[]): TableCell[][] {
    const rows: TableCell[][] = [];
    const visitRows = (node: XmlNode, header: boolean, depth: number) => {
      if (depth > 10) return;
      for (const c of childrenOf(node)) {
        const name = nameOf(c);
        if (name === "table:table-header-rows") visitRows(c, true, depth + 1);
        else if (name === "table:table-rows" || name === "table:table-row-group") visitRows(c, header, depth + 1);
        else if (name === "text:soft-page-break") this.pages.renderedBreak();
        else if (name === "table:table-row") {
          const cells: TableCell[] = [];
          for (const cell of childrenOf(c)) {
            if (nameOf(cell) !== "table:table-cell") continue;
            const content = this.cellContent(cell, nesting, pages);
            const repeat = Math.min(Number(attr(cell, "table:number-columns-repeated") ?? "1") || 1, MAX_REPEAT);
            const spec: TableCell = {
              ...content,
              colspan: Math.min(Number(attr(cell, "table:number-columns-spanned") ?? "1") || 1, 1000),
              rowspan: Math.min(Number(attr(cell, "table:number-rows-spanned") ?? "1") || 1, 1000),
              header,
            };
            // Repeated empty cells pad a row to the sheet width; only repeated content is real.
            const times = content.text ? repeat : 1;
            for (let i = 0; i < times; i++) cells.push(spec);
          }
          const repeatRows = Math.min(Number(attr(c, "table:number-rows-repeated") ?? "1") || 1, MAX_REPEAT);
          const times = cells.some((x) => x.text) ? repeatRows : 1;
          for (let i = 0; i < times; i++) rows.push(cells);
        }
      }
    };
    visitRows(table, false, 0);
    return rows;
  }

  private cellContent(cell: XmlNode, nesting: number, pages: (number | null)[]): { html: string; text: string } {
    const html: string[] = [];
    const text: string[] = [];
    const visit = (nodes: XmlNode[], depth: number) => {
      for (const c of nodes) {
        const name = nameOf(c);
        if (depth > 20) return;
        if (name === "text:p" || name === "text:h") {
          const inline = this.inline(c);
          pages.push(inline.firstPage);
          const t = cleanText(inline.spans.map((s) => s.text).join(""));
          if (t) {
            html.push(spansToHtml(inline.spans).trim());
            text.push(t);
          }
        } else if (name === "table:table" && nesting < MAX_TABLE_NESTING) {
          const rows = this.tableRows(c, nesting + 1, pages);
          html.push(cellsToHtml(rows));
          text.push(rowsToText(rows.map((r) => r.map((x) => x.text))));
        } else if (name === "text:soft-page-break") this.pages.renderedBreak();
        else visit(childrenOf(c), depth + 1);
      }
    };
    visit(childrenOf(cell), 0);
    return { html: html.join("<br>"), text: collapse(text.join(" ")) };
  }

  private table(node: XmlNode) {
    const pages: (number | null)[] = [];
    const start = this.pages.page;
    const rows = this.tableRows(node, 0, pages).filter((r) => r.length > 0);
    const texts = rows.map((r) => r.map((c) => c.text));
    const text = rowsToText(texts);
    if (!text) return;
    this.push(
      { type: "Table", text, html: cellsToHtml(rows), markdown: rowsToMarkdown(texts) },
      pages.find((p) => p !== null) ?? start,
    );
  }

  /** Consecutive paragraphs in a code style or a fixed-pitch font: one listing, its lines as they are. */
  private code(paragraphs: XmlNode[]) {
    const text = paragraphs
      .map((p) => this.plain(p, false, true))
      .join("\n")
      .replace(/\s+$/, "")
      .replace(/^\n+/, "");
    if (text.trim()) this.push({ type: "CodeSnippet", text, markdown: `\`\`\`\n${text}\n\`\`\`` }, this.pages.page);
  }

  walk(nodes: XmlNode[], listDepth: number, nesting: number) {
    if (nesting > 50) return;
    let code: XmlNode[] = [];
    for (const node of nodes) {
      const isCode = this.isCode(node);
      const between = nameOf(node) === "#text" && !textValue(node).trim();
      if (code.length > 0 && !isCode && !between) {
        this.code(code);
        code = [];
      }
      switch (nameOf(node)) {
        case "text:h": {
          const level = Math.min(Math.max(Number(attr(node, "text:outline-level") ?? "1") || 1, 1), 10);
          this.paragraph(node, { heading: level }, nesting);
          break;
        }
        case "text:p":
          if (isCode) code.push(node);
          else this.paragraph(node, {}, nesting);
          break;
        case "text:list":
          this.list(node, listDepth, undefined, nesting);
          break;
        case "table:table":
          this.table(node);
          break;
        case "text:soft-page-break":
          this.pages.renderedBreak();
          break;
        case "draw:frame":
        case "draw:a":
          this.frames([node], null, nesting);
          break;
        case "text:sequence-decls":
        case "text:variable-decls":
        case "text:user-field-decls":
        case "office:forms":
        case "table:tracked-changes":
        case "text:tracked-changes":
          break;
        default:
          this.walk(childrenOf(node), listDepth, nesting + 1);
      }
    }
    this.code(code);
  }
}
