import {
  classifyParagraph,
  hasLetters,
  isAddress,
  isEmailAddress,
  isPageNumberText,
  isTitleLike,
} from "../classify-text";
import { escapeHtml } from "../table-html";
import type { ElementType, ParsedElement } from "../types";

/** Shared by the Office parsers: images, tables, inline markdown and paragraph types. */

/** One embedded image larger than this is not copied into an element (the element still says it is there). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Past these, images are listed without their bytes: the elements would otherwise dwarf the document. */
export const MAX_IMAGES = 500;
export const MAX_TOTAL_IMAGE_BYTES = 100 * 1024 * 1024;

const IMAGE_SIGNATURES: { mime: string; test: (b: Uint8Array) => boolean }[] = [
  { mime: "image/png", test: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 },
  { mime: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: "image/gif", test: (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 },
  { mime: "image/bmp", test: (b) => b[0] === 0x42 && b[1] === 0x4d },
  {
    mime: "image/tiff",
    test: (b) => (b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a) || (b[0] === 0x4d && b[1] === 0x4d && b[3] === 0x2a),
  },
  {
    mime: "image/webp",
    test: (b) => b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45,
  },
];

/** The raster type of image bytes, or null (EMF/WMF/SVG and unknown data are not rasters a model can look at). */
export const rasterMime = (bytes: Uint8Array): string | null =>
  IMAGE_SIGNATURES.find((s) => bytes.length > 12 && s.test(bytes))?.mime ?? null;

/** Keeps the image budget of one document and says what was left out. */
export class ImageBudget {
  private count = 0;
  private total = 0;
  private skippedLarge = 0;
  private skippedBudget = 0;

  /** Base64 of the bytes when they may be kept, otherwise null (counted for the warning). */
  take(bytes: Uint8Array): string | null {
    if (bytes.length > MAX_IMAGE_BYTES) {
      this.skippedLarge++;
      return null;
    }
    if (this.count >= MAX_IMAGES || this.total + bytes.length > MAX_TOTAL_IMAGE_BYTES) {
      this.skippedBudget++;
      return null;
    }
    this.count++;
    this.total += bytes.length;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
  }

  warnings(): string[] {
    const out: string[] = [];
    if (this.skippedLarge > 0) {
      out.push(
        `${this.skippedLarge} embedded image(s) larger than ${MAX_IMAGE_BYTES / (1024 * 1024)} MB were listed without their bytes`,
      );
    }
    if (this.skippedBudget > 0) {
      out.push(
        `${this.skippedBudget} embedded image(s) past the first ${MAX_IMAGES} (or ${MAX_TOTAL_IMAGE_BYTES / (1024 * 1024)} MB) were listed without their bytes`,
      );
    }
    return out;
  }
}

/** Inline text with its formatting, the unit from which plain text and markdown are both built. */
export type Span = { text: string; bold?: boolean; italic?: boolean; href?: string | null };

const SAFE_LINK_RE = /^(?:https?:|mailto:)/i;

/** Only links a reader can follow safely survive into markdown and HTML. */
export const safeHref = (href: string | undefined | null): string | null => {
  const h = (href ?? "").trim();
  return h && SAFE_LINK_RE.test(h) ? h : null;
};

/** `**text**` with the spaces moved outside the markers ("** bold **" is not emphasis in markdown). */
const wrap = (text: string, marker: string): string => {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text);
  const [, lead = "", core = "", trail = ""] = match ?? [];
  return core ? `${lead}${marker}${core}${marker}${trail}` : text;
};

/** Markdown of inline spans: adjacent spans with the same format are merged before wrapping. */
export const spansToMarkdown = (spans: Span[]): string => {
  const merged: Span[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && !!last.bold === !!s.bold && !!last.italic === !!s.italic && (last.href ?? null) === (s.href ?? null)) {
      last.text += s.text;
    } else merged.push({ ...s });
  }
  return merged
    .map((s) => {
      let out = s.text.replace(/[ \t]+/g, " ");
      if (s.bold && s.italic) out = wrap(out, "***");
      else if (s.bold) out = wrap(out, "**");
      else if (s.italic) out = wrap(out, "*");
      if (s.href && out.trim()) out = wrap(out, "\u0000").replace(/\u0000([\s\S]*)\u0000/, `[$1](${s.href})`);
      return out;
    })
    .join("")
    .replace(/ *\n */g, "\n")
    .trim();
};

/** Plain text of a paragraph: spaces and tabs collapsed, line breaks kept. */
export const cleanText = (text: string): string =>
  text
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{2,}/g, "\n")
    .trim();

export const collapse = (text: string): string => text.replace(/\s+/g, " ").trim();

const NUMBERED_HEADING_RE = /^(?:[A-Z]|[IVX]{1,5}|\d{1,3}(?:\.\d{1,3}){0,3})[.)]?\s+(\S[\s\S]*)$/;

/** "A.\tPURPOSE", "1.2 RESULTS": a numbered line in capitals is a heading, not a list item. */
const isNumberedCapsHeading = (text: string): boolean => {
  const rest = NUMBERED_HEADING_RE.exec(text)?.[1];
  return !!rest && hasLetters(rest) && rest === rest.toUpperCase() && rest.length <= 100;
};

const isAllCaps = (text: string): boolean => {
  const letters = text.replace(/[^\p{L}]/gu, "");
  return letters.length >= 2 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
};

const BULLET_GLYPH_RE = /^[ \t]*[•·◦▪▫‣⁃●○■□➢➤►▶✓✔\-–—*][ \t]+(?=\S)/;

