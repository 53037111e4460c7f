import { orderLines } from "./columns";
import {
  boxHeight,
  meanConfidence,
  unionBox,
  type OcrBlock,
  type OcrLine,
  type OcrPage,
  type OcrParagraph,
  type OcrWord,
} from "./types";

/**
 * Tesseract's reading order re-made from its lines by columns.ts, as PP-OCR's already is. Tesseract finds columns
 * itself but reads an author block whose columns line up with the text columns below it as part of them (the
 * left authors, the left column, then the right authors), and it joins the names of a three-column author block
 * into one line ("Ann Lee  Bo Kim  Chen Wu"), then the affiliations into the next. Such a line is cut at its wide
 * gaps first, so each author's column is read whole. Tesseract's paragraphs are kept: a column run's lines that
 * came from one paragraph stay one.
 */

/** A gap between two words of a line this many line heights wide separates columns (a word space is a third). */
const COLUMN_GAP_LINES = 2;

const lineOf = (words: OcrWord[], source: OcrLine): OcrLine => ({
  ...unionBox(words),
  words,
  text: words.map((w) => w.text).join(" "),
  confidence: meanConfidence(words),
  rowHeight: source.rowHeight,
});

const letters = (words: OcrWord[]) => words.reduce((n, w) => n + (w.text.match(/\p{L}/gu)?.length ?? 0), 0);

/** A line's words in pieces, cut at gaps of COLUMN_GAP_LINES line heights. */
const piecesOf = (line: OcrLine): OcrWord[][] => {
  const pieces: OcrWord[][] = [];
  let last: OcrWord | undefined;
  for (const word of line.words) {
    const piece = pieces[pieces.length - 1];
    if (piece && last && word.left - last.right < COLUMN_GAP_LINES * boxHeight(line)) piece.push(word);
    else pieces.push([word]);
    last = word;
  }
  return pieces;
};

/**
 * A paragraph's lines cut at their wide gaps when every cut line is words only (two letters or more a piece), as
 * an author block's rows are. A table's rows have figures in their cells: none of its lines is cut (its header
 * row neither), and each is read across as the row it is.
 */
const cutAtGaps = (paragraph: OcrParagraph): OcrLine[] => {
  const cut = paragraph.lines.map(piecesOf);
  const wordy = cut.every((pieces) => pieces.length < 2 || pieces.every((p) => letters(p) >= 2));
  if (!wordy) return paragraph.lines;
  return paragraph.lines.flatMap((line, i) => {
    const pieces = cut[i] ?? [];
    return pieces.length < 2 ? [line] : pieces.map((p) => lineOf(p, line));
  });
};

const paragraphOf = (lines: OcrLine[], source: OcrParagraph): OcrParagraph => ({
  ...unionBox(lines),
  text: lines.map((l) => l.text).join("\n"),
  confidence: source.confidence,
  lines,
});

/** One block per column run of `orderLines`, cut into paragraphs where the source paragraph changes. */
const blockOf = (lines: OcrLine[], sourceOf: Map<OcrLine, OcrParagraph>): OcrBlock => {
  const paragraphs: OcrParagraph[] = [];
  let run: OcrLine[] = [];
  let source: OcrParagraph | undefined;
  for (const line of lines) {
    const from = sourceOf.get(line);
    if (run.length > 0 && from !== source && source) {
      paragraphs.push(paragraphOf(run, source));
      run = [];
    }
    source = from;
    run.push(line);
  }
  if (run.length > 0 && source) paragraphs.push(paragraphOf(run, source));
  const confidence = paragraphs.reduce((a, p) => a + p.confidence, 0) / Math.max(1, paragraphs.length);
  return {
    ...unionBox(lines),
    text: paragraphs.map((p) => p.text).join("\n\n"),
    confidence,
    paragraphs,
  };
};

/** The page's blocks in column reading order (in place). */
export const orderByColumns = (page: OcrPage): void => {
  const sourceOf = new Map<OcrLine, OcrParagraph>();
  for (const block of page.blocks) {
    for (const paragraph of block.paragraphs) {
      for (const line of cutAtGaps(paragraph)) sourceOf.set(line, paragraph);
    }
  }
  if (sourceOf.size === 0) return;
  page.blocks = orderLines([...sourceOf.keys()]).map((group) => blockOf(group, sourceOf));
  page.text = page.blocks.map((b) => b.text).join("\n\n");
};
