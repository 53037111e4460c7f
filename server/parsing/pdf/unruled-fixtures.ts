import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";

/**
 * PDFs with tables set without ruling lines, built in code for unruled-tables.test.ts (pdf-lib is a dev dependency;
 * nothing in the app imports this). Positions are top-left based like the parser's output.
 */

const WIDTH = 612;
const HEIGHT = 792;

type Cell = { text: string; x: number; align?: "left" | "right" | "centre" };
type Fonts = { regular: PDFFont; bold: PDFFont };

const put = (page: PDFPage, font: PDFFont, size: number, top: number, cell: Cell) => {
  const width = font.widthOfTextAtSize(cell.text, size);
  const x = cell.align === "right" ? cell.x - width : cell.align === "centre" ? cell.x - width / 2 : cell.x;
  page.drawText(cell.text, { x, y: HEIGHT - top - size, size, font });
};

export const row = (page: PDFPage, font: PDFFont, size: number, top: number, cells: Cell[]) => {
  for (const cell of cells) put(page, font, size, top, cell);
};

export const start = async () => {
  const doc = await PDFDocument.create();
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  return { doc, fonts, page: () => doc.addPage([WIDTH, HEIGHT]) };
};

const PARAGRAPH =
  "The results below compare the parsers on the same documents; each figure is the mean of three runs on one core.";

/**
 * A column of prose 220 pt wide at `x`: the paragraph `repeats` times over, one 10 pt line every 12 pt from `from`
 * while above `to` (the words left over are dropped).
 */
const proseColumn = (
  page: PDFPage,
  fonts: Fonts,
  { x, from, to, repeats }: { x: number; from: number; to: number; repeats: number },
) => {
  const words = Array.from({ length: repeats }, () => PARAGRAPH)
    .join(" ")
    .split(" ");
  let line = "";
  let at = from;
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (fonts.regular.widthOfTextAtSize(next, 10) <= 220) line = next;
    else if (at < to) {
      row(page, fonts.regular, 10, at, [{ text: line, x }]);
      at += 12;
      line = word;
    }
  }
};

/**
 * A paper's results table: a header spanning two columns ("Precision" over "A" and "B"), a header cell wrapped
 * over two lines, numeric columns set 7 points apart (narrower than a cell gap elsewhere), then a bold numbered
 * section heading right under the table.
 */
export const buildResultsTablePdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  row(page, regular, 10, 72, [{ text: PARAGRAPH, x: 72 }]);
  let top = 110;
  // Spanning header over the two precision columns (right edges at 300 and 314: 8 points between two digits).
  row(page, bold, 10, top, [{ text: "Precision", x: 305, align: "centre" }]);
  top += 13;
  row(page, bold, 10, top, [
    { text: "Parser", x: 72 },
    { text: "Pages", x: 240, align: "right" },
    { text: "A", x: 300, align: "right" },
    { text: "B", x: 314, align: "right" },
    { text: "Time", x: 400, align: "right" },
  ]);
  top += 13;
  row(page, bold, 10, top, [{ text: "(s)", x: 400, align: "right" }]);
  top += 15;
  const body: [string, string, string, string, string][] = [
    ["Quarry", "120", "6", "6", "1.5"],
    ["Baseline", "120", "4", "2", "3.25"],
    ["Other parser", "98", "5", "3", "2.0"],
    ["Reference", "120", "7", "7", "9.75"],
  ];
  for (const [name, pages, p1, p5, time] of body) {
    row(page, regular, 10, top, [
      { text: name, x: 72 },
      { text: pages, x: 240, align: "right" },
      { text: p1, x: 300, align: "right" },
      { text: p5, x: 314, align: "right" },
      { text: time, x: 400, align: "right" },
    ]);
    top += 13;
  }
  top += 10;
  row(page, bold, 10, top, [
    { text: "6", x: 72 },
    { text: "Conclusion", x: 90 },
  ]);
  top += 18;
  row(page, regular, 10, top, [{ text: "Quarry reads every number of the table into its own cell.", x: 72 }]);
  return doc.save();
};

