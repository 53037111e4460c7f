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
/** Beyond this many blocks on a sheet, overlapping ones are not merged (that check is quadratic). */
const MAX_BLOCKS_TO_MERGE = 3000;

type Cell = { row: number; col: number; text: string; numeric: boolean; bold: boolean };
type Merge = { top: number; left: number; bottom: number; right: number };
type Block = { top: number; left: number; bottom: number; right: number; numeric: boolean; multiCellRow: boolean };

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

type SheetData = { cells: Map<string, Cell>; merges: Merge[]; truncated: boolean; used: number };

const key = (row: number, col: number) => `${row},${col}`;

const readSheet = (ws: ExcelJS.Worksheet, date1904: boolean, budget: number): SheetData => {
  const cells = new Map<string, Cell>();
  const mergeParts = new Map<string, Merge>();
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
        const id = master.address;
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
  const merges = [...mergeParts.values()].filter(
    (m) => cells.has(key(m.top, m.left)) && (m.bottom > m.top || m.right > m.left),
  );
  return { cells, merges, truncated, used };
};

/** Groups of touching cells (8-neighbourhood, merged areas filled), then groups whose boxes overlap are joined. */
const findBlocks = (data: SheetData): Block[] => {
  const occupied = new Map<string, Cell | null>();
  for (const [k, c] of data.cells) occupied.set(k, c);
  for (const m of data.merges) {
    // Merged areas are clipped: a merge over a whole column must not create a million cells.
    for (let r = m.top; r <= Math.min(m.bottom, m.top + 500); r++) {
      for (let c = m.left; c <= Math.min(m.right, m.left + 200); c++)
        if (!occupied.has(key(r, c))) occupied.set(key(r, c), null);
    }
  }
  const seen = new Set<string>();
  let blocks: Block[] = [];
  for (const start of occupied.keys()) {
    if (seen.has(start)) continue;
    seen.add(start);
    const [r0 = 0, c0 = 0] = start.split(",").map(Number);
    const block: Block = { top: r0, left: c0, bottom: r0, right: c0, numeric: false, multiCellRow: false };
    const stack = [start];
    while (stack.length > 0) {
      const k = stack.pop();
      if (k === undefined) break;
      const [r = 0, c = 0] = k.split(",").map(Number);
      block.top = Math.min(block.top, r);
      block.bottom = Math.max(block.bottom, r);
      block.left = Math.min(block.left, c);
      block.right = Math.max(block.right, c);
      if (occupied.get(k)?.numeric) block.numeric = true;
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
  const overlaps = (a: Block, b: Block) =>
    a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom;
  const join = (a: Block, b: Block): Block => ({
    top: Math.min(a.top, b.top),
    left: Math.min(a.left, b.left),
    bottom: Math.max(a.bottom, b.bottom),
    right: Math.max(a.right, b.right),
    numeric: a.numeric || b.numeric,
    multiCellRow: false,
  });
  const mergeWhile = (should: (a: Block, b: Block) => boolean) => {
    if (blocks.length > MAX_BLOCKS_TO_MERGE) return;
    for (let changed = true; changed;) {
      changed = false;
      outer: for (let i = 0; i < blocks.length; i++) {
        for (let j = i + 1; j < blocks.length; j++) {
          const a = blocks[i];
          const b = blocks[j];
          if (a && b && should(a, b)) {
            blocks = [...blocks.filter((_, x) => x !== i && x !== j), join(a, b)];
            changed = true;
            break outer;
          }
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
    const top = Math.min(l.top, r.top);
    const bottom = Math.max(l.bottom, r.bottom);
    const contained = (x: Block, y: Block) => x.top >= y.top && x.bottom <= y.bottom;
    if (!contained(l, r) && !contained(r, l)) return false;
    for (let row = top; row <= bottom; row++) if (data.cells.has(key(row, l.right + 1))) return false;
    return true;
  });
  for (const b of blocks) b.multiCellRow = hasMultiCellRow(data, b);
  // A header of text cells one blank row above numbers is that table's header, not a table of its own.
  mergeWhile((a, b) => {
    const [upper, lower] = a.top < b.top ? [a, b] : [b, a];
    return (
      lower.top === upper.bottom + 2 &&
      upper.multiCellRow &&
      !upper.numeric &&
      lower.numeric &&
      upper.left <= lower.right &&
      lower.left <= upper.right &&
      !rowHasCells(data, upper.bottom + 1, Math.min(upper.left, lower.left), Math.max(upper.right, lower.right))
    );
  });
  mergeWhile(overlaps);
  for (const b of blocks) b.multiCellRow = hasMultiCellRow(data, b);
  return blocks.sort((a, b) => a.top - b.top || a.left - b.left);
};

const rowHasCells = (data: SheetData, row: number, left: number, right: number) => {
  for (let c = left; c <= right; c++) if (data.cells.has(key(row, c))) return true;
  return false;
};

/** The cells that start in a row of a block (merged areas count once, at their first cell). */
const anchors = (data: SheetData, b: Block, row: number): Cell[] => {
  const out: Cell[] = [];
  for (let c = b.left; c <= b.right; c++) {
    const cell = data.cells.get(key(row, c));
    if (cell) out.push(cell);
  }
  return out;
};

const hasMultiCellRow = (data: SheetData, b: Block) => {
  for (let r = b.top; r <= b.bottom; r++) if (anchors(data, b, r).length > 1) return true;
  return false;
};

const mergeAt = (merges: Merge[], row: number, col: number) =>
  merges.find((m) => row >= m.top && row <= m.bottom && col >= m.left && col <= m.right);

const columnName = (col: number): string => {
  let name = "";
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
};

/** A block's rows as an HTML table: empty rows and columns dropped, merged areas as spans. */
const blockTable = (data: SheetData, top: number, bottom: number, left: number, right: number) => {
  const inBlock = (m: Merge) => m.top >= top && m.top <= bottom && m.left >= left && m.left <= right;
  const merges = data.merges.filter(inBlock);
  const covered = (r: number, c: number) => data.cells.has(key(r, c)) || !!mergeAt(merges, r, c);
  const rows: number[] = [];
  for (let r = top; r <= bottom; r++) {
    let any = false;
    for (let c = left; c <= right && !any; c++) any = covered(r, c);
    if (any) rows.push(r);
  }
  const cols: number[] = [];
  for (let c = left; c <= right; c++) if (rows.some((r) => covered(r, c))) cols.push(c);
  const firstNumeric = rows.findIndex((r) => cols.some((c) => data.cells.get(key(r, c))?.numeric));
  let headerRows = firstNumeric > 0 && firstNumeric <= 4 ? firstNumeric : 0;
  if (firstNumeric === -1 && rows.length > 1) {
    const allBold = (r: number) => cols.map((c) => data.cells.get(key(r, c))).every((cell) => !cell || cell.bold);
    const first = rows[0];
    if (first !== undefined && allBold(first) && rows.slice(1).some((r) => !allBold(r))) headerRows = 1;
  }
  const cells: TableCell[][] = rows.map((r, ri) => {
    const out: TableCell[] = [];
    for (const c of cols) {
      const merge = mergeAt(merges, r, c);
      if (merge && (merge.top !== r || merge.left !== c)) {
        // Hidden by a span, unless the span started in a row or column that was dropped.
        if (rows.includes(merge.top) && cols.includes(merge.left)) continue;
      }
      const text = data.cells.get(key(r, c))?.text ?? "";
      const span = merge && merge.top === r && merge.left === c ? merge : null;
      out.push({
        html: escapeHtml(text),
        text,
        colspan: span ? cols.filter((x) => x >= span.left && x <= span.right).length : 1,
        rowspan: span ? rows.filter((x) => x >= span.top && x <= span.bottom).length : 1,
        header: ri < headerRows,
      });
    }
    return out;
  });
  const texts = cells.map((r) => r.map((c) => c.text));
  const range = `${columnName(cols[0] ?? left)}${rows[0] ?? top}:${columnName(cols[cols.length - 1] ?? right)}${rows[rows.length - 1] ?? bottom}`;
  return { text: rowsToText(texts), html: cellsToHtml(cells), markdown: rowsToMarkdown(texts), range };
};

const sheetElements = (data: SheetData, page: number, sheetName: string): ParsedElement[] => {
  const out: ParsedElement[] = [];
  const base = { pageNumber: page };
  const textElement = (cell: Cell, leading: boolean): ParsedElement => ({
    ...base,
    type: leading && isTitleLike(cell.text) ? "Title" : classifyDocParagraph({ text: cell.text, bold: cell.bold }),
    text: cell.text,
    markdown: cell.text,
    metadata: { sheet_name: sheetName, cell_range: `${columnName(cell.col)}${cell.row}` },
  });
  for (const block of findBlocks(data)) {
    const rowAnchors: { row: number; cells: Cell[] }[] = [];
    for (let r = block.top; r <= block.bottom; r++) {
      const cells = anchors(data, block, r);
      if (cells.length > 0) rowAnchors.push({ row: r, cells });
    }
    const texts = (rows: typeof rowAnchors) => rows.flatMap((r) => r.cells).filter((c) => !isJunkText(c.text));
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
    const loneText = (i: number) => rowAnchors[i]?.cells.length === 1 && !rowAnchors[i]?.cells[0]?.numeric;
    if (block.multiCellRow) {
      while (first <= last && loneText(first)) first++;
      while (last >= first && loneText(last)) last--;
    }
    for (const cell of texts(rowAnchors.slice(0, first))) out.push(textElement(cell, true));
    const top = rowAnchors[first]?.row;
    const bottom = rowAnchors[last]?.row;
    if (top !== undefined && bottom !== undefined && first <= last) {
      const table = blockTable(data, top, bottom, block.left, block.right);
      if (table.text) {
        out.push({
          ...base,
          type: "Table",
          text: table.text,
          html: table.html,
          markdown: table.markdown,
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
    let budget = maxCells;
    for (const [index, ws] of sheets.entries()) {
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
      const hidden = ws.state === "hidden" || ws.state === "veryHidden";
      for (const element of sheetElements(data, index + 1, ws.name)) {
        elements.push(hidden ? { ...element, metadata: { ...element.metadata, sheet_hidden: true } } : element);
      }
    }
    return { elements, totalPages: sheets.length, warnings };
  } catch (error) {
    throw asUnprocessable(error, ext);
  }
};
