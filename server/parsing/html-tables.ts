import { attr, childrenOf, collapsedText, findAll, hasDoubleBreak, tagName, type DomNode } from "./html-dom";
import { escapeHtml, rowsToText } from "./table-html";

type Cell = { text: string; header: boolean; colspan: number; rowspan: number };

const isTable = (n: DomNode) => tagName(n) === "table";

/** Rows of this table only: rows of nested tables belong to those tables. */
const tableRows = (table: DomNode): DomNode[] => findAll(table, (n) => tagName(n) === "tr", isTable);

const rowCells = (row: DomNode): DomNode[] => childrenOf(row).filter((c) => tagName(c) === "td" || tagName(c) === "th");

const span = (value: string | undefined): number => {
  const n = Number.parseInt(value ?? "1", 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 1000) : 1;
};

/**
 * Tables used to lay out a page rather than to hold data (old sites, e-mail templates, EDGAR filings): they should
 * read as paragraphs. Signs: declared presentational, nested tables, a single row or column, or a cell of prose.
 */
export const isLayoutTable = (table: DomNode): boolean => {
  const role = attr(table, "role")?.toLowerCase();
  if (role === "presentation" || role === "none") return true;
  if (findAll(table, isTable).length > 0) return true;
  const rows = tableRows(table)
    .map(rowCells)
    .filter((cells) => cells.length > 0);
  if (rows.length === 0) return true;
  const filled = rows.flat().filter((c) => collapsedText(c).length > 0);
  if (filled.length <= 1) return true;
  if (rows.every((r) => r.length === 1)) return true;
  return filled.some((cell) => {
    const text = collapsedText(cell);
    if (text.length < 400) return false;
    const blocks = findAll(cell, (n) =>
      ["p", "div", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre"].includes(tagName(n)),
    );
    return blocks.length > 0 || hasDoubleBreak(cell);
  });
};

/** A data table as plain rows of cell text plus a clean <table> (spans and header cells kept, attributes dropped). */
export const tableToElementParts = (table: DomNode): { rows: string[][]; html: string } | null => {
  const rows: Cell[][] = tableRows(table)
    .map((row) =>
      rowCells(row).map((cell) => ({
        text: collapsedText(cell),
        header: tagName(cell) === "th",
        colspan: span(attr(cell, "colspan")),
        rowspan: span(attr(cell, "rowspan")),
      })),
    )
    .filter((cells) => cells.some((c) => c.text.length > 0));
  if (rows.length === 0) return null;
  const html = `<table>${rows
    .map((cells) => {
      const tds = cells.map((c) => {
        const tag = c.header ? "th" : "td";
        const spans = `${c.colspan > 1 ? ` colspan="${c.colspan}"` : ""}${c.rowspan > 1 ? ` rowspan="${c.rowspan}"` : ""}`;
        return `<${tag}${spans}>${escapeHtml(c.text)}</${tag}>`;
      });
      return `<tr>${tds.join("")}</tr>`;
    })
    .join("")}</table>`;
  return { rows: rows.map((cells) => cells.map((c) => c.text)), html };
};

export const tableText = (rows: string[][]): string => rowsToText(rows);