/** A long table continued on the next page, its header repeated there. */
export const buildContinuedTablePdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const header: Cell[] = [
    { text: "Region", x: 72 },
    { text: "Sites", x: 260, align: "right" },
    { text: "Visits", x: 360, align: "right" },
  ];
  let n = 0;
  for (const [from, to] of [
    [1, 40],
    [41, 48],
  ] as const) {
    const page = newPage();
    let top = from === 1 ? 650 : 72;
    if (from === 1) {
      row(page, fonts.regular, 10, 600, [{ text: PARAGRAPH, x: 72 }]);
    }
    row(page, fonts.bold, 10, top, header);
    top += 14;
    for (let i = from; i <= to && top < 740; i++, n++) {
      row(page, fonts.regular, 10, top, [
        { text: `Region ${i}`, x: 72 },
        { text: String(10 + i), x: 260, align: "right" },
        { text: String(1000 + 7 * i), x: 360, align: "right" },
      ]);
      top += 13;
    }
    if (from !== 1) row(page, fonts.regular, 10, top + 20, [{ text: "All regions reported their visits.", x: 72 }]);
  }
  return doc.save();
};

/** A two-column page of prose: columns of text side by side are no table. */
export const buildTwoColumnPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const words = `${PARAGRAPH} ${PARAGRAPH} ${PARAGRAPH}`.split(" ");
  for (const x of [72, 320]) {
    let top = 72;
    let line = "";
    for (const word of [...words, ...words]) {
      const next = line ? `${line} ${word}` : word;
      if (fonts.regular.widthOfTextAtSize(next, 10) > 220) {
        row(page, fonts.regular, 10, top, [{ text: line, x }]);
        top += 13;
        line = word;
      } else line = next;
    }
    row(page, fonts.regular, 10, top, [{ text: line, x }]);
  }
  return doc.save();
};

/** A table of contents with dot leaders, then a row of glyphs (icons) laid out like cells. */
export const buildContentsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  row(page, fonts.bold, 16, 72, [{ text: "Contents", x: 72 }]);
  const entries: [string, string][] = [
    ["1 Introduction", "1"],
    ["2 Installing Quarry", "4"],
    ["3 Parsing documents", "9"],
    ["4 Searching", "15"],
    ["5 Troubleshooting", "22"],
  ];
  let top = 110;
  for (const [title, pageNumber] of entries) {
    const width = fonts.regular.widthOfTextAtSize(`${title} `, 11);
    const dots = " .".repeat(Math.floor((440 - width) / fonts.regular.widthOfTextAtSize(" .", 11)));
    row(page, fonts.regular, 11, top, [
      { text: `${title}${dots}`, x: 72 },
      { text: pageNumber, x: 540, align: "right" },
    ]);
    top += 18;
  }
  top += 30;
  for (let r = 0; r < 3; r++) {
    row(
      page,
      fonts.regular,
      11,
      top,
      [72, 160, 250, 340].map((x) => ({ text: "•", x })),
    );
    top += 18;
  }
  return doc.save();
};

/**
 * A diagram's labels set in rows and columns under its figure caption, then a table whose body is grouped under row
 * labels alone on their line ("Effectiveness" above "Employment 40"), two of them right under the header.
 */
export const buildFigureAndGroupsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  row(page, regular, 10, 72, [{ text: "Figure 2: Flows of funding from taxes to the schools", x: 72 }]);
  let top = 100;
  for (const labels of [
    ["Taxes", "State budget", "Ministry"],
    ["Levies", "Municipal budget", "Board"],
    ["Fees", "Grants", "Schools"],
  ]) {
    row(
      page,
      regular,
      9,
      top,
      labels.map((text, i) => ({ text, x: 90 + 160 * i })),
    );
    top += 30;
  }
  row(page, regular, 10, top + 10, [{ text: PARAGRAPH, x: 72 }]);
  top += 50;
  row(page, regular, 10, top, [{ text: "Table 3: Weights of the indicators", x: 72 }]);
  top += 20;
  row(page, bold, 10, top, [
    { text: "Indicator", x: 72 },
    { text: "Weight", x: 400, align: "right" },
  ]);
  top += 14;
  const body: [string, string][] = [
    ["All indicators (n = 5):", ""],
    ["Effectiveness", ""],
    ["Employment", "40"],
    ["Further studies", "15"],
    ["Staff", ""],
    ["Formal qualifications", "11"],
    ["Staff development", "6"],
  ];
  for (const [label, weight] of body) {
    row(page, regular, 10, top, [
      { text: label, x: weight ? 82 : 72 },
      ...(weight ? [{ text: weight, x: 400, align: "right" as const }] : []),
    ]);
    top += 13;
  }
  row(page, regular, 10, top + 20, [{ text: "Source: the national board of education.", x: 72 }]);
  return doc.save();
};

