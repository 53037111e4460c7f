import type { Line } from "./types";

/**
 * Body cells whose text wraps onto a second line. Such a line holds only words, each under a word cell of the row
 * above (never under a figure), and is either a sentence going on (it starts in lower case) or set closer to that
 * row than rows are to one another. A row label set further left than the row above is a group heading, not a wrap.
 * A line of words tighter to the row of figures under it than to the one above is that row's first line (the values
 * sit on the label's last line).
 */

type Cell = { col: number; colSpan: number; text: string };

/** Rows this much closer than the table's usual row pitch are lines of one row. */
const TIGHT = 0.75;

const upperQuartile = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.75)] ?? 0;

/**
 * A cell's text and its next line: a word broken at the line's end ("concen-" over "tration") is one word again, as
 * in a paragraph (blocks.ts, joinLines).
 */
export const joinCellLines = (text: string, next: string): string =>
  /\p{L}-$/u.test(text) && /^\p{Ll}/u.test(next) ? `${text.slice(0, -1)}${next}` : `${text} ${next}`;

const append = (into: Cell[], from: Cell[], before = false) => {
  for (const cell of from) {
    const same = into.find((c) => c.col === cell.col);
    if (!same) into.push({ ...cell });
    else same.text = before ? joinCellLines(cell.text, same.text) : joinCellLines(same.text, cell.text);
  }
  into.sort((a, b) => a.col - b.col);
};

/** Every cell plain words, each under a word cell of `other`. */
const wordsUnder = (row: Cell[], other: Cell[], isFigure: (t: string) => boolean) =>
  row.length > 0 &&
  row.every((cell) => {
    const above = other.find((c) => c.col === cell.col);
    return cell.colSpan === 1 && !isFigure(cell.text) && !!above?.text && !isFigure(above.text);
  });

/**
 * Lines of words that finish a word broken at the end of the cell above ("Stage of phar-" over "macokinetic"), and
 * the lower-case lines going on under such a cell ("modeling"), whatever the spacing: joined to the row above before
 * the header is told from the body, so a header cell wrapped that way stays in the header. Returns the rows and their
 * (first) lines, the joined lines left out, and which rows were joined: those are whole, joinWrappedCells leaves them.
 */
export const joinBrokenWords = <C extends Cell>(
  rows: C[][],
  lines: Line[],
  isFigure: (t: string) => boolean,
): { rows: C[][]; lines: Line[]; whole: Set<number> } => {
  const out: { cells: C[]; line: Line; going: Set<number>; joined?: boolean }[] = [];
  rows.forEach((row, i) => {
    const line = lines[i];
    if (!line) return;
    const prev = out[out.length - 1];
    const above = (cell: Cell) => prev?.cells.find((c) => c.col === cell.col)?.text ?? "";
    const lower = (cell: Cell) => /^\p{Ll}/u.test(cell.text);
    const broken = row.some((cell) => /\p{L}-$/u.test(above(cell)) && lower(cell));
    const goingOn = row.every((cell) => lower(cell) && !!prev?.going.has(cell.col));
    if (prev && (broken || goingOn) && wordsUnder(row, prev.cells, isFigure)) {
      const going = new Set<number>();
      for (const cell of row) {
        const same = prev.cells.find((c) => c.col === cell.col);
        if (!same) continue;
        same.text = joinCellLines(same.text, cell.text);
        going.add(cell.col);
      }
      prev.going = going;
      prev.joined = true;
      return;
    }
    out.push({ cells: row.map((c) => ({ ...c })), line, going: new Set() });
  });
  const whole = new Set(out.flatMap((r, i) => (r.joined ? [i] : [])));
  return { rows: out.map((r) => r.cells), lines: out.map((r) => r.line), whole };
};

export const joinWrappedCells = (
  input: Cell[][],
  lineList: Line[],
  isFigure: (t: string) => boolean,
  whole: ReadonlySet<number> = new Set(),
): Cell[][] => {
  const rows = [...input];
  const lines = [...lineList];
  const pitches = lines.slice(1).map((l, i) => l.baseline - (lines[i]?.baseline ?? 0));
  const tight = TIGHT * upperQuartile(pitches.filter((p) => p > 0));
  const hasFigure = (row: Cell[]) => row.some((c) => isFigure(c.text));
  const out: { cells: Cell[]; last: Line }[] = [];
  for (let i = 0; i < rows.length; i++) {
    const cells = (rows[i] ?? []).map((c) => ({ ...c }));
    const line = lines[i];
    if (!line) continue;
    const prev = out[out.length - 1];
    const next = rows[i + 1];
    const nextLine = lines[i + 1];
    const gapAbove = prev ? line.baseline - prev.last.baseline : Infinity;
    const gapBelow = nextLine ? nextLine.baseline - line.baseline : Infinity;
    if (whole.has(i)) {
      out.push({ cells, last: line });
      continue;
    }
    if (prev && wordsUnder(cells, prev.cells, isFigure)) {
      const outdented = cells.some((c) => c.col === 0) && line.left < prev.last.left - 1;
      // A whole row in lower case may be a row of its own; a sentence going on leaves cells of the row above.
      const lower = /^\p{Ll}/u.test(cells[0]?.text ?? "") && cells.length < prev.cells.filter((c) => c.text).length;
      if (!outdented && (lower || (gapAbove < tight && gapAbove <= gapBelow + 0.5))) {
        append(prev.cells, cells);
        prev.last = line;
        continue;
      }
    }
    if (next && nextLine && hasFigure(next) && !hasFigure(cells) && gapBelow < tight && gapBelow < gapAbove) {
      if (wordsUnder(cells, next, isFigure)) {
        const merged = next.map((c) => ({ ...c }));
        append(merged, cells, true);
        rows[i + 1] = merged;
        lines[i + 1] = { ...nextLine, left: Math.min(nextLine.left, line.left) };
        continue;
      }
    }
    out.push({ cells, last: line });
  }
  return out.map((r) => r.cells);
};
