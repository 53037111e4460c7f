import ExcelJS from "exceljs";
import { AppError } from "@/server/errors";
import { isSentenceLike, isTitleLike } from "../classify-text";
import { escapeHtml, rowsToText } from "../table-html";
import type { ParsedElement, PartitionResult } from "../types";
import {
  cellsToHtml,
  classifyDocParagraph,
  collapse,
  isJunkText,
  promoteLeadTitles,
  rowsToMarkdown,
  type TableCell,
} from "./common";
import { asUnprocessable } from "./xml";
import { readCharts, type ChartText } from "./xlsx-charts";
import { checkOfficeZip } from "./zip-limits";

/**
 * XLSX: one page per sheet. A sheet is cut into blocks of touching cells (empty rows and columns separate them,
 * as unstructured does); a block's lone cells at the top are its titles, at the bottom its notes, and the rest is a
 * table. Cell values are what Excel last saved: formulas are never evaluated, their cached result is used.
 */

/** Cells read across the workbook; the rest is left out with a warning. */
export const MAX_CELLS = 1_000_000;
/** Sheet XML past this is refused before exceljs builds its (much larger) object model of it. */
const MAX_SHEET_XML_BYTES = 100 * 1024 * 1024;

type Cell = { row: number; col: number; text: string; numeric: boolean; bold: boolean };
type Merge = { top: number; left: number; bottom: number; right: number };

const DATE_TOKENS_RE = /[dmyhs]/i;
const YEAR_RE = /^(?:19|20)\d\d$/;
const NUMERIC_TEXT_RE = /^(?:[—–-]+|[(+\-]?[$€£¥]?\s?\d[\d.,\s]*%?\)?)$/;

/** Whether a number format shows a date or time ("yyyy-mm-dd", "d/m/yy h:mm"); quoted text does not count. */
const isDateFormat = (fmt: string | undefined): boolean => {
  if (!fmt || fmt === "General") return false;
  const bare = fmt
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[(?!h\]|m\]|s\])[^\]]*\]/gi, "");
  return DATE_TOKENS_RE.test(bare) && !/^[#0.,%E+\-\s]*$/.test(bare);
};

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** ISO date, with the time only when there is one; times without a date (serial < 1) as HH:MM:SS. */
const isoDate = (date: Date): string => {
  if (Number.isNaN(date.getTime())) return "";
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  if (date.getUTCFullYear() < 1900) return time;
  const day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  return time === "00:00:00" ? day : `${day}T${time}`;
};

const serialToDate = (serial: number, date1904: boolean): Date =>
  new Date(Math.round((serial - (date1904 ? 24107 : 25569)) * 86_400_000));

