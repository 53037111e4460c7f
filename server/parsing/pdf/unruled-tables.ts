import { escapeHtml } from "../table-html";
import type { GridCell } from "../table-structure";
import { isKeyValueList, isProseBeside } from "./forms";
import { type PlacedCell, widenGroupHeadings } from "./group-headings";
import { raiseCentredStub } from "./header-stub";
import { spanRowGroups } from "./row-groups";
import type { Line, Run, UnruledTable } from "./types";
import { joinRuns } from "./layout";
import { joinBrokenWords, joinCellLines, joinWrappedCells } from "./wrapped-cells";

/**
 * Tables set without ruling lines, from the text's positions alone. The lines of a candidate run (blocks.ts) are cut
 * into atoms (the layout's runs, split wherever a gap is wider than a word space), and columns are the union of the
 * atoms' x-ranges: two values a narrow gap apart stay two cells. An atom that reaches over two cells of another row
 * is a spanning header (colspan); the leading rows without figures are the header, their wrapped lines joined.
 */

type Atom = { left: number; right: number; text: string };
type Interval = { left: number; right: number };

/** Runs closer than this many font sizes are one cell's words (a font change inside a cell, not a new cell). */
const WORD_GAP_EM = 0.45;

/**
 * Dot leaders set as a run of their own after a row label, a footnote mark before them ("Stolen property", "1 . . .")
 * belong to the label's cell: never a column of dots.
 */
const LEADERS = /^(?:\S{1,2}\s+)?(?:[.·…_]\s*){3,}$/;

const atomsOf = (line: Line): Atom[] => {
  const runs: Run[] = line.segments.flatMap((s) => s.runs).sort((a, b) => a.left - b.left);
  const groups: { left: number; right: number; runs: Run[] }[] = [];
  for (const run of runs) {
    if (!run.text.trim()) continue;
    const last = groups[groups.length - 1];
    // Measured in the larger font: a footnote mark set small after a heading ("response a") is still its cell's.
    const em = Math.max(run.fontSize, last?.runs[last.runs.length - 1]?.fontSize ?? 0);
    if (last && run.left - last.right < WORD_GAP_EM * em) {
      last.runs.push(run);
      last.right = Math.max(last.right, run.right);
    } else groups.push({ left: run.left, right: run.right, runs: [run] });
  }
  // An atom's runs are joined as the line's text is: a sign in another font against its digits stays one word.
  const atoms = groups.map((g) => ({ left: g.left, right: g.right, text: joinRuns(g.runs) }));
  // Leaders (and the mark before them) go into the label's cell.
  return atoms.reduce<Atom[]>((out, atom) => {
    const label = out[out.length - 1];
    if (label && LEADERS.test(atom.text)) {
      label.text = `${label.text} ${atom.text}`;
      label.right = atom.right;
    } else out.push(atom);
    return out;
  }, []);
};

const overlaps = (a: Interval, b: Interval) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5;

/** Reaches over two or more atoms of one other row: a heading over several columns. */
const spans = (atom: Atom, rows: Atom[][], own: number) =>
  rows.some((row, i) => i !== own && row.filter((other) => overlaps(atom, other)).length >= 2);

const mergeIntervals = (atoms: Atom[], into: Interval[] = []): Interval[] => {
  const all = [...into.map((iv) => ({ ...iv })), ...atoms.map((a) => ({ left: a.left, right: a.right }))];
  all.sort((a, b) => a.left - b.left);
  const merged: Interval[] = [];
  for (const iv of all) {
    const last = merged[merged.length - 1];
    if (last && iv.left < last.right - 0.5) last.right = Math.max(last.right, iv.right);
    else merged.push(iv);
  }
  return merged;
};

/**
 * Columns: the union of the atoms of the rows with the most atoms (body rows), then the other rows' atoms that fall
 * in one column or in none (a column empty in the body rows). Atoms over two columns are spans, not column merges.
 */
const columnsOf = (rows: Atom[][]): Interval[] => {
  const counts = rows.map((r) => r.length).sort((a, b) => a - b);
  const typical = counts[Math.floor(counts.length / 2)] ?? 0;
  const isTypical = (r: Atom[]) => r.length >= typical;
  const narrow = rows.map((row, i) => row.filter((a) => !spans(a, rows, i)));
  let columns = mergeIntervals(narrow.filter((_, i) => isTypical(rows[i] ?? [])).flat());
  // A heading alone on its line between two columns ("Grade" over the grades' columns, in the gap between two of
  // them) is a group heading, not a column of its own.
  const first = columns[0];
  const last = columns[columns.length - 1];
  const between = (a: Atom, row: Atom[]) =>
    row.length === 1 && !!first && !!last && a.left > first.right && a.right < last.left;
  const rest = narrow.flatMap((row, i) =>
    isTypical(rows[i] ?? []) ? [] : row.filter((a) => !(between(a, row) && !columns.some((c) => overlaps(a, c)))),
  );
  const fitting = rest.filter((a) => columns.filter((c) => overlaps(a, c)).length <= 1);
  columns = mergeIntervals(fitting, columns);
  return withoutHeadingOnlyColumns(
    columns,
    rows,
    rows.findIndex((row) => row.some((a) => isFigure(a.text))),
  );
};

