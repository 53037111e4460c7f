import { escapeHtml } from "../table-html";
import { gridComponents, tableFromGrid } from "./grid-table";
import { findRulings, rulingOptionsFor } from "./rulings";
import { ruleStacks, sameWidth, tableFromRules, tablesFromAlignment } from "./typeset-tables";
import { centreInside, type GrayImage, type OcrWord, type RecoveredTable, type Rule, type TableCell } from "./types";

/**
 * Table structure recovered from a page image and its OCR words, three ways, strongest evidence first:
 * 1. grid: horizontal and vertical ruling lines that cross; cells are the spaces between them, and a missing
 *    stretch of a line between two cells merges them (row and column spans);
 * 2. rules: two or more horizontal rules of the same width with no verticals (typeset tables: top, header and
 *    bottom rule); columns come from the gaps between word boxes;
 * 3. alignment: no lines at all, but three or more rows of short cells separated by wide gaps that line up.
 * The first is grid-table.ts, the others typeset-tables.ts; rows and columns of words, word-layout.ts.
 */

export type { RecoveredTable, TableCell } from "./types";

/** Every table found on a page, top to bottom. Words used by one table are not offered to the next. */
export const findTables = ({
  gray,
  words,
  lineHeight,
}: {
  gray: GrayImage;
  words: OcrWord[];
  /** Typical text line height in pixels on this page. */
  lineHeight: number;
}): RecoveredTable[] => {
  const options = rulingOptionsFor(gray, lineHeight);
  const { horizontal, vertical } = findRulings(gray, options);
  const tol = options.maxThickness + 4;
  const tables: RecoveredTable[] = [];
  const free = () => {
    const used = new Set(tables.flatMap((t) => [...t.words]));
    return words.filter((w) => !used.has(w) && !tables.some((t) => centreInside(w, t)));
  };

  const gridRules = new Set<Rule>();
  const components = gridComponents(horizontal, vertical, tol);
  // Typeset tables often rule only the body with verticals: a rule of the same width just above or below the
  // grid (the top rule over the header) belongs to it.
  for (const component of components) {
    const taken = new Set(components.flatMap((c) => c.h));
    const longest = Math.max(...component.h.map((r) => r.to - r.from));
    const main = component.h.filter((r) => r.to - r.from >= longest * 0.8);
    for (let added = true; added;) {
      added = false;
      const top = Math.min(...component.h.map((r) => r.at));
      const bottom = Math.max(...component.h.map((r) => r.atEnd));
      for (const r of horizontal) {
        if (taken.has(r) || !main.some((m) => sameWidth(m, r, tol * 2))) continue;
        if ((r.atEnd < top && top - r.atEnd <= lineHeight * 4) || (r.at > bottom && r.at - bottom <= lineHeight * 4)) {
          component.h.push(r);
          taken.add(r);
          added = true;
        }
      }
    }
  }
  for (const component of components) {
    const table = tableFromGrid(component, gray, free(), lineHeight, tol);
    if (!table) continue;
    tables.push(table);
    for (const r of component.h) gridRules.add(r);
  }

  const loose = horizontal.filter(
    (r) => !gridRules.has(r) && !tables.some((t) => r.at >= t.top - tol && r.atEnd <= t.bottom + tol),
  );
  for (const stack of ruleStacks(loose, gray)) {
    const table = tableFromRules(stack, free(), gray, lineHeight);
    if (table) tables.push(table);
  }

  tables.push(...tablesFromAlignment(free(), gray));
  return tables.sort((a, b) => a.top - b.top);
};

/** HTML of a recovered table: header rows in <thead> as <th>, spans as colspan/rowspan. */
export const tableHtml = (table: Pick<RecoveredTable, "cells" | "rowCount" | "headerRows">): string => {
  const byRow = new Map<number, TableCell[]>();
  for (const c of table.cells) byRow.set(c.row, [...(byRow.get(c.row) ?? []), c]);
  const rowHtml = (r: number) => {
    const cells = (byRow.get(r) ?? []).sort((a, b) => a.col - b.col);
    const tds = cells.map((c) => {
      const tag = c.header ? "th" : "td";
      const attrs = `${c.colSpan > 1 ? ` colspan="${c.colSpan}"` : ""}${c.rowSpan > 1 ? ` rowspan="${c.rowSpan}"` : ""}`;
      return `<${tag}${attrs}>${escapeHtml(c.text)}</${tag}>`;
    });
    return `<tr>${tds.join("")}</tr>`;
  };
  const head: string[] = [];
  const body: string[] = [];
  for (let r = 0; r < table.rowCount; r++) (r < table.headerRows ? head : body).push(rowHtml(r));
  return `<table>${head.length ? `<thead>${head.join("")}</thead>` : ""}${body.length ? `<tbody>${body.join("")}</tbody>` : ""}</table>`;
};

/** Plain text of a recovered table: one line per row, cells separated by a space. */
export const tableText = (table: Pick<RecoveredTable, "cells" | "rowCount">): string => {
  const lines: string[] = [];
  for (let r = 0; r < table.rowCount; r++) {
    const line = table.cells
      .filter((c) => c.row === r && c.text.trim())
      .sort((a, b) => a.col - b.col)
      .map((c) => c.text.trim())
      .join(" ");
    if (line) lines.push(line);
  }
  return lines.join("\n");
};