/**
 * A table without rules whose first column holds short row labels and whose second holds sentences, some wrapped
 * over two lines: a gap runs down the page between them, as between the columns of a two-column page.
 */
export const buildLabelledListPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  row(page, fonts.regular, 10, 60, [{ text: PARAGRAPH, x: 72 }]);
  const entries: [string, string[]][] = [
    ["Clarity or relevance", ["Reported as not relevant by a large part of the", "population that was asked."]],
    ["Response range", ["A high share of patients respond at the floor."]],
    ["Variability", ["All patients give the same answer to the item,", "whatever their condition is."]],
    ["Reproducibility", ["Unstable scores over time with no reason for it."]],
    ["Redundancy", ["The item duplicates what other items collect already."]],
    ["Recall period", ["The population or the disease state affects the", "period that patients can recall."]],
    ["Discrimination", ["The item correlates with measures of other concepts", "more than with its own concept."]],
    ["Missing data", ["Many patients leave the item out on their forms."]],
    ["Item wording", ["Patients ask what the item means while they answer."]],
  ];
  let top = 100;
  for (const [label, sentences] of entries) {
    row(page, fonts.regular, 10, top, [{ text: label, x: 72 }]);
    for (const sentence of sentences) {
      row(page, fonts.regular, 10, top, [{ text: sentence, x: 220 }]);
      top += 13;
    }
    top += 10;
  }
  row(page, fonts.regular, 10, top + 20, [{ text: PARAGRAPH, x: 72 }]);
  return doc.save();
};

/**
 * A table without rules whose row labels wrap: one goes on in lower case under its first line (the figures on the
 * first line), one is set tight above the line that carries its figures; rows are 16 points apart, wrapped lines 11.
 */
export const buildWrappedLabelsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  row(page, regular, 10, 72, [{ text: PARAGRAPH, x: 72 }]);
  let top = 110;
  const figures = (a: string, b: string): Cell[] => [
    { text: a, x: 400, align: "right" },
    { text: b, x: 480, align: "right" },
  ];
  row(page, bold, 10, top, [{ text: "Item", x: 72 }, ...figures("2019", "2020")]);
  top += 16;
  row(page, regular, 10, top, [{ text: "Revenue", x: 72 }, ...figures("120", "130")]);
  top += 16;
  row(page, regular, 10, top, [{ text: "Net income from continuing", x: 72 }, ...figures("40", "45")]);
  row(page, regular, 10, top + 11, [{ text: "operations", x: 72 }]);
  top += 27;
  row(page, regular, 10, top, [{ text: "Other comprehensive", x: 72 }]);
  row(page, regular, 10, top + 11, [{ text: "Income", x: 72 }, ...figures("12", "14")]);
  top += 27;
  row(page, regular, 10, top, [{ text: "Staff costs", x: 72 }, ...figures("18", "19")]);
  top += 16;
  row(page, regular, 10, top, [{ text: "Total", x: 72 }, ...figures("190", "208")]);
  row(page, regular, 10, top + 40, [{ text: PARAGRAPH, x: 72 }]);
  return doc.save();
};

/**
 * A statistical table whose row labels run into dot leaders ("Robbery . . . . .") up to the figures, one label with
 * a small footnote mark set apart before its leaders ("Stolen property", "1 . . ."), and figures whose last column
 * climbs like page numbers.
 */
export const buildLeaderTablePdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  const leaders = (text: string, to: number, font = regular, size = 10) =>
    `${text}${" .".repeat(Math.floor((to - 72 - font.widthOfTextAtSize(text, size)) / font.widthOfTextAtSize(" .", size)))}`;
  row(page, bold, 10, 72, [
    { text: "Offense", x: 72 },
    { text: "Total", x: 330, align: "right" },
    { text: "Male", x: 400, align: "right" },
    { text: "Female", x: 470, align: "right" },
  ]);
  const body: [string, string, string, string][] = [
    ["Robbery", "102,140", "90,012", "12"],
    ["Burglary", "240,912", "205,010", "35"],
    ["Stolen property", "84,310", "66,720", "47"],
    ["Vandalism", "217,414", "178,101", "59"],
    ["Fraud", "173,725", "98,437", "75"],
  ];
  let top = 92;
  for (const [label, total, male, female] of body) {
    const figures = [
      { text: total, x: 330, align: "right" as const },
      { text: male, x: 400, align: "right" as const },
      { text: female, x: 470, align: "right" as const },
    ];
    if (label === "Stolen property") {
      const x = 72 + regular.widthOfTextAtSize(label, 10) + 4;
      row(page, regular, 10, top, [{ text: label, x: 72 }, ...figures]);
      put(page, regular, 7, top, { text: "1", x });
      put(page, regular, 10, top, { text: leaders("", 250 - x + 72).trim(), x: x + 6 });
    } else row(page, regular, 10, top, [{ text: leaders(label, 250), x: 72 }, ...figures]);
    top += 14;
  }
  return doc.save();
};