const centreDistance = (a: Interval, b: Interval) => Math.abs(a.left + a.right - b.left - b.right) / 2;

/**
 * Headings centred over figures set flush right ("Quantity" over "85" and "452") leave a column of their own, empty
 * in every row below them. Such a column, holding only the last heading row's atoms (a group heading above stays a
 * span), is dropped when each heading of that row then falls clearly nearest to a column that no other heading of
 * the row takes (placeRow puts an atom between columns in the nearest one); a heading about as far from the columns
 * on both sides keeps its own.
 */
const withoutHeadingOnlyColumns = (columns: Interval[], rows: Atom[][], firstFigures: number): Interval[] => {
  if (firstFigures <= 0) return columns;
  const body = rows.slice(firstFigures).flat();
  const heading = rows[firstFigures - 1] ?? [];
  const above = rows.slice(0, firstFigures - 1).flat();
  const headingOnly = (c: Interval) =>
    !body.some((a) => overlaps(a, c)) && !above.some((a) => overlaps(a, c)) && heading.some((a) => overlaps(a, c));
  const kept = columns.filter((c) => !headingOnly(c));
  if (kept.length === columns.length || kept.length < 2) return columns;
  const nearest = (a: Atom) =>
    kept.reduce((best, c, i) => (centreDistance(c, a) < centreDistance(kept[best] ?? c, a) ? i : best), 0);
  // Clearly one column's: at most half as far from its body cells as from those of the column on its other side.
  const cellsOf = kept.map((c) => {
    const inside = body.filter((a) => overlaps(a, c));
    return { left: Math.min(...inside.map((a) => a.left)), right: Math.max(...inside.map((a) => a.right)) };
  });
  const clear = (a: Atom) => {
    const before = cellsOf.filter((c) => c.right <= a.left).map((c) => a.left - c.right);
    const after = cellsOf.filter((c) => c.left >= a.right).map((c) => c.left - a.right);
    if (!before.length || !after.length) return true;
    const [near = 0, far = 0] = [Math.min(...before), Math.min(...after)].sort((x, y) => x - y);
    return near <= 0.5 * far;
  };
  const taken = heading.map((a) => {
    const hit = kept.map((c, i) => (overlaps(a, c) ? i : -1)).filter((i) => i >= 0);
    if (hit.length) return hit.join("-");
    return clear(a) ? String(nearest(a)) : "unclear";
  });
  return !taken.includes("unclear") && new Set(taken).size === taken.length ? kept : columns;
};

/**
 * A number, a currency amount or a share; a mean with its spread ("12.3 ± 0.4") and a decimal with the letters of a
 * significance test set after it ("22.51a", "0.60bc") are figures too.
 */
const NUMERIC = /^[-+−–(]?[$€£]?\s?\d[\d.,\s]*%?\)?(?:\s?±\s?\d[\d.,]*%?)?(?:(?<=[.,]\d+)[a-h]{1,3})?[*†‡]?$/;
const YEAR = /^(?:1[89]|20)\d\d$/;
/** Marks of an empty or withheld value ("–", "..", "n/a", "x"). */
const PLACEHOLDER = /^(?:[-–—.…*x]{1,3}|n\/?a|:)$/i;
export const isFigure = (text: string) =>
  (NUMERIC.test(text) && !YEAR.test(text.trim())) || PLACEHOLDER.test(text.trim());
/** A header deeper than this is more likely a table of words whose first rows have no figures. */
const MAX_HEADER_ROWS = 5;

/**
 * An atom over several columns whose words each fall inside one column, with a space in every gap between them, is
 * several cells set close together ("Less than $10,000–  $15,000–"): the run is cut at those spaces. Word positions
 * are estimated from character counts (the run keeps no per-character boxes).
 */
