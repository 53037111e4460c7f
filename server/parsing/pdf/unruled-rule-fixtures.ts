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
const prose = (page: PDFPage, font: PDFFont, x: number, from: number, to: number) => {
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

/**
 * A patients table set in 8 pt: a bold heading centred over two of its columns ("Core amino acid" over "70" and
 * "91") a little further above the header than the header's own two lines are apart (they wrap at 9 pt, the rows run
 * at 12 pt), and a last heading wrapped over two lines with a footnote mark set small after it ("response" ᵃ).
 */
export const buildSpannedPatientHeaderPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  const columns = [72, 130, 200, 270, 310, 370];
  row(page, bold, 8, 103, [{ text: "Core amino acid", x: 298, align: "centre" }]);
  row(page, regular, 8, 116, [
    { text: "Patient", x: columns[0] ?? 0 },
    { text: "Genotype", x: columns[1] ?? 0 },
    { text: "Viral load", x: columns[2] ?? 0 },
    { text: "70", x: columns[3] ?? 0 },
    { text: "91", x: columns[4] ?? 0 },
    { text: "End of treatment", x: columns[5] ?? 0 },
  ]);
  row(page, regular, 8, 125, [
    { text: "no", x: columns[0] ?? 0 },
    { text: "(IU/ml)", x: columns[2] ?? 0 },
    { text: "response", x: columns[5] ?? 0 },
  ]);
  // The mark: 5 pt, its baseline 3 pt above the line's, 2.6 pt after the word (more than half of its own em).
  const markX = (columns[5] ?? 0) + regular.widthOfTextAtSize("response", 8) + 2.6;
  row(page, regular, 5, 125, [{ text: "a", x: markX }]);
  let top = 137;
  for (const [patient, load, aa70, aa91, response] of [
    ["R1", "4.36", "R", "C", "SVR"],
    ["R2", "6.37", "R", "C", "SVR"],
    ["N1", "6.28", "Q", "M", "non-SVR"],
    ["N2", "6.25", "R", "L", "non-SVR"],
  ]) {
    row(page, regular, 8, top, [
      { text: patient ?? "", x: columns[0] ?? 0 },
      { text: "1a", x: columns[1] ?? 0 },
      { text: load ?? "", x: columns[2] ?? 0 },
      { text: aa70 ?? "", x: columns[3] ?? 0 },
      { text: aa91 ?? "", x: columns[4] ?? 0 },
      { text: response ?? "", x: columns[5] ?? 0 },
    ]);
    top += 12;
  }
  return doc.save();
};

/**
 * A figure's wide caption beside the page's narrow right column of justified prose, three lines side by side: the
 * column's first line reads whole over the words below it, its next two lines are stretched at their word spaces so
 * far that each word stands apart ("for", "the", "reduction", "of").
 */
export const buildCaptionBesideJustifiedPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  const words = (top: number, caption: string, spaced: string[]) =>
    row(page, regular, 9, top, [{ text: caption, x: 40 }, ...spaced.map((text, i) => ({ text, x: 380 + i * 44 }))]);
  row(page, regular, 9, 100, [
    { text: "molecule D2. There is no expected protonation of the two residues here", x: 40 },
    { text: "origin of the protons that are required", x: 380 },
  ]);
  words(112, "while the water molecule connects them. The density map is contoured", [
    "for",
    "the",
    "reduction",
    "of",
    "it.",
  ]);
  words(124, "at one level and is shown as a grey mesh. Atoms are coloured by element", [
    "in",
    "studies",
    "with",
    "the",
    "rates",
  ]);
  return doc.save();
};

/**
 * A two-column page whose left column holds only a captioned table ("Table 9 …", then a row label over its group,
 * a parameter and its value a row) while the right column's prose runs beside it on the same rows.
 */
export const buildTableBesideProsePdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  row(page, regular, 9, 72, [{ text: "Table 9 Parameters of the kinetic models", x: 72 }]);
  const rows = [
    ["Linear driving force", "k1 (1/min)", "0.0604"],
    ["", "qe calc (mg/g)", "22.39"],
    ["", "qe exp (mg/g)", "54.28"],
    ["", "R2", "0.927"],
    ["Pseudo-second-order", "qe calc (mg/g)", "55.57"],
    ["", "k2 (g/mg/min)", "0.018"],
    ["", "R2", "0.999"],
    ["Intra-particle diffusion", "k3 (mg/g/min)", "1.766"],
    ["", "I1 (mg/g)", "39.36"],
    ["", "R2", "0.992"],
  ];
  rows.forEach(([label, parameter, value], i) => {
    row(page, regular, 8, 96 + 12 * i, [
      ...(label ? [{ text: label, x: 72 }] : []),
      { text: parameter ?? "", x: 190 },
      { text: value ?? "", x: 290, align: "right" as const },
    ]);
  });
  prose(page, regular, 330, 72, 240);
  return doc.save();
};

/**
 * One numbered display equation between two paragraphs, two fractions side by side: "Ca" and "qe ρ" over the line
 * "KC =  =  (14)", "Ce" and "Ce" under it.
 */
export const buildFractionEquationPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  row(page, regular, 10, 72, [{ text: "The distribution coefficient of adsorption is defined as follows:", x: 72 }]);
  row(page, regular, 10, 100, [
    { text: "Ca", x: 160 },
    { text: "qe rho", x: 205 },
  ]);
  row(page, regular, 10, 108, [
    { text: "KC =", x: 120 },
    { text: "=", x: 185 },
    { text: "(14)", x: 540, align: "right" },
  ]);
  row(page, regular, 10, 116, [
    { text: "Ce", x: 160 },
    { text: "Ce", x: 210 },
  ]);
  row(page, regular, 10, 140, [{ text: "where Ca is the concentration of the adsorbed material.", x: 72 }]);
  return doc.save();
};

/**
 * A table whose header row is followed by a long group label alone on its line ("Number of features and tumors in
 * different data platforms"), every line at the rows' pitch of 13.5 pt, then the body.
 */
export const buildLongGroupLabelPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  const xs = [72, 250, 380];
  const lines = [
    ["Data Platform", "Number of Features", "Number of tumors"],
    ["Number of features and tumors in different data platforms"],
    ["Radiomics", "38", "91"],
    ["Gene expressions", "20531", "91"],
    ["miRNA expressions", "1046", "91"],
    ["Protein expressions", "142", "62"],
  ];
  lines.forEach((cells, i) => {
    row(
      page,
      regular,
      9,
      100 + 13.5 * i,
      cells.map((text, k) => ({ text, x: xs[k] ?? 0 })),
    );
  });
  return doc.save();
};