const formatNumber = (n: number, fmt: string | undefined): string => {
  if (!Number.isFinite(n)) return String(n);
  // 15 significant digits is what Excel shows; more only prints float noise (0.30000000000000004).
  if (fmt && /%/.test(fmt.replace(/"[^"]*"/g, ""))) return `${Number((n * 100).toPrecision(15))}%`;
  return String(Number(n.toPrecision(15)));
};

type Value = ExcelJS.CellValue | undefined;

const valueText = (
  value: Value,
  fmt: string | undefined,
  date1904: boolean,
  depth = 0,
): { text: string; numeric: boolean } => {
  if (value === null || value === undefined || depth > 3) return { text: "", numeric: false };
  if (typeof value === "number") {
    return isDateFormat(fmt)
      ? { text: isoDate(serialToDate(value, date1904)), numeric: true }
      : { text: formatNumber(value, fmt), numeric: true };
  }
  if (typeof value === "string") return { text: value, numeric: false };
  if (typeof value === "boolean") return { text: value ? "TRUE" : "FALSE", numeric: false };
  if (value instanceof Date) return { text: isoDate(value), numeric: true };
  if (typeof value === "object") {
    if ("richText" in value && Array.isArray(value.richText)) {
      return { text: value.richText.map((r) => r.text ?? "").join(""), numeric: false };
    }
    if ("error" in value) return { text: String(value.error ?? ""), numeric: false };
    // Formulas: the value Excel cached when it saved the file. Nothing is ever computed here.
    if ("formula" in value || "sharedFormula" in value) {
      return valueText((value as { result?: Value }).result, fmt, date1904, depth + 1);
    }
    if ("text" in value) return valueText((value as { text: Value }).text, fmt, date1904, depth + 1);
  }
  return { text: "", numeric: false };
};

type SheetData = {
  cells: Map<number, Cell>;
  /** Merged areas by the key of their (non-empty) first cell. */
  merges: Map<number, Merge>;
  /** The other cells of each merged area (clipped), pointing at their merge. */
  covered: Map<number, Merge>;
  truncated: boolean;
  used: number;
};

/** A cell as one number (Excel has at most 16,384 columns): much faster in maps and sets than "row,col". */
const COLS = 16_385;
const key = (row: number, col: number) => row * COLS + col;

/** A merged area is read up to this size: a merge over whole columns must not create a million cells. */
const MERGE_CLIP_ROWS = 500;
const MERGE_CLIP_COLS = 200;
const MAX_COVERED_CELLS = 1_000_000;
/** Tables whose grid (rows x columns) is larger than this are written row by row, without the empty cells. */
const MAX_GRID_CELLS = 500_000;
/** Comparisons allowed when joining blocks (the joins are pairwise). */
const MAX_BLOCK_COMPARISONS = 20_000_000;

const readSheet = (ws: ExcelJS.Worksheet, date1904: boolean, budget: number): SheetData => {
  const cells = new Map<number, Cell>();
  const mergeParts = new Map<number, Merge>();
  let used = 0;
  let truncated = false;
  ws.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (truncated) return;
    row.eachCell({ includeEmpty: false }, (cell, colNumber) => {
      if (truncated) return;
      if (used >= budget) {
        truncated = true;
        return;
      }
      used++;
      if (cell.isMerged) {
        const master = cell.master;
        const id = key(Number(master.row), Number(master.col));
        const m = mergeParts.get(id) ?? {
          top: Number(master.row),
          left: Number(master.col),
          bottom: Number(master.row),
          right: Number(master.col),
        };
        m.top = Math.min(m.top, rowNumber);
        m.bottom = Math.max(m.bottom, rowNumber);
        m.left = Math.min(m.left, colNumber);
        m.right = Math.max(m.right, colNumber);
        mergeParts.set(id, m);
        if (master.address !== cell.address) return;
      }
      const { text, numeric } = valueText(cell.value, cell.numFmt, date1904);
      const clean = collapse(text);
      if (!clean) return;
      cells.set(key(rowNumber, colNumber), {
        row: rowNumber,
        col: colNumber,
        text: clean,
        // Numbers typed as text ("1,234", "(12)") and dashes standing for zero are figures too; a year is
        // usually a column heading, not a figure.
        numeric: (numeric || NUMERIC_TEXT_RE.test(clean)) && !YEAR_RE.test(clean),
        bold: !!cell.font?.bold,
      });
    });
  });
  // A merge whose first cell is empty (a blank banner, a picture's frame) joins nothing.
  const merges = new Map<number, Merge>();
  const covered = new Map<number, Merge>();
  for (const [id, m] of mergeParts) {
    if (!cells.has(id) || (m.bottom === m.top && m.right === m.left)) continue;
    merges.set(id, m);
    for (let r = m.top; r <= Math.min(m.bottom, m.top + MERGE_CLIP_ROWS); r++) {
      for (let c = m.left; c <= Math.min(m.right, m.left + MERGE_CLIP_COLS); c++) {
        if (covered.size >= MAX_COVERED_CELLS) break;
        if (r !== m.top || c !== m.left) covered.set(key(r, c), m);
      }
    }
  }
  return { cells, merges, covered, truncated, used };
};

/** A group of touching cells; `parts` are the non-empty cells (lists, so joining blocks copies nothing). */
type Block = {
  top: number;
  left: number;
  bottom: number;
  right: number;
  numeric: boolean;
  multiCellRow: boolean;
  parts: Cell[][];
};

const rowsOf = (block: Block): { row: number; cells: Cell[] }[] => {
  const byRow = new Map<number, Cell[]>();
  for (const part of block.parts) {
    for (const cell of part) {
      const list = byRow.get(cell.row);
      if (list) list.push(cell);
      else byRow.set(cell.row, [cell]);
    }
  }
  return [...byRow.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([row, cells]) => ({ row, cells: cells.sort((a, b) => a.col - b.col) }));
};

const hasMultiCellRow = (block: Block): boolean => {
  const seen = new Set<number>();
  for (const part of block.parts) {
    for (const cell of part) {
      if (seen.has(cell.row)) return true;
      seen.add(cell.row);
    }
  }
  return false;
};