const splitAcross = (atom: Atom, columns: Interval[]): Atom[] => {
  const perChar = (atom.right - atom.left) / Math.max(1, atom.text.length);
  // A column the atom only grazes (less than a character, a wide heading's column reaching under its edge) need
  // not get a word.
  const hit = columns.filter((c) => Math.min(atom.right, c.right) - Math.max(atom.left, c.left) > perChar);
  if (hit.length < 2 || !atom.text.includes(" ")) return [atom];
  const words = [...atom.text.matchAll(/\S+/g)].map((m) => ({
    text: m[0],
    left: atom.left + m.index * perChar,
    right: atom.left + (m.index + m[0].length) * perChar,
  }));
  const columnOf = (w: Atom) =>
    hit.findIndex((c) => w.left >= c.left - 2 * perChar && w.right <= c.right + 2 * perChar);
  const placed = words.map(columnOf);
  if (placed.some((c) => c < 0) || new Set(placed).size !== hit.length) return [atom];
  const pieces: Atom[] = [];
  words.forEach((w, i) => {
    const last = pieces[pieces.length - 1];
    if (last && placed[i] === placed[i - 1]) {
      last.text = `${last.text} ${w.text}`;
      last.right = w.right;
    } else pieces.push({ ...w });
  });
  return pieces;
};

/** Cells of a row, one per column: an atom over several columns starts a span. */
const placeRow = (row: Atom[], columns: Interval[]) => {
  const cells: PlacedCell[] = [];
  for (const atom of row.flatMap((a) => splitAcross(a, columns))) {
    const hit = columns.map((c, i) => (overlaps(atom, c) ? i : -1)).filter((i) => i >= 0);
    let first = hit[0];
    let last = hit[hit.length - 1];
    if (first === undefined || last === undefined) {
      // Between columns: the nearest one.
      const centre = (atom.left + atom.right) / 2;
      const distance = (c: Interval) => Math.abs((c.left + c.right) / 2 - centre);
      first = last = columns.reduce((best, c, i) => (distance(c) < distance(columns[best] ?? c) ? i : best), 0);
    }
    const holder = cells.find((c) => first >= c.col && first < c.col + c.colSpan);
    if (holder) {
      holder.text = `${holder.text} ${atom.text}`;
      holder.colSpan = Math.max(holder.colSpan, last - holder.col + 1);
      holder.right = Math.max(holder.right, atom.right);
    } else cells.push({ col: first, colSpan: last - first + 1, text: atom.text, left: atom.left, right: atom.right });
  }
  return cells.sort((a, b) => a.col - b.col);
};

type PlacedRow = { col: number; colSpan: number; rowSpan?: number; text: string }[];

/**
 * Header rows: the leading rows without figures in their value columns, when the body below has figures; a table of
 * words has a one-row header. Consecutive header rows without spans are one header row (a heading wrapped over two
 * lines); a row with a span stays a row of its own, above its sub-headings.
 */
const headerOf = (placed: PlacedRow[]): number => {
  // The value columns: those holding figures in most of their rows; without any, every column but the first (a
  // table of several label columns before its figures has words in its first body row's label cells too).
  const figures = new Map<number, number>();
  const filled = new Map<number, number>();
  for (const c of placed.flat().filter((c) => c.colSpan === 1 && c.text)) {
    filled.set(c.col, (filled.get(c.col) ?? 0) + 1);
    if (isFigure(c.text)) figures.set(c.col, (figures.get(c.col) ?? 0) + 1);
  }
  const numeric = new Set(
    [...figures].filter(([col, n]) => n >= 2 && n >= 0.5 * (filled.get(col) ?? 0)).map(([c]) => c),
  );
  const isValue = (c: { col: number }) => (numeric.size ? numeric.has(c.col) : c.col > 0);
  const hasFigures = (row: PlacedRow) => {
    const values = row.filter((c) => isValue(c) && c.text);
    return values.length > 0 && values.filter((c) => isFigure(c.text)).length >= 0.75 * values.length;
  };
  let firstData = placed.findIndex(hasFigures);
  // Sub-headings numbering the columns of each group ("1 2 3 4 5" under "Validation" and again under "Test") are
  // figures too, but a heading row: the rows under them hold the values.
  const below = placed[firstData + 1];
  if (firstData >= 1 && below && hasFigures(below) && isOrdinalRow(placed[firstData]?.filter(isValue) ?? [])) {
    firstData++;
  }
  if (firstData <= 0 || firstData > MAX_HEADER_ROWS) return 1;
  // A row label alone under the headings ("Effectiveness" above "Employment 40") opens the body's first group; the
  // stub's heading centred between two lines of column headings ("Dataset" between "Total Tables" and "Investigated")
  // has no row label under it.
  const label = placed.findIndex(
    (row, r) =>
      r > 0 && r < firstData && row.length === 1 && row[0]?.col === 0 && (placed[r + 1] ?? []).some((c) => c.col === 0),
  );
  return Math.min(label > 0 ? label : firstData, placed.length - 1);
};

