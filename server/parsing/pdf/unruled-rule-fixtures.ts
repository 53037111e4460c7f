import type { PDFFont, PDFPage } from "pdf-lib";
import { row, start } from "./unruled-fixtures";

/**
 * PDFs whose unruled tables test how the header is told from the body, and what is no table (unruled-rules.test.ts;
 * pdf-lib is a dev dependency, nothing in the app imports this). Positions are top-left based like the parser's output.
 */

const RIGHT = [330, 420] as const;

/**
 * A field trial's results: two label columns, then two value columns headed by a heading wrapped over two lines at
 * the rows' own spacing. `values` picks how the figures are set: means with the letters of a significance test
 * ("22.51a") or means with their spread ("22.5 ± 0.4").
 */
export const buildTrialTablePdf = async (values: "letters" | "spread"): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  row(page, regular, 10, 72, [
    { text: "Variety", x: 72 },
    { text: "Treatment", x: 160 },
    { text: "Grain", x: RIGHT[0], align: "right" },
    { text: "Seed", x: RIGHT[1], align: "right" },
  ]);
  row(page, regular, 10, 86, [
    { text: "yield (t/ha)", x: RIGHT[0], align: "right" },
    { text: "setting (%)", x: RIGHT[1], align: "right" },
  ]);
  const figures =
    values === "letters"
      ? [
          ["22.51a", "85.17c"],
          ["20.06c", "93.00b"],
          ["21.91ab", "95.58a"],
          ["20.72bc", "92.25b"],
        ]
      : [
          ["22.5 ± 0.4", "85.2 ± 1.1"],
          ["20.1 ± 0.6", "93.0 ± 0.9"],
          ["21.9 ± 0.3", "95.6 ± 1.4"],
          ["20.7 ± 0.5", "92.3 ± 0.8"],
        ];
  let top = 100;
  figures.forEach((cells, i) => {
    row(page, regular, 10, top, [
      { text: i < 2 ? "CJ03" : "W1844", x: 72 },
      { text: i % 2 === 0 ? "T0" : "T1", x: 160 },
      ...cells.map((text, c) => ({ text, x: RIGHT[c] ?? 0, align: "right" as const })),
    ]);
    top += 14;
  });
  return doc.save();
};

/**
 * A table whose stub heading ("Dataset") sits alone on the middle line of a three-line header, between the first and
 * the last lines of the column headings.
 */
export const buildCentredStubHeadingPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  row(page, regular, 10, 72, [
    { text: "Total tables", x: RIGHT[0], align: "right" },
    { text: "Tables with", x: RIGHT[1], align: "right" },
  ]);
  row(page, regular, 10, 86, [{ text: "Dataset", x: 72 }]);
  row(page, regular, 10, 100, [
    { text: "investigated", x: RIGHT[0], align: "right" },
    { text: "a header", x: RIGHT[1], align: "right" },
  ]);
  let top = 118;
  for (const [name, total, headed] of [
    ["SciTSR", "10,431", "342"],
    ["PubTabNet", "422,491", "100,159"],
    ["FinTabNet", "70,028", "25,637"],
  ]) {
    row(page, regular, 10, top, [
      { text: name ?? "", x: 72 },
      { text: total ?? "", x: RIGHT[0], align: "right" },
      { text: headed ?? "", x: RIGHT[1], align: "right" },
    ]);
    top += 14;
  }
  return doc.save();
};

/**
 * A chart without a caption: its value axis's ticks (1000, 800, …) down the left, and between them, further right,
 * the legend's entries two a line, then a paragraph under it.
 */
