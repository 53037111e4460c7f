import { row, start } from "./unruled-fixtures";

/**
 * Results tables as LaTeX papers set them (booktabs, no vertical rules), built in code for group-spans.test.ts:
 * group headings over runs of narrow figure columns, and row labels over groups of rows. pdf-lib is a dev dependency.
 */

type Group = { text: string; from: number; to: number };
type Spec = { groups: Group[][]; subHeadings: string[]; stub: string; rows: string[][] };

/** Right edges of the figure columns: 9 pt figures ("62.8") 32 pt apart, a gap narrower than a word's width. */
const columnX = (col: number) => 150 + 32 * (col - 1);
const FIGURE_WIDTH = 17.5;

/** Each group heading centred over its columns (its own width reaching over none, one or two of them). */
const buildGroupTable = async ({ groups, subHeadings, stub, rows }: Spec): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  let top = 80;
  for (const line of groups) {
    const centre = (g: Group) => (columnX(g.from) - FIGURE_WIDTH + columnX(g.to)) / 2;
    row(
      page,
      bold,
      9,
      top,
      line.map((g) => ({ text: g.text, x: centre(g), align: "centre" as const })),
    );
    top += 13;
  }
  row(page, bold, 9, top, [
    { text: stub, x: 72 },
    ...subHeadings.map((text, i) => ({ text, x: columnX(i + 1), align: "right" as const })),
  ]);
  top += 15;
  for (const [label, ...figures] of rows) {
    row(page, regular, 9, top, [
      { text: label ?? "", x: 72 },
      ...figures.map((text, i) => ({ text, x: columnX(i + 1), align: "right" as const })),
    ]);
    top += 12;
  }
  return doc.save();
};

const figures = (seed: number, n: number) =>
  Array.from({ length: n }, (_, i) => `${10 + ((seed * 37 + i * 11) % 89)}.${(seed + i) % 10}`);

/** Three groups of four columns each ("Small", "Medium", "Large" over "R@1 R@5 R@10 MRR"). */
export const buildEvenGroupsPdf = () =>
  buildGroupTable({
    groups: [
      [
        { text: "Small", from: 1, to: 4 },
        { text: "Medium", from: 5, to: 8 },
        { text: "Large", from: 9, to: 12 },
      ],
    ],
    subHeadings: ["R@1", "R@5", "R@10", "MRR", "R@1", "R@5", "R@10", "MRR", "R@1", "R@5", "R@10", "MRR"],
    stub: "Model",
    rows: ["Baseline", "CNN", "LSTM", "Ours"].map((m, i) => [m, ...figures(i + 1, 12)]),
  });

/** Groups of two, three and three columns, the last heading centred on the middle one of its sub-headings. */
export const buildUnequalGroupsPdf = () =>
  buildGroupTable({
    groups: [
      [
        { text: "Speed", from: 1, to: 2 },
        { text: "Quality", from: 3, to: 5 },
        { text: "Memory", from: 6, to: 8 },
      ],
    ],
    subHeadings: ["Lat.", "Thr.", "BLEU", "chrF", "TER", "GPU", "CPU", "Disk"],
    stub: "System",
    rows: ["Baseline", "CNN", "Ours"].map((m, i) => [m, ...figures(i + 1, 8)]),
  });

/** Two levels of groups: "Supervised" over "Image" and "Text", each over "Top1" and "Top5". */
export const buildNestedGroupsPdf = () =>
  buildGroupTable({
    groups: [
      [
        { text: "Supervised", from: 1, to: 4 },
        { text: "Unsupervised", from: 5, to: 8 },
      ],
      [
        { text: "Image", from: 1, to: 2 },
        { text: "Text", from: 3, to: 4 },
        { text: "Image", from: 5, to: 6 },
        { text: "Text", from: 7, to: 8 },
      ],
    ],
    subHeadings: ["Top1", "Top5", "Top1", "Top5", "Top1", "Top5", "Top1", "Top5"],
    stub: "Method",
    rows: ["Baseline", "CNN", "Ours"].map((m, i) => [m, ...figures(i + 1, 8)]),
  });

/** Groups headed by column numbers: "Validation" and "Test" each over "1 2 3 4 5" (the folds), scores below. */
export const buildNumberedColumnsPdf = () =>
  buildGroupTable({
    groups: [
      [
        { text: "Validation", from: 1, to: 5 },
        { text: "Test", from: 6, to: 10 },
      ],
    ],
    subHeadings: ["1", "2", "3", "4", "5", "1", "2", "3", "4", "5"],
    stub: "Model",
    rows: ["Baseline", "CNN", "Ours"].map((m, i) => [m, ...figures(i + 1, 10)]),
  });

/**
 * Row labels each over a group of two rows, set nearly midway between the rows as LaTeX's \multirow centres them:
 * each shares just over half its height with one row, "Small" with its group's first, "Large" with its group's second.
 */
export const buildTwoRowGroupsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  const xs = [200, 250, 300, 350];
  const pitch = 9.5;
  row(page, bold, 9, 80, [
    { text: "Size", x: 72 },
    { text: "Model", x: 120 },
    ...["P", "R", "F1", "Acc"].map((text, i) => ({ text, x: xs[i] ?? 0, align: "right" as const })),
  ]);
  const models = ["Base", "Ours", "Base", "Ours"];
  models.forEach((model, i) => {
    row(page, regular, 9, 95 + pitch * i, [
      { text: model, x: 120 },
      ...figures(i + 1, 4).map((text, k) => ({ text, x: xs[k] ?? 0, align: "right" as const })),
    ]);
  });
  row(page, regular, 9, 95 + 4.4, [{ text: "Small", x: 72 }]);
  row(page, regular, 9, 95 + 3 * pitch - 4.4, [{ text: "Large", x: 72 }]);
  return doc.save();
};