/**
 * Column numbers: three or more small integers counting up by one from 0 or 1, starting again at the same number
 * (one count per group of columns), never a value row.
 */
const isOrdinalRow = (cells: { text: string }[]): boolean => {
  const numbers = cells.map((c) => (/^\d{1,2}$/.test(c.text.trim()) ? Number(c.text) : NaN));
  const start = numbers[0];
  if (numbers.length < 3 || (start !== 0 && start !== 1)) return false;
  return numbers.every((n, i) => i === 0 || n === (numbers[i - 1] ?? NaN) + 1 || (n === start && i >= 2));
};

/** How many rows from `from` on have no cell in column `col` (a row label heading above them spans them). */
const rowsWithout = (rows: PlacedRow[], from: number, col: number) => {
  let n = 0;
  while (from + n < rows.length && !(rows[from + n] ?? []).some((c) => c.col === col)) n++;
  return n;
};

const joinHeader = (placed: PlacedRow[], headerRows: number): { rows: PlacedRow[]; headerRows: number } => {
  const header: PlacedRow[] = [];
  for (const row of placed.slice(0, headerRows)) {
    const last = header[header.length - 1];
    const plain = (r: PlacedRow) => r.every((c) => c.colSpan === 1);
    if (last && plain(last) && plain(row)) {
      for (const cell of row) {
        const same = last.find((c) => c.col === cell.col);
        if (same) same.text = joinCellLines(same.text, cell.text);
        else last.push({ ...cell });
      }
      last.sort((a, b) => a.col - b.col);
    } else header.push(row.map((c) => ({ ...c })));
  }
  // A spanning row's single cells ("Percent" beside "Amount borrowed") are the first line of the heading below.
  for (let i = 0; i + 1 < header.length; i++) {
    const row = header[i] ?? [];
    const below = header[i + 1] ?? [];
    if (!below.every((c) => c.colSpan === 1)) continue;
    for (const cell of row.filter((c) => c.colSpan === 1)) {
      const same = below.find((c) => c.col === cell.col);
      if (same) same.text = joinCellLines(cell.text, same.text);
      else if (cell.col === 0 || (cell.rowSpan ?? 1) > 1) cell.rowSpan = rowsWithout(header, i + 1, cell.col) + 1;
      else below.push({ ...cell });
    }
    header[i] = row.filter((c) => c.colSpan > 1 || (c.rowSpan ?? 1) > 1);
    below.sort((a, b) => a.col - b.col);
  }
  // A heading raised as spanning the header rows (raiseCentredStub) spans no more of them than are left once joined.
  header.forEach((row, i) => {
    for (const cell of row) if ((cell.rowSpan ?? 1) > header.length - i) cell.rowSpan = header.length - i;
  });
  return { rows: [...header, ...placed.slice(headerRows)], headerRows: header.length };
};

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const RELATION = /^[=≈≤≥<>∝≡]$/;
const RELATION_EDGE = /^[=≈≤≥<>∝≡]\s|\s[=≈≤≥<>∝≡]$/;
const EQUATION_NUMBER = /^\(\d{1,3}[a-z]?\)$/;

/**
 * The table of a run of aligned lines, or null when it is none: fewer than two columns, prose side by side (a
 * two-column page whose gutter was missed), mostly glyphs without letters or digits (icons, symbol columns), a
 * mostly empty grid (a chart's axis labels), a form's labelled fields or prose beside a side box (forms.ts).
 */