/**
 * A table with headings centred over groups of columns, narrower than the groups ("Persons" over three columns of
 * figures, "Share (%)" over two), and a row label heading ("Region") on the first header line only.
 */
export const buildGroupedHeaderPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  row(page, bold, 10, 72, [
    { text: "Region", x: 72 },
    { text: "Persons", x: 298, align: "centre" },
    { text: "Share (%)", x: 475, align: "centre" },
  ]);
  row(page, bold, 10, 86, [
    { text: "Male", x: 250, align: "right" },
    { text: "Female", x: 310, align: "right" },
    { text: "All", x: 370, align: "right" },
    { text: "Urban", x: 450, align: "right" },
    { text: "Rural", x: 510, align: "right" },
  ]);
  const body = [
    ["North", "1,204", "1,310", "2,514", "61", "39"],
    ["South", "980", "1,022", "2,002", "48", "52"],
    ["East", "1,511", "1,604", "3,115", "70", "30"],
    ["West", "702", "751", "1,453", "35", "65"],
  ];
  let top = 104;
  for (const [label, ...figures] of body) {
    const xs = [250, 310, 370, 450, 510];
    row(page, regular, 10, top, [
      { text: label ?? "", x: 72 },
      ...figures.map((text, i) => ({ text, x: xs[i] ?? 0, align: "right" as const })),
    ]);
    top += 14;
  }
  return doc.save();
};

/** A header whose one wrapped heading ("Net" / "income") sits over the middle of three columns: no group heading. */
export const buildWrappedMiddleHeadingPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  row(page, bold, 10, 72, [{ text: "Net", x: 310, align: "right" }]);
  row(page, bold, 10, 86, [
    { text: "Year", x: 72 },
    { text: "Sales", x: 250, align: "right" },
    { text: "income", x: 310, align: "right" },
    { text: "Staff", x: 370, align: "right" },
  ]);
  let top = 104;
  for (const [year, ...figures] of [
    ["2021", "1,204", "310", "52"],
    ["2022", "1,380", "295", "55"],
    ["2023", "1,511", "342", "61"],
  ]) {
    row(page, regular, 10, top, [
      { text: year ?? "", x: 72 },
      ...figures.map((text, i) => ({ text, x: [250, 310, 370][i] ?? 0, align: "right" as const })),
    ]);
    top += 14;
  }
  return doc.save();
};

/**
 * A small table set inside a paragraph's column, narrower than it, and right under it (at the rows' own spacing) the
 * paragraph going on beside a note in the left margin: two segments a line, like the table's rows.
 */
export const buildNarrowTableBeforeProsePdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  row(page, regular, 10, 72, [{ text: "Small tables may be shown within the paragraph, set in its column:", x: 150 }]);
  let top = 100;
  for (const [name, value] of [
    ["Name", "Value"],
    ["This", "11"],
    ["That", "2"],
    ["Other", "7"],
  ] as const) {
    row(page, regular, 10, top, [
      { text: name, x: 250 },
      { text: value, x: 330, align: "right" },
    ]);
    top += 12;
  }
  for (const [note, text] of [
    ["Marginal", "Larger figures such as the first one are usually placed in a float"],
    ["notes are", "to be positioned at a suitable place in the text, which helps"],
    ["usually", "with breaking the columns and the pages of the document."],
  ] as const) {
    row(page, regular, 10, top, [
      { text: note, x: 72 },
      { text, x: 150 },
    ]);
    top += 12;
  }
  // The note goes on under the paragraph, beside the next section's heading.
  for (const note of ["placed in", "the outer"]) {
    row(page, regular, 10, top, [{ text: note, x: 72 }]);
    top += 12;
  }
  row(page, regular, 10, top, [{ text: "margin.", x: 72 }]);
  row(page, fonts.bold, 12, top - 2, [{ text: "2.4 Theorems", x: 150 }]);
  return doc.save();
};