/** Groups of touching occupied cells (8-neighbourhood), each a block with its box and cells. */
const touchingGroups = (data: SheetData, occupied: Set<number>): Block[] => {
  const seen = new Set<number>();
  const blocks: Block[] = [];
  for (const start of occupied) {
    if (seen.has(start)) continue;
    seen.add(start);
    const r0 = Math.floor(start / COLS);
    const c0 = start % COLS;
    const cells: Cell[] = [];
    const block: Block = {
      top: r0,
      left: c0,
      bottom: r0,
      right: c0,
      numeric: false,
      multiCellRow: false,
      parts: [cells],
    };
    const stack = [start];
    while (stack.length > 0) {
      const k = stack.pop();
      if (k === undefined) break;
      const r = Math.floor(k / COLS);
      const c = k % COLS;
      block.top = Math.min(block.top, r);
      block.bottom = Math.max(block.bottom, r);
      block.left = Math.min(block.left, c);
      block.right = Math.max(block.right, c);
      const cell = data.cells.get(k);
      if (cell) {
        cells.push(cell);
        if (cell.numeric) block.numeric = true;
      }
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          const n = key(r + dr, c + dc);
          if (!seen.has(n) && occupied.has(n)) {
            seen.add(n);
            stack.push(n);
          }
        }
      }
    }
    blocks.push(block);
  }
  return blocks;
};

/**
 * Groups of touching cells (8-neighbourhood, merged areas filled), as unstructured cuts a sheet at empty rows and
 * columns; then groups whose boxes overlap, spacer-separated column groups and header rows are joined.
 */
const findBlocks = (data: SheetData): Block[] => {
  const occupied = new Set<number>([...data.cells.keys(), ...data.covered.keys()]);
  const blocks = touchingGroups(data, occupied);
  const overlaps = (a: Block, b: Block) =>
    a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom;
  const join = (a: Block, b: Block): Block => ({
    top: Math.min(a.top, b.top),
    left: Math.min(a.left, b.left),
    bottom: Math.max(a.bottom, b.bottom),
    right: Math.max(a.right, b.right),
    numeric: a.numeric || b.numeric,
    multiCellRow: a.multiCellRow || b.multiCellRow,
    parts: [...a.parts, ...b.parts],
  });
  let comparisons = MAX_BLOCK_COMPARISONS;
  const mergeWhile = (should: (a: Block, b: Block) => boolean) => {
    for (let changed = true; changed;) {
      changed = false;
      for (let i = 0; i < blocks.length; i++) {
        for (let j = i + 1; j < blocks.length; j++) {
          if (--comparisons <= 0) return;
          const a = blocks[i];
          const b = blocks[j];
          if (!a || !b || !should(a, b)) continue;
          blocks[i] = join(a, b);
          blocks.splice(j, 1);
          changed = true;
          j = i;
        }
      }
    }
  };
  mergeWhile(overlaps);
  // Financial sheets put one empty spacer column between groups of a table's columns: a block one empty column
  // beside another, within its rows, continues it.
  mergeWhile((a, b) => {
    const [l, r] = a.left < b.left ? [a, b] : [b, a];
    if (r.left !== l.right + 2) return false;
    const contained = (x: Block, y: Block) => x.top >= y.top && x.bottom <= y.bottom;
    if (!contained(l, r) && !contained(r, l)) return false;
    const top = Math.min(l.top, r.top);
    const bottom = Math.max(l.bottom, r.bottom);
    for (let row = top; row <= bottom; row++) if (occupied.has(key(row, l.right + 1))) return false;
    return true;
  });
  for (const b of blocks) b.multiCellRow = hasMultiCellRow(b);
  // A header of text cells one blank row above numbers is that table's header, not a table of its own.
  mergeWhile((a, b) => {
    const [upper, lower] = a.top < b.top ? [a, b] : [b, a];
    if (lower.top !== upper.bottom + 2 || !upper.multiCellRow || upper.numeric || !lower.numeric) return false;
    if (upper.left > lower.right || lower.left > upper.right) return false;
    for (let c = Math.min(upper.left, lower.left); c <= Math.max(upper.right, lower.right); c++) {
      if (occupied.has(key(upper.bottom + 1, c))) return false;
    }
    return true;
  });
  mergeWhile(overlaps);
  for (const b of blocks) b.multiCellRow = hasMultiCellRow(b);
  return blocks.sort((a, b) => a.top - b.top || a.left - b.left);
};

const columnName = (col: number): string => {
  let name = "";
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
};