export const buildChartLegendPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  const legend = [
    ["Greece", "Spain"],
    ["Ireland", "Italy"],
    ["Portugal", "Norway"],
  ];
  legend.forEach(([a, b], i) => {
    row(page, regular, 8, 72 + 24 * i, [
      { text: a ?? "", x: 200 },
      { text: b ?? "", x: 300 },
    ]);
    if (i + 1 < legend.length)
      row(page, regular, 8, 84 + 24 * i, [{ text: String(1000 - 200 * i), x: 90, align: "right" }]);
  });
  row(page, regular, 10, 160, [{ text: "Prices rose in every country shown, most of all in the south.", x: 72 }]);
  return doc.save();
};

/**
 * A table at the rows' own spacing whose cells wrap with a word broken at the line's end: a table of words whose
 * first heading runs over three lines ("Stage of phar-", "macokinetic", "modeling"), or a table of estimates whose
 * row label does ("Relative bio-" over "availability (F)", alone on their lines).
 */
export const buildBrokenWordsPdf = async (which: "heading" | "label"): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  const lines: [number, { text: string; x: number }[]][] = [
    [
      72,
      [
        { text: "Stage of phar-", x: 72 },
        { text: "Data used", x: 200 },
        { text: "Modeling activities", x: 360 },
      ],
    ],
    [86, [{ text: "macokinetic", x: 72 }]],
    [100, [{ text: "modeling", x: 72 }]],
    [
      114,
      [
        { text: "Stage 1", x: 72 },
        { text: "Single dose data", x: 200 },
        { text: "Structural model", x: 360 },
      ],
    ],
    [
      128,
      [
        { text: "Stage 2", x: 72 },
        { text: "Twice daily data", x: 200 },
        { text: "Covariate analysis", x: 360 },
      ],
    ],
    [
      142,
      [
        { text: "Stage 3", x: 72 },
        { text: "All available data", x: 200 },
        { text: "Final model", x: 360 },
      ],
    ],
  ];
  if (which === "heading") {
    for (const [top, cells] of lines) row(page, regular, 10, top, cells);
    return doc.save();
  }
  const estimates: [string, string, string][] = [
    ["Parameter", "Estimate", "RSE (%)"],
    ["ka (1/h)", "0.254", "26.4"],
    ["Relative bio-", "", ""],
    ["availability (F)", "", ""],
    ["F for 6 g dose", "1", "8.2"],
    ["F-dose slope", "0.405", "39.0"],
  ];
  estimates.forEach(([label, estimate, rse], i) => {
    row(page, regular, 10, 72 + 14 * i, [
      { text: label, x: 72 },
      ...(estimate ? [{ text: estimate, x: 300, align: "right" as const }] : []),
      ...(rse ? [{ text: rse, x: 400, align: "right" as const }] : []),
    ]);
  });
  return doc.save();
};

const COLUMN_TEXT =
  "The results below compare the parsers on the same documents; each figure is the mean of three runs on one core.";

/** Lines of prose 220 pt wide at `x`, one every 12 pt from `from` while above `to`. */
export const prose = (page: PDFPage, font: PDFFont, x: number, from: number, to: number) => {
  let line = "";
  let top = from;
  for (const word of Array.from({ length: 20 }, () => COLUMN_TEXT)
    .join(" ")
    .split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, 10) <= 220) line = next;
    else if (top < to) {
      row(page, font, 10, top, [{ text: line, x }]);
      top += 12;
      line = word;
    }
  }
};

/**
 * A two-column page (columns at 72 and 330 pt) with a table across both columns between two stretches of prose:
 * its label and two values sit left of the gutter, three more values right of it, no cell over the gutter; the first
 * line of its header holds headings on the left only.
 */