/**
 * A paper's results table with three label columns before the figures (data, model, category), the data and model
 * labels only on the first row of their group.
 */
export const buildLabelColumnsTablePdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  row(page, regular, 10, 72, [{ text: "Table 4. Test performance of the models on the test data.", x: 150 }]);
  const at = [72, 160, 250, 360, 430, 500];
  const put = (top: number, texts: string[]) =>
    row(
      page,
      regular,
      9,
      top,
      texts
        .map((text, i) => ({ text, x: at[i] ?? 0, align: i >= 3 ? "right" : "left" }) as const)
        .filter((c) => c.text),
    );
  let top = 100;
  put(top, ["Test Data", "Model", "Table Category", "Accuracy", "Recall", "F1"]);
  for (const r of [
    ["Non-Canonical", "DETR-NC", "Simple", "0.8678", "0.9872", "0.9859"],
    ["", "", "Complex", "0.5360", "0.9600", "0.9618"],
    ["", "", "All", "0.7336", "0.9762", "0.9761"],
    ["Canonical", "DETR", "Simple", "0.9349", "0.9933", "0.9920"],
    ["", "", "Complex", "0.2712", "0.9257", "0.9290"],
    ["", "", "All", "0.5851", "0.9576", "0.9588"],
  ]) {
    top += 12;
    put(top, r);
  }
  return doc.save();
};

/**
 * Negative values whose sign is set in another font than the digits, right against them (a paper's math-font minus
 * before text-font digits): two runs with no gap between them, one word.
 */
export const buildSignedFiguresTablePdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const sign = await doc.embedFont(StandardFonts.TimesRoman);
  const { regular } = fonts;
  const signed = (value: number, right: number, top: number) => {
    const digits = String(Math.abs(value));
    const x = right - regular.widthOfTextAtSize(digits, 10);
    page.drawText(digits, { x, y: HEIGHT - top - 10, size: 10, font: regular });
    if (value < 0) {
      const w = sign.widthOfTextAtSize("–", 10);
      page.drawText("–", { x: x - w, y: HEIGHT - top - 10, size: 10, font: sign });
    }
  };
  row(page, regular, 10, 100, [
    { text: "Zeolite", x: 72 },
    { text: "Transfer", x: 250, align: "right" },
    { text: "Dispersion", x: 350, align: "right" },
  ]);
  [
    ["BEA", -148, -129],
    ["BEC", -123, -151],
    ["BOG", -140, 140],
    ["CON", -132, -149],
  ].forEach(([name, a, b], i) => {
    const top = 114 + 14 * i;
    row(page, regular, 10, top, [{ text: String(name), x: 72 }]);
    signed(Number(a), 250, top);
    signed(Number(b), 350, top);
  });
  return doc.save();
};

/**
 * A journal's table with its caption in a narrow column to the left of it, on the table's first lines ("Table 2
 * Demographics of …" wrapped over three lines beside the header and the first rows, at a closer line pitch).
 */
export const buildSideCaptionTablePdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  row(page, regular, 10, 72, [{ text: PARAGRAPH, x: 72 }]);
  const caption = ["Demographics and", "characteristics of the", "study population (n = 34)"];
  const rows = [
    ["Variable", "N", "Mean", "SD"],
    ["Age (years)", "34", "41.3", "10.4"],
    ["Weight (kg)", "34", "83.5", "20.2"],
    ["Height (cm)", "34", "173", "13.3"],
    ["BMI (kg/m2)", "34", "27.6", "4.7"],
    ["Albumin (g/dL)", "34", "3.83", "0.403"],
  ];
  rows.forEach(([label, n, mean, sd], i) => {
    const top = 110 + 12 * i;
    // The label in bold, the caption's words after it in the text face.
    if (i === 0) row(page, bold, 9, top, [{ text: "Table 2", x: 72 }]);
    const side = i === 0 ? caption[0] : caption[i];
    const x = i === 0 ? 72 + bold.widthOfTextAtSize("Table 2 ", 9) : 72;
    // Set at its own line pitch: after the first line, the caption's lines fall between the rows' baselines.
    if (side) row(page, regular, 9, 110 + 10 * i, [{ text: side, x }]);
    row(page, regular, 9, top, [
      { text: label ?? "", x: 240 },
      { text: n ?? "", x: 380, align: "right" },
      { text: mean ?? "", x: 440, align: "right" },
      { text: sd ?? "", x: 500, align: "right" },
    ]);
  });
  return doc.save();
};

