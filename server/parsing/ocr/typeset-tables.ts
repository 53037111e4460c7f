import {
  boxHeight,
  centreInside,
  median,
  unionBox,
  type OcrWord,
  type PixelBox,
  type RecoveredTable,
  type Rule,
} from "./types";
import { groupRows, layoutColumns, segmentsOf } from "./word-layout";

/**
 * Tables without vertical lines (table-structure.ts, the second and third ways): a stack of same-width horizontal
 * rules, or rows of short cells whose wide gaps line up; columns come from the gaps between word boxes.
 */

export const sameWidth = (a: Rule, b: Rule, tol: number) =>
  Math.abs(a.from - b.from) <= tol && Math.abs(a.to - b.to) <= tol;

export const tableFromRules = (
  rules: Rule[],
  words: OcrWord[],
  page: { width: number; height: number },
  lineHeight: number,
): RecoveredTable | null => {
  const top = rules[0];
  const bottom = rules[rules.length - 1];
  if (!top || !bottom) return null;
  const region: PixelBox = {
    left: top.from - lineHeight,
    top: top.atEnd,
    right: top.to + lineHeight,
    bottom: bottom.at,
  };
  if (boxHeight(region) < lineHeight * 1.5 || boxHeight(region) > page.height * 0.7) return null;
  const inside = words.filter((w) => centreInside(w, region));
  const layout = layoutColumns(inside, 1.0);
  if (!layout || layout.rows.length < 2 || layout.multiShare < 0.6) return null;
  // Rows above the second rule form the header (top rule, header rule, bottom rule); otherwise the first row.
  const second = rules.length >= 3 ? rules[1] : undefined;
  let headerRows = second
    ? layout.rows.filter((row) => Math.max(...row.map((w) => w.bottom)) <= (second.at + second.atEnd) / 2).length
    : 1;
  if (headerRows >= layout.rows.length) headerRows = 1;
  for (const c of layout.cells) c.header = c.row < headerRows;
  return {
    left: top.from,
    top: top.at,
    right: top.to,
    bottom: bottom.atEnd,
    source: "rules",
    rowCount: layout.rows.length,
    colCount: layout.columns.length,
    headerRows,
    cells: layout.cells,
    words: new Set(inside),
  };
};

/** Sets of same-width horizontal rules stacked close enough to frame one table. */
export const ruleStacks = (rules: Rule[], page: { width: number; height: number }): Rule[][] => {
  const tol = Math.max(8, page.width * 0.02);
  const sorted = [...rules].sort((a, b) => a.at - b.at);
  const used = new Set<Rule>();
  const stacks: Rule[][] = [];
  for (const r of sorted) {
    if (used.has(r)) continue;
    const stack = [r];
    used.add(r);
    for (const other of sorted) {
      if (used.has(other) || other.at <= r.at) continue;
      const last = stack[stack.length - 1] as Rule;
      if (sameWidth(r, other, tol) && other.at - last.atEnd <= page.height * 0.35) {
        stack.push(other);
        used.add(other);
      }
    }
    if (stack.length >= 2) stacks.push(stack);
  }
  return stacks;
};

// ---------------------------------------------------------------------------------------------------------------
// 3. Aligned columns without any lines

/**
 * Line numbers down a page's margin (pleading paper, transcripts): five or more whole numbers stacked in one column,
 * each one more than the one above, with no other word of the page starting left of them. Beside every line they
 * would make each line a row of two cells.
 */
export const marginLineNumbers = (words: readonly OcrWord[]): Set<OcrWord> => {
  const numbers = words.filter((w) => /^\d{1,4}$/.test(w.text)).sort((a, b) => a.top - b.top);
  if (numbers.length < 5) return new Set();
  const height = median(numbers.map(boxHeight));
  const edge = Math.min(...numbers.map((w) => w.right));
  // The stack: numbers whose right edges line up with the leftmost one's (numbers are set flush right).
  const stack = numbers.filter((w) => w.right - edge <= height * 1.5);
  const run: OcrWord[] = [];
  let best: OcrWord[] = [];
  for (const w of stack) {
    const last = run[run.length - 1];
    if (last && Number(w.text) !== Number(last.text) + 1) run.length = 0;
    run.push(w);
    if (run.length > best.length) best = [...run];
  }
  if (best.length < 5) return new Set();
  const right = Math.max(...best.map((w) => w.right));
  const inStack = new Set(best);
  return words.every((w) => inStack.has(w) || w.left > right) ? inStack : new Set();
};

export const tablesFromAlignment = (words: OcrWord[], page: { width: number; height: number }): RecoveredTable[] => {
  const tables: RecoveredTable[] = [];
  const lineNumbers = marginLineNumbers(words);
  const rows = groupRows(words.filter((w) => !lineNumbers.has(w)));
  const textHeight = median(words.map(boxHeight));
  const wideGap = textHeight * 1.5;
  let run: OcrWord[][] = [];
  const flush = () => {
    if (run.length >= 3) {
      const inside = run.flat();
      const layout = layoutColumns(inside, 1.5);
      const ok =
        layout &&
        layout.rows.length >= 3 &&
        layout.multiShare >= 0.75 &&
        layout.wordsPerCell <= 3 &&
        (layout.columns.length >= 3 || layout.numericShare >= 0.5);
      if (layout && ok) {
        const box = unionBox(inside);
        if (boxHeight(box) < page.height * 0.8) {
          for (const c of layout.cells) c.header = c.row === 0;
          tables.push({
            ...box,
            source: "alignment",
            rowCount: layout.rows.length,
            colCount: layout.columns.length,
            headerRows: 1,
            cells: layout.cells,
            words: new Set(inside),
          });
        }
      }
    }
    run = [];
  };
  for (const row of rows) {
    const multi = segmentsOf(row, wideGap).length >= 2;
    const prev = run[run.length - 1];
    const close =
      prev && row[0] && prev[0]
        ? Math.min(...row.map((w) => w.top)) - Math.max(...prev.map((w) => w.bottom)) <= textHeight * 2.5
        : true;
    if (multi && close) run.push(row);
    else {
      flush();
      if (multi) run.push(row);
    }
  }
  flush();
  return tables;
};