/** How many of the sorted numbers lie in [lo, hi]. */
const countInRange = (sorted: number[], lo: number, hi: number): number => {
  const bound = (x: number) => {
    let a = 0;
    let b = sorted.length;
    while (a < b) {
      const mid = (a + b) >> 1;
      if ((sorted[mid] ?? 0) < x) a = mid + 1;
      else b = mid;
    }
    return a;
  };
  return bound(hi + 1) - bound(lo);
};

/** Cells as an HTML table: empty rows and columns dropped, merged areas as spans, leading text rows as header. */
const blockTable = (data: SheetData, anchorsByRow: { row: number; cells: Cell[] }[]) => {
  const rowSet = new Set<number>();
  const colSet = new Set<number>();
  const anchorKeys = new Set<number>();
  for (const { row, cells } of anchorsByRow) {
    rowSet.add(row);
    for (const cell of cells) {
      anchorKeys.add(key(cell.row, cell.col));
      colSet.add(cell.col);
      const m = data.merges.get(key(cell.row, cell.col));
      if (!m) continue;
      for (let r = m.top; r <= Math.min(m.bottom, m.top + MERGE_CLIP_ROWS); r++) rowSet.add(r);
      for (let c = m.left; c <= Math.min(m.right, m.left + MERGE_CLIP_COLS); c++) colSet.add(c);
    }
  }
  const rows = [...rowSet].sort((a, b) => a - b);
  const cols = [...colSet].sort((a, b) => a - b);
  const range = `${columnName(cols[0] ?? 1)}${rows[0] ?? 1}:${columnName(cols[cols.length - 1] ?? 1)}${rows[rows.length - 1] ?? 1}`;
  // Header rows: the text rows above the first row with a figure; without figures, a bold first row.
  const firstNumeric = anchorsByRow.findIndex((r) => r.cells.some((c) => c.numeric));
  let headerRows = firstNumeric > 0 && firstNumeric <= 4 ? (anchorsByRow[firstNumeric]?.row ?? 0) : 0;
  if (firstNumeric === -1 && anchorsByRow.length > 1) {
    const allBold = (cells: Cell[]) => cells.every((c) => c.bold);
    const [first, ...rest] = anchorsByRow;
    if (first && allBold(first.cells) && rest.some((r) => !allBold(r.cells))) headerRows = rest[0]?.row ?? 0;
  }
  let cells: TableCell[][];
  if (rows.length * cols.length > MAX_GRID_CELLS) {
    // Too sparse and large for a grid: each row lists its own cells.
    cells = anchorsByRow.map(({ row, cells: rowCells }) =>
      rowCells.map((c) => ({ html: escapeHtml(c.text), text: c.text, header: row < headerRows })),
    );
  } else {
    cells = rows.map((r) => {
      const out: TableCell[] = [];
      for (const c of cols) {
        const k = key(r, c);
        const under = data.covered.get(k);
        // Hidden by a span, unless the span starts outside this table.
        if (under && anchorKeys.has(key(under.top, under.left))) continue;
        const text = data.cells.get(k)?.text ?? "";
        const span = data.merges.get(k);
        out.push({
          html: escapeHtml(text),
          text,
          colspan: span ? countInRange(cols, span.left, span.right) : 1,
          rowspan: span ? countInRange(rows, span.top, span.bottom) : 1,
          header: r < headerRows,
        });
      }
      return out;
    });
  }
  const texts = cells.map((r) => r.map((c) => c.text));
  return { text: rowsToText(texts), html: cellsToHtml(cells), markdown: rowsToMarkdown(texts), range };
};