/** A report's list of tables: number, title and page as three segments a line, no dot leaders. */
export const buildListOfTablesPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  row(page, fonts.bold, 14, 72, [{ text: "List of tables", x: 72 }]);
  [
    ["Table 1", "Demographics of the study population", "5"],
    ["Table 2", "Pharmacokinetic parameters", "8"],
    ["Table 3", "Adverse events by dose group", "12"],
    ["Table 4", "Laboratory values at baseline", "15"],
  ].forEach(([label, title, pageNumber], i) =>
    row(page, fonts.regular, 10, 100 + 14 * i, [
      { text: label ?? "", x: 72 },
      { text: title ?? "", x: 130 },
      { text: pageNumber ?? "", x: 540, align: "right" },
    ]),
  );
  return doc.save();
};

/**
 * A two-column paper page: prose on the left (10 pt), a parameter table on the right (8 pt, a tighter pitch) whose
 * row labels carry superscripts and subscripts ("(Å²)", "CC½") set small and raised or lowered, so they overlap the
 * prose line beside them or the row above more than their own row.
 */
export const buildScriptLabelsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const prose = (x: number, from: number, to: number) => proseColumn(page, fonts, { x, from, to, repeats: 8 });
  prose(72, 72, 720);
  prose(330, 240, 720);
  // Label pieces: plain text, or a script as [text, "sup" | "sub"].
  const labels: (string | [string, "sup" | "sub"])[][] = [
    ["No. of crystals"],
    ["Multiplicity"],
    ["Wilson B factor (Å", ["2", "sup"], ")"],
    ["Completeness (%)"],
    ["CC", ["1/2", "sub"]],
    ["Resolution (Å)"],
    ["Mean B (Å", ["2", "sup"], ")"],
    ["SO", ["4", "sub"], ["2-", "sup"]],
    ["Water"],
    ["B factors (Å", ["2", "sup"], ")"],
    ["Protein"],
  ];
  let top = 100;
  row(page, fonts.bold, 8, top, [
    { text: "Parameter", x: 330 },
    { text: "Native", x: 480, align: "right" },
    { text: "Soaked", x: 540, align: "right" },
  ]);
  labels.forEach((pieces, i) => {
    top += 9;
    let x = 330;
    for (const piece of pieces) {
      const [text, kind] = typeof piece === "string" ? [piece, null] : piece;
      const size = kind ? 5.5 : 8;
      const at = kind === "sup" ? top - 2.2 : kind === "sub" ? top + 4.6 : top;
      put(page, fonts.regular, size, at, { text, x });
      x += fonts.regular.widthOfTextAtSize(text, size);
    }
    row(page, fonts.regular, 8, top, [
      { text: (10.5 + i).toFixed(1), x: 480, align: "right" },
      { text: (20.25 + i).toFixed(2), x: 540, align: "right" },
    ]);
  });
  return doc.save();
};

/**
 * A two-column paper page: the left column has a paragraph, then a table of figures (a label and five values a
 * row) set on the same heights as the right column's prose lines, so its rows share the page's rows with that text.
 */
export const buildTableBesideColumnPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const prose = (x: number, from: number, to: number) => proseColumn(page, fonts, { x, from, to, repeats: 12 });
  prose(72, 72, 330);
  prose(330, 72, 720);
  let top = 350;
  const xs = [150, 185, 225, 260, 292];
  row(page, fonts.bold, 8, top, [
    { text: "Source", x: 72 },
    ...["DF", "SS", "MS", "F", "p"].map((text, i) => ({ text, x: xs[i] ?? 0, align: "right" as const })),
  ]);
  for (let i = 0; i < 20; i++) {
    top += 12;
    const values = [String(1 + (i % 3)), (2.5 * i + 1.25).toFixed(3), (1.1 * i + 0.5).toFixed(4)];
    values.push((3.3 * i + 2).toFixed(2), (0.001 * i).toFixed(3));
    row(page, fonts.regular, 8, top, [
      { text: `Term ${i + 1}`, x: 72 },
      ...values.map((text, k) => ({ text, x: xs[k] ?? 0, align: "right" as const })),
    ]);
  }
  return doc.save();
};