export const unruledTable = (lines: Line[]): UnruledTable | null => {
  const atoms = lines.map(atomsOf);
  const columns = columnsOf(atoms);
  if (columns.length < 2) return null;
  const all = atoms.flat();
  if (all.length === 0) return null;
  const glyphs = all.filter((a) => !LETTER_OR_DIGIT.test(a.text)).length;
  if (glyphs > 0.3 * all.length) return null;
  const words = (t: string) => t.split(/\s+/).length;
  // Displayed equations line up too ("P(s) = softmax(…) (3)"): a relation sign standing alone on most lines.
  if (atoms.filter((row) => row.some((a) => RELATION.test(a.text))).length >= 0.5 * atoms.length) return null;
  // Numbered ones too, their fractions' lines between them ("dA" over "dt"): a relation sign opening or closing a
  // cell ("= -ka * A", "dN =") and an equation's number ending the row, on two rows or more each.
  const numberedRows = atoms.filter((row) => EQUATION_NUMBER.test(row[row.length - 1]?.text ?? ""));
  const numbered = numberedRows.length;
  const related = atoms.filter((row) => row.some((a) => RELATION_EDGE.test(a.text))).length;
  if (numbered >= 2 && related >= 2) return null;
  // One such equation alone, its fractions' numerators above and denominators below ("Ca" over "KC = = (14)" over
  // "Ce"): a numbered line holding a relation sign, with no more than a line above and below it per number.
  const isRelation = (a: Atom) => RELATION.test(a.text) || RELATION_EDGE.test(a.text);
  if (numbered >= 1 && numberedRows.every((row) => row.some(isRelation)) && atoms.length <= 3 * numbered) return null;
  const prose = all.filter((a) => words(a.text) >= 5 && /\p{Ll}/u.test(a.text)).length;
  if (columns.length <= 3 && prose >= 0.5 * all.length) return null;
  const {
    rows: placed,
    lines: rowLines,
    whole,
  } = joinBrokenWords(
    atoms.map((row) => placeRow(row, columns)),
    lines,
    isFigure,
  );
  // Every row one cell, a column used by one row only: a list with a stray word, not a table.
  const used = columns.map((_, i) => placed.filter((r) => r.some((c) => c.col === i)).length);
  if (used.filter((n) => n >= 2).length < 2) return null;
  // A chart's axis labels and legend line up too, but leave most of their grid empty.
  const filled = placed.reduce((n, row) => n + row.reduce((k, c) => k + c.colSpan, 0), 0);
  if (filled < 0.4 * placed.length * columns.length) return null;
  if (isKeyValueList(placed) || isProseBeside(placed)) return null;
  // A chart's value axis beside its legend: the first column's figures each alone on their rows, never a row label.
  const firstColumn = placed.filter((row) => row.some((c) => c.col === 0));
  if (firstColumn.length >= 2 && firstColumn.every((row) => row.length === 1 && isFigure(row[0]?.text ?? ""))) {
    return null;
  }
  const head = headerOf(placed);
  raiseCentredStub(placed, head);
  widenGroupHeadings(placed, head);
  const body = joinWrappedCells(
    placed.slice(head),
    rowLines.slice(head),
    isFigure,
    new Set([...whole].map((r) => r - head)),
  );
  const joined = joinHeader([...placed.slice(0, head), ...body], head);
  const { headerRows } = joined;
  const rows = spanRowGroups(spanRowGroups(joined.rows, headerRows, isFigure), headerRows, isFigure, 1);
  const cells: GridCell[] = [];
  const covered = new Set<string>();
  const blank = (r: number, col: number) => {
    if (!covered.has(`${r},${col}`)) cells.push({ row: r, col, rowSpan: 1, colSpan: 1, text: "" });
  };
  rows.forEach((row, r) => {
    let col = 0;
    for (const cell of row) {
      for (; col < cell.col; col++) blank(r, col);
      const rowSpan = cell.rowSpan ?? 1;
      cells.push({ row: r, col: cell.col, rowSpan, colSpan: cell.colSpan, text: cell.text });
      for (let k = 1; k < rowSpan; k++) for (let c = 0; c < cell.colSpan; c++) covered.add(`${r + k},${cell.col + c}`);
      col = cell.col + cell.colSpan;
    }
    for (; col < columns.length; col++) blank(r, col);
  });
  return { rows: rows.length, cols: columns.length, headerRows, cells };
};

/** Rows of cell texts (a span's text in its first column), for the table's plain text. */
export const unruledRows = (table: UnruledTable): string[][] => {
  const rows: string[][] = Array.from({ length: table.rows }, () => []);
  for (const cell of table.cells) rows[cell.row]?.push(cell.text);
  return rows;
};

const spanAttrs = (c: GridCell) =>
  `${c.rowSpan > 1 ? ` rowspan="${c.rowSpan}"` : ""}${c.colSpan > 1 ? ` colspan="${c.colSpan}"` : ""}`;

export const unruledHtml = (table: UnruledTable): string => {
  const tr = (r: number, tag: "th" | "td") =>
    `<tr>${table.cells
      .filter((c) => c.row === r)
      .map((c) => `<${tag}${spanAttrs(c)}>${escapeHtml(c.text)}</${tag}>`)
      .join("")}</tr>`;
  const head = Array.from({ length: table.headerRows }, (_, r) => tr(r, "th")).join("");
  const body = Array.from({ length: table.rows - table.headerRows }, (_, i) => tr(table.headerRows + i, "td")).join("");
  return `<table>${head ? `<thead>${head}</thead>` : ""}${body ? `<tbody>${body}</tbody>` : ""}</table>`;
};