export const buildTableAcrossGutterPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  for (const x of [72, 330]) prose(page, regular, x, 72, 250);
  const xs = [200, 270, 400, 470, 540];
  const rows = [
    ["Dataset", "Tables", "Pages", "Cells", "Rows", "Share"],
    ["SciTSR", "10,431", "342", "54", "15.79%", "0.52%"],
    ["PubTabNet", "422,491", "100,159", "58,747", "58.65%", "13.90%"],
    ["FinTabNet", "70,028", "25,637", "25,348", "98.87%", "36.20%"],
    ["Ours", "761,262", "153,705", "0", "0%", "0%"],
  ];
  // The header's first line: headings over the left column's values only.
  row(page, regular, 8, 269, [
    { text: "All", x: xs[0] ?? 0, align: "right" },
    { text: "Seen", x: xs[1] ?? 0, align: "right" },
  ]);
  rows.forEach(([label, ...values], i) => {
    row(page, regular, 8, 280 + 11 * i, [
      { text: label ?? "", x: 72 },
      ...values.map((text, k) => ({ text, x: xs[k] ?? 0, align: "right" as const })),
    ]);
  });
  for (const x of [72, 330]) prose(page, regular, x, 360, 720);
  return doc.save();
};

/**
 * The same page with a deeper header over a table whose cells keep to the columns: a first line of headings on both
 * sides of the gutter, a second line holding the stub heading and one more heading on the left only, and a last line
 * whose wide heading reaches over the gutter (so it is read across the page on its own).
 */
export const buildHeaderOverGutterPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  for (const x of [72, 330]) prose(page, regular, x, 72, 240);
  const xs = [200, 270, 400, 470, 540];
  row(page, regular, 8, 258, [
    { text: "Input", x: xs[0] ?? 0, align: "right" },
    { text: "Cell", x: xs[2] ?? 0, align: "right" },
    { text: "Row", x: xs[3] ?? 0, align: "right" },
  ]);
  row(page, regular, 8, 266, [
    { text: "Dataset", x: 72 },
    { text: "Tables", x: xs[1] ?? 0, align: "right" },
  ]);
  row(page, regular, 8, 274, [
    { text: "Modality", x: xs[0] ?? 0, align: "right" },
    { text: "Pages in the set", x: 290 },
    { text: "Cells", x: xs[2] ?? 0, align: "right" },
    { text: "Span", x: xs[3] ?? 0, align: "right" },
    { text: "Share", x: xs[4] ?? 0, align: "right" },
  ]);
  const rows = [
    ["SciTSR", "PDF", "10,431", "54", "15.79%", "0.52%"],
    ["PubTabNet", "Image", "422,491", "58,747", "58.65%", "13.90%"],
    ["FinTabNet", "PDF", "70,028", "25,348", "98.87%", "36.20%"],
    ["Ours", "PDF", "761,262", "0", "0%", "0%"],
  ];
  rows.forEach(([label, ...values], i) => {
    row(page, regular, 8, 286 + 11 * i, [
      { text: label ?? "", x: 72 },
      ...values.map((text, k) => ({ text, x: xs[k] ?? 0, align: "right" as const })),
    ]);
  });
  for (const x of [72, 330]) prose(page, regular, x, 360, 720);
  return doc.save();
};

/**
 * Two numbered display equations of a paper's model, each a derivative over two lines ("dA" over "dt") beside its
 * right-hand side and its number ("(1)"), between two paragraphs.
 */
export const buildNumberedEquationsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  row(page, regular, 10, 72, [{ text: "The model has two compartments, absorption and plasma:", x: 72 }]);
  const equations: [string, string, string][] = [
    ["dA", "= -ka * A, IC = Dose", "(1)"],
    ["dM", "= ksyn + ka * A - CL * M", "(2)"],
    ["dN", "= kpro * (1 + S * M) - kout * N", "(3)"],
  ];
  equations.forEach(([derivative, side, number], i) => {
    const top = 100 + 36 * i;
    row(page, regular, 10, top, [{ text: derivative, x: 120 }]);
    row(page, regular, 10, top + 8, [
      { text: side, x: 145 },
      { text: number, x: 540, align: "right" },
    ]);
    row(page, regular, 10, top + 16, [{ text: "dt", x: 121 }]);
  });
  row(page, regular, 10, 220, [{ text: "The parameters were estimated with the data of both studies.", x: 72 }]);
  return doc.save();
};