const sheetElements = (data: SheetData, page: number, sheetName: string): ParsedElement[] => {
  const out: ParsedElement[] = [];
  const textElement = (cell: Cell, leading: boolean): ParsedElement => ({
    type: leading && isTitleLike(cell.text) ? "Title" : classifyDocParagraph({ text: cell.text, bold: cell.bold }),
    text: cell.text,
    markdown: cell.text,
    pageNumber: page,
    metadata: { sheet_name: sheetName, cell_range: `${columnName(cell.col)}${cell.row}` },
  });
  const texts = (rows: { cells: Cell[] }[]) => rows.flatMap((r) => r.cells).filter((c) => !isJunkText(c.text));
  for (const block of findBlocks(data)) {
    const rowAnchors = rowsOf(block);
    if (!block.multiCellRow) {
      // A column of lone cells: a few lines or sentences (notes) are text; a long list of values is a table.
      const sentences = rowAnchors.filter((r) => isSentenceLike(r.cells[0]?.text ?? "")).length;
      if (rowAnchors.length <= 3 || sentences * 2 >= rowAnchors.length) {
        // The sheet's first line, or a bold one, is a heading when it reads like one.
        for (const cell of texts(rowAnchors)) out.push(textElement(cell, out.length === 0 || cell.bold));
        continue;
      }
    }
    let first = 0;
    let last = rowAnchors.length - 1;
    // Lone text cells above a table are its titles, below it its notes.
    const loneText = (i: number) => rowAnchors[i]?.cells.length === 1 && !rowAnchors[i]?.cells[0]?.numeric;
    if (block.multiCellRow) {
      while (first <= last && loneText(first)) first++;
      while (last >= first && loneText(last)) last--;
    }
    for (const cell of texts(rowAnchors.slice(0, first))) out.push(textElement(cell, true));
    if (first <= last) {
      const table = blockTable(data, rowAnchors.slice(first, last + 1));
      if (table.text) {
        out.push({
          type: "Table",
          text: table.text,
          html: table.html,
          markdown: table.markdown,
          pageNumber: page,
          metadata: { sheet_name: sheetName, cell_range: table.range },
        });
      }
    }
    for (const cell of texts(rowAnchors.slice(last + 1))) out.push(textElement(cell, false));
  }
  promoteLeadTitles(out);
  return out;
};

export const partitionXlsx = async (
  bytes: Uint8Array,
  ext = "xlsx",
  { maxCells = MAX_CELLS }: { maxCells?: number } = {},
): Promise<PartitionResult> => {
  const entries = await checkOfficeZip(bytes, ext);
  const sheetBytes = entries
    .filter((e) => /^xl\/(?:worksheets\/[^/]+\.xml|sharedStrings\.xml)$/i.test(e.name))
    .reduce((n, e) => n + e.size, 0);
  if (sheetBytes > MAX_SHEET_XML_BYTES) {
    throw new AppError(
      "UNPROCESSABLE",
      `The .${ext} file holds ${Math.round(sheetBytes / (1024 * 1024))} MB of cell data, more than the ${MAX_SHEET_XML_BYTES / (1024 * 1024)} MB Quarry reads from a workbook; split it into smaller files`,
    );
  }
  try {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
    const date1904 = !!(workbook.properties as { date1904?: boolean } | undefined)?.date1904;
    const sheets = workbook.worksheets;
    if (sheets.length === 0) throw new AppError("UNPROCESSABLE", `The .${ext} file has no worksheets`);
    const warnings: string[] = [];
    const elements: ParsedElement[] = [];
    const charts = await readCharts(bytes).catch(() => new Map<string, ChartText[]>());
    let budget = maxCells;
    for (const [index, ws] of sheets.entries()) {
      // A hidden sheet holds lookups and scratch work its author chose not to show: left out, and said so.
      if (ws.state === "hidden" || ws.state === "veryHidden") {
        warnings.push(`Sheet "${ws.name}" is hidden and was not read`);
        continue;
      }
      if (budget <= 0) {
        warnings.push(
          `Sheet "${ws.name}" and the sheets after it were not read: the workbook has more than ${maxCells.toLocaleString("en-US")} cells`,
        );
        break;
      }
      const data = readSheet(ws, date1904, budget);
      budget -= data.used;
      if (data.truncated)
        warnings.push(
          `Sheet "${ws.name}" was read only in part: Quarry reads the first ${maxCells.toLocaleString("en-US")} cells of a workbook`,
        );
      const page = index + 1;
      const meta = { sheet_name: ws.name };
      const content = sheetElements(data, page, ws.name);
      const sheetCharts = charts.get(ws.name) ?? [];
      // The sheet's name heads its page: it is what the workbook calls this table ("Q3 by region").
      const titled =
        content[0]?.type === "Title" && content[0].text.trim().toLowerCase() === ws.name.trim().toLowerCase();
      if ((content.length > 0 || sheetCharts.length > 0) && !titled) {
        elements.push({ type: "Title", text: ws.name, markdown: `# ${ws.name}`, pageNumber: page, metadata: meta });
      }
      elements.push(...content);
      for (const chart of sheetCharts) {
        elements.push({
          type: "Chart",
          text: chart.text,
          pageNumber: page,
          metadata: { ...meta, chart_title: chart.title },
        });
      }
    }
    return { elements, totalPages: sheets.length, warnings };
  } catch (error) {
    throw asUnprocessable(error, ext);
  }
};