/** The bullet glyph a paragraph was typed with ("• Parrots"), which makes it a list item. */
export const bulletGlyphLength = (text: string): number => BULLET_GLYPH_RE.exec(text.slice(0, 20))?.[0].length ?? 0;

/**
 * Type of a paragraph that its document did not mark (no heading style, no list numbering). A heading needs a sign
 * beyond being short: set in bold, in capitals, or numbered in capitals ("A. PURPOSE").
 */
export const classifyDocParagraph = ({ text, bold }: { text: string; bold: boolean }): ElementType => {
  if (bulletGlyphLength(text) > 0) return "ListItem";
  if (isEmailAddress(text)) return "EmailAddress";
  if (isAddress(text)) return "Address";
  const titleLike = isTitleLike(text.replace(/\t/g, " "));
  if (titleLike && (bold || isAllCaps(text) || isNumberedCapsHeading(text))) return "Title";
  return classifyParagraph({ text, hasFollowingText: false });
};

/** Text made only of symbols (a lone "•", a row of dashes) says nothing on its own. */
export const isJunkText = (text: string): boolean => !/[\p{L}\p{N}]/u.test(text);

/**
 * A short unmarked line ("Analysis") directly followed by prose, a list or a table heads it. Decided after the
 * walk, when what follows is known.
 */
export const promoteLeadTitles = (elements: ParsedElement[]): void => {
  for (let i = 0; i + 1 < elements.length; i++) {
    const e = elements[i];
    const next = elements[i + 1];
    if (!e || !next || e.type !== "UncategorizedText" || e.pageNumber !== next.pageNumber) continue;
    if (!["NarrativeText", "ListItem", "Table"].includes(next.type)) continue;
    if (isTitleLike(e.text) && !e.text.includes("\n")) e.type = "Title";
  }
};

export type TableCell = {
  /** Inner HTML, already escaped/sanitised. */
  html: string;
  text: string;
  colspan?: number;
  rowspan?: number;
  header?: boolean;
};

/** A real <table>: rows whose cells are all header cells go in <thead>. */
export const cellsToHtml = (rows: TableCell[][]): string => {
  const rowHtml = (cells: TableCell[]) =>
    `<tr>${cells
      .map((c) => {
        const tag = c.header ? "th" : "td";
        const spans = `${(c.colspan ?? 1) > 1 ? ` colspan="${c.colspan}"` : ""}${(c.rowspan ?? 1) > 1 ? ` rowspan="${c.rowspan}"` : ""}`;
        return `<${tag}${spans}>${c.html}</${tag}>`;
      })
      .join("")}</tr>`;
  let headRows = 0;
  while (headRows < rows.length - 1) {
    const cells = rows[headRows] ?? [];
    if (cells.length === 0 || !cells.every((c) => c.header)) break;
    headRows++;
  }
  const head = rows.slice(0, headRows);
  const body = rows.slice(headRows);
  return `<table>${head.length > 0 ? `<thead>${head.map(rowHtml).join("")}</thead>` : ""}<tbody>${body.map(rowHtml).join("")}</tbody></table>`;
};

export const textCell = (text: string, extra: Omit<TableCell, "html" | "text"> = {}): TableCell => ({
  html: escapeHtml(text),
  text,
  ...extra,
});

/** A GitHub pipe table of the cell texts (spans flattened): the markdown of a Table element. */
export const rowsToMarkdown = (rows: string[][]): string => {
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width === 0) return "";
  const cell = (t: string) => collapse(t).replace(/\|/g, "\\|");
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => cell(r[i] ?? "")).join(" | ")} |`;
  const [head = [], ...body] = rows;
  return [line(head), `| ${Array.from({ length: width }, () => "---").join(" | ")} |`, ...body.map(line)].join("\n");
};

/** HTML of inline spans (inside table cells): text escaped, emphasis and safe links kept. */
export const spansToHtml = (spans: Span[]): string =>
  spans
    .map((s) => {
      let out = escapeHtml(s.text.replace(/[ \t]+/g, " ")).replace(/\n/g, "<br>");
      if (s.bold) out = `<strong>${out}</strong>`;
      if (s.italic) out = `<em>${out}</em>`;
      if (s.href) out = `<a href="${escapeHtml(s.href)}">${out}</a>`;
      return out;
    })
    .join("");

/**
 * Pages of a flowing document, counted from the breaks its file records. A rendered break (written by the editor
 * when it last laid the document out) right after an explicit one is the same page turn; breaks before any text
 * would only make blank leading pages, so they do not count.
 */
export class PageCounter {
  page = 1;
  private textSinceBreak = false;
  private sawText = false;

  hardBreak() {
    if (!this.sawText) return;
    this.page++;
    this.textSinceBreak = false;
  }

  renderedBreak() {
    if (!this.sawText || !this.textSinceBreak) return;
    this.page++;
    this.textSinceBreak = false;
  }

  /** Records text; returns whether it was visible (so its page is the current one). */
  text(text: string): boolean {
    if (text.trim() === "") return false;
    this.sawText = this.textSinceBreak = true;
    return true;
  }
}

/** What is left of "Page {PAGE} of {NUMPAGES}" once the fields are gone, or a typed page number. */
export const isPageChrome = (text: string): boolean =>
  isPageNumberText(text) || /^(?:page|p\.|seite|página|pagina)?\s*(?:of|\/|de|von|sur)?\s*$/i.test(text.trim());
