import { row, start } from "./unruled-fixtures";
import { prose } from "./unruled-rule-fixtures";

/**
 * PDFs whose unruled tables test what sits around a table: a heading over its columns, a group label under its
 * header, prose beside it or cut like cells, an equation set like rows (unruled-rules.test.ts; pdf-lib is a dev
 * dependency, nothing in the app imports this). Positions are top-left based like the parser's output.
 */

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

/**
 * A results table with two label columns: the test data ("Non-Canonical", "Canonical") and under each the models,
 * each label set once on its group's first row, then the table category ("Simple", "Complex", "All") and two scores.
 */
export const buildNestedRowGroupsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  const xs = [72, 170, 260, 360, 440];
  row(
    page,
    regular,
    9,
    90,
    ["Test data", "Model", "Category", "Accuracy", "GriTS"].map((text, k) => ({ text, x: xs[k] ?? 0 })),
  );
  const groups: [string, string[]][] = [
    ["Non-Canonical", ["DETR-NC"]],
    ["Canonical", ["DETR-NC", "Faster R-CNN", "DETR"]],
  ];
  let top = 104;
  let score = 0;
  for (const [data, models] of groups) {
    models.forEach((model, m) => {
      ["Simple", "Complex", "All"].forEach((category, c) => {
        score += 1;
        const labels = [...(m === 0 && c === 0 ? [data] : [""]), c === 0 ? model : ""];
        const cells = [...labels, category, `0.${8000 + score}`, `0.${9000 + score}`];
        row(
          page,
          regular,
          9,
          top,
          cells.flatMap((text, k) => (text ? [{ text, x: xs[k] ?? 0 }] : [])),
        );
        top += 12;
      });
    });
  }
  return doc.save();
};

/**
 * Enrollment by control of school: group headings ("Total", "Public", "Private") each centred over three columns,
 * so each is also centred on the middle sub-heading under it ("PK-8"); every heading and figure centred on its column.
 */
export const buildTiledGroupHeadingsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  const xs = [130, 175, 220, 275, 320, 365, 420, 465, 510];
  const centred = (texts: string[]) => texts.map((text, k) => ({ text, x: xs[k] ?? 0, align: "centre" as const }));
  row(page, regular, 8, 90, [
    { text: "Total", x: xs[1] ?? 0, align: "centre" },
    { text: "Public", x: xs[4] ?? 0, align: "centre" },
    { text: "Private", x: xs[7] ?? 0, align: "centre" },
  ]);
  const subs = ["PK-12", "PK-8", "9-12"];
  row(page, regular, 8, 104, [{ text: "Year", x: 60 }, ...centred([...subs, ...subs, ...subs])]);
  ["1996", "1997", "1998", "1999"].forEach((year, i) => {
    const figures = xs.map((_, k) => `${(40 + i) * (k + 1)},${100 + k * 7 + i}`);
    row(page, regular, 8, 118 + 12 * i, [{ text: year, x: 60 }, ...centred(figures)]);
  });
  return doc.save();
};

/**
 * A reference list's entry in a narrow justified column, 9 pt lines every 11 pt: its second and third lines
 * stretched so wide at their word spaces that they fall apart into pieces, the fourth set close (one piece, a
 * sentence ending inside it), the fifth stretched again, the last set close.
 */
export const buildJustifiedReferencePdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  const lines: [string, number][][] = [
    [["Patrick Lewis, Ethan Perez, Aleksandra Piktus, Fabio", 72]],
    [
      ["Heinrich Kuttler,", 72],
      ["Mike Lewis,", 160],
      ["Wen-tau Yih,", 235],
    ],
    [
      ["Tim Rocktaschel,", 72],
      ["Sebastian Riedel,", 160],
      ["and Douwe", 250],
    ],
    [["Kiela. 2020b. Retrieval-augmented generation for", 72]],
    [
      ["knowledge-intensive", 72],
      ["NLP tasks.", 170],
      ["In Advances in", 240],
    ],
    [["Neural Information Processing Systems (NeurIPS).", 72]],
  ];
  lines.forEach((pieces, i) =>
    row(
      page,
      regular,
      9,
      100 + 11 * i,
      pieces.map(([text, x]) => ({ text, x })),
    ),
  );
  return doc.save();
};

/**
 * Enrollment by grade: a heading alone on its line ("Grade") centred over the grades' four columns, so in the gap
 * between two of them, above the header line "Year Total K 1 2 3"; headings and figures right-aligned.
 */
export const buildHeadingInGapPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  const xs = [180, 250, 320, 390, 460];
  const right = (texts: string[]) => texts.map((text, k) => ({ text, x: xs[k] ?? 0, align: "right" as const }));
  row(page, regular, 8, 90, [{ text: "Grade", x: 355, align: "centre" }]);
  row(page, regular, 8, 104, [{ text: "Year", x: 60 }, ...right(["Total", "K", "1", "2", "3"])]);
  ["1996", "1997", "1998", "1999"].forEach((year, i) => {
    const figures = xs.map((_, k) => `${3 + k},${(100 + 17 * k + i).toString().padStart(3, "0")}`);
    row(page, regular, 8, 118 + 12 * i, [{ text: year, x: 60 }, ...right(figures)]);
  });
  return doc.save();
};

/**
 * The right column of a two-column page of justified prose in 10 pt, set without hyphenation: a line of short words
 * is stretched until its word spaces are an em wide, so its words stand apart ("indifference", "and", "even"); two
 * such lines sit around a line of ordinary spacing, as three rows of cells would.
 */
export const buildJustifiedColumnPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  const lines: (string | [string, number][])[] = [
    "Anna Pavlovna had had a cough for some days. She was, as she",
    "said, suffering from la grippe; grippe being then a new word",
    [
      ["indifference", 317],
      ["and", 388],
      ["even", 418],
      ["irony", 452],
      ["could", 489],
      ["be", 528],
    ],
    'discerned. CHAPTER I "Well, Prince, so',
    [
      ["Genoa", 317],
      ["and", 358],
      ["Lucca", 386],
      ["are now just", 425],
      ["family", 509],
    ],
    "estates of the Buonapartes. He had just entered, wearing an",
    "embroidered court uniform, knee breeches, and shoes, and had",
    "stars on his breast and a serene expression on his flat face.",
  ];
  lines.forEach((line, i) =>
    row(
      page,
      regular,
      10,
      100 + 12 * i,
      typeof line === "string" ? [{ text: line, x: 317 }] : line.map(([text, x]) => ({ text, x })),
    ),
  );
  row(page, regular, 10, 100, [{ text: "Of the left column, a line of its own prose runs here", x: 72 }]);
  return doc.save();
};
