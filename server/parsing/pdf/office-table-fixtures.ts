import { rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { row, start } from "./unruled-fixtures";

/**
 * Unruled tables as a word processor sets them (office-tables.test.ts): headings centred in their cells over figures
 * set flush right, and rows padded far apart (zebra-shaded rows). Positions are top-left based.
 */

const INTRO =
  "The table below lists the staff of each grade at the end of the year, as reported by the regional offices.";

/** Headings centred over figure columns set flush right, each heading clear of the figures under it. */
export const buildCentredHeadingsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  row(page, regular, 10, 72, [{ text: INTRO, x: 72 }]);
  // Cells 90 pt wide from 160 on: headings centred at 205, 295, …; figures flush right at 245, 335, … (4 pt padding).
  const centres = [205, 295, 385, 475];
  row(page, bold, 10, 110, [
    { text: "Grade", x: 72 },
    ...["Women", "Men", "Total", "Share (%)"].map((text, i) => ({
      text,
      x: centres[i] ?? 0,
      align: "centre" as const,
    })),
  ]);
  const body = [
    ["Grade A", "150", "202", "352", "42.6"],
    ["Grade B", "182", "16", "198", "91.9"],
    ["Grade C", "241", "186", "427", "56.4"],
    ["Grade D", "91", "64", "155", "58.7"],
  ];
  body.forEach(([label, ...figures], r) => {
    row(page, regular, 10, 128 + r * 16, [
      { text: label ?? "", x: 72 },
      ...figures.map((text, i) => ({ text, x: (centres[i] ?? 0) + 41, align: "right" as const })),
    ]);
  });
  row(page, regular, 10, 210, [{ text: INTRO, x: 72 }]);
  return doc.save();
};

/**
 * A table whose rows are padded 30 pt apart, as zebra-shaded rows are, under its caption: three cells left of a wide
 * gap (four words a row) and one short note right of it, which could pass for two narrow columns of prose (the gap
 * off the page's middle, where a column holding a captioned table beside prose is looked for).
 */
export const buildSpacedRowsTablePdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  row(page, regular, 10, 72, [{ text: INTRO, x: 72 }]);
  row(page, regular, 10, 84, [{ text: "Figures are counts.", x: 72 }]);
  row(page, regular, 10, 96, [{ text: "Table 4: Items in stock", x: 72 }]);
  row(page, bold, 10, 110, [
    { text: "Item", x: 72 },
    { text: "Code", x: 130 },
    { text: "Quantity", x: 260, align: "right" },
    { text: "Location", x: 420 },
  ]);
  const places = ["Shelf B north wing", "Depot by the gate", "Shelf A south wing"];
  for (let r = 0; r < 10; r++) {
    row(page, regular, 10, 140 + r * 30, [
      { text: `Item ${String.fromCharCode(65 + r)}`, x: 72 },
      { text: `X-${182 + r * 37}`, x: 130 },
      { text: String(40 + r * 53), x: 260, align: "right" },
      { text: places[r % places.length] ?? "", x: 420 },
    ]);
  }
  row(page, regular, 10, 450, [{ text: INTRO, x: 72 }]);
  return doc.save();
};

/**
 * Group headings centred over two columns each ("Dataset A" over "Acc." and "Loss"), the stub's heading ("Model")
 * centred down the two header rows, so alone on a line between them; sub-headings centred over figures set flush
 * right.
 */
export const buildStubBetweenHeadingsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  row(page, regular, 10, 72, [{ text: INTRO, x: 72 }]);
  // Columns' cells 90 pt wide from 150 on; figures flush right at 236, 326, 416, 506; headings centred at 195, ….
  const centres = [195, 285, 375, 465];
  row(page, bold, 10, 110, [
    { text: "Dataset A", x: 240, align: "centre" },
    { text: "Dataset B", x: 420, align: "centre" },
  ]);
  row(page, bold, 10, 124, [{ text: "Model", x: 100, align: "centre" }]);
  row(
    page,
    bold,
    10,
    138,
    ["Acc.", "Loss", "Acc.", "Loss"].map((text, i) => ({ text, x: centres[i] ?? 0, align: "centre" as const })),
  );
  const body = [
    ["Small", "63.3", "1.81", "58.9", "1.51"],
    ["Medium", "90.2", "1.70", "83.1", "1.89"],
    ["Large", "69.9", "1.07", "75.2", "0.99"],
  ];
  body.forEach(([label, ...figures], r) => {
    row(page, regular, 10, 158 + r * 16, [
      { text: label ?? "", x: 72 },
      ...figures.map((text, i) => ({ text, x: (centres[i] ?? 0) + 41, align: "right" as const })),
    ]);
  });
  row(page, regular, 10, 220, [{ text: INTRO, x: 72 }]);
  return doc.save();
};

/**
 * A report's table as a browser prints it: group headings centred over the cells of two columns each ("Revenue" over
 * "2023 2022"), their sub-headings and figures flush right in wide cells, so the text sits right of each group's
 * middle; the stub's heading and the last column's ("Margin") centred down both header rows.
 */
export const buildCentredGroupsOverFiguresPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  row(page, regular, 10, 72, [{ text: INTRO, x: 72 }]);
  // Cells 90 pt wide from 150 on, text flush right 5 pt inside them: at 235, 325, 415, 505, and 555 for the margin.
  const rights = [235, 325, 415, 505];
  row(page, bold, 9, 110, [
    { text: "Revenue", x: 240, align: "centre" },
    { text: "Operating profit", x: 420, align: "centre" },
  ]);
  row(page, bold, 9, 122, [
    { text: "Segment", x: 111, align: "centre" },
    { text: "Margin", x: 535, align: "centre" },
  ]);
  row(
    page,
    bold,
    9,
    134,
    ["2023", "2022", "2023", "2022"].map((text, i) => ({ text, x: rights[i] ?? 0, align: "right" as const })),
  );
  const body = [
    ["Industrial", "612.4", "548.9", "83.1", "66.0", "13.6%"],
    ["Mobility", "401.7", "379.2", "38.5", "35.8", "9.6%"],
    ["Energy Systems", "214.9", "200.3", "27.4", "22.9", "12.7%"],
    ["Services", "55.6", "56.8", "6.2", "7.1", "11.2%"],
  ];
  body.forEach(([label, ...figures], r) => {
    row(page, regular, 9, 152 + r * 15, [
      { text: label ?? "", x: 77 },
      ...figures.map((text, i) => ({ text, x: [...rights, 555][i] ?? 0, align: "right" as const })),
    ]);
  });
  row(page, regular, 10, 230, [{ text: INTRO, x: 72 }]);
  return doc.save();
};

/**
 * Row labels centred down their groups, as merged cells are set: "Sales" alone on a line between its two rows,
 * "Research" on the middle one of its three, and "Support" on the only row of its group, last in the table.
 */
export const buildCentredRowLabelsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  row(page, regular, 10, 72, [{ text: INTRO, x: 72 }]);
  const xs = [72, 200, 300, 400];
  row(
    page,
    bold,
    10,
    110,
    ["Department", "Team", "Staff", "Budget"].map((text, i) => ({ text, x: xs[i] ?? 0 })),
  );
  const lines: [number, string[]][] = [
    [130, ["", "North", "2", "543 k€"]],
    [138, ["Sales"]],
    [146, ["", "South", "5", "547 k€"]],
    [162, ["", "Lab A", "19", "738 k€"]],
    [178, ["Research", "Lab B", "8", "758 k€"]],
    [194, ["", "Lab C", "15", "741 k€"]],
    [210, ["Support", "Desk", "33", "347 k€"]],
  ];
  for (const [top, texts] of lines) {
    row(
      page,
      regular,
      10,
      top,
      texts.map((text, i) => ({ text, x: xs[i] ?? 0 })).filter((c) => c.text),
    );
  }
  row(page, regular, 10, 240, [{ text: INTRO, x: 72 }]);
  return doc.save();
};

/**
 * Two cells set so close that the text layer joins them into one run ("45.02 EUR Depot": a price flush right, the
 * next cell's text 6 pt on), in every row but one; the price column's wide heading reaches just under the runs.
 */
export const buildJoinedCellsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  row(page, regular, 10, 72, [{ text: INTRO, x: 72 }]);
  row(page, bold, 10, 110, [
    { text: "Item", x: 72 },
    { text: "Code", x: 150 },
    { text: "Quantity", x: 300, align: "right" },
    { text: "Unit price", x: 404, align: "centre" },
    { text: "Location", x: 480 },
  ]);
  const prices = ["45.02", "14.42", "2.18", "87.65", "18.27"];
  prices.forEach((price, r) => {
    const cells = [
      { text: `Item ${String.fromCharCode(65 + r)}`, x: 72 },
      { text: `X-${182 + r * 37}`, x: 150 },
      { text: String(40 + r * 53), x: 300, align: "right" as const },
    ];
    const top = 130 + r * 20;
    if (r === 2) {
      row(page, regular, 10, top, [
        ...cells,
        { text: `${price} EUR`, x: 474, align: "right" },
        { text: "Depot", x: 484 },
      ]);
      return;
    }
    const joined = `${price} EUR Depot`;
    const left = 474 - regular.widthOfTextAtSize(`${price} EUR`, 10);
    row(page, regular, 10, top, [...cells, { text: joined, x: left }]);
  });
  row(page, regular, 10, 240, [{ text: INTRO, x: 72 }]);
  return doc.save();
};

const HEIGHT = 792;

const rule = (page: PDFPage, x0: number, top0: number, x1: number, top1: number) =>
  page.drawLine({
    start: { x: x0, y: HEIGHT - top0 },
    end: { x: x1, y: HEIGHT - top1 },
    thickness: 0.7,
    color: rgb(0, 0, 0),
  });

/** A ruled grid over `xs` × `ys` (top-left based), every boundary drawn. */
const grid = (page: PDFPage, xs: number[], ys: number[]) => {
  const [left = 0, right = 0] = [xs[0], xs[xs.length - 1]];
  const [top = 0, bottom = 0] = [ys[0], ys[ys.length - 1]];
  for (const y of ys) rule(page, left, y, right, y);
  for (const x of xs) rule(page, x, top, x, bottom);
};

/** A fully ruled table of two rows of two cells between paragraphs: too small to line up as a table by its text. */
export const buildSmallRuledTablePdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  row(page, fonts.regular, 10, 72, [{ text: INTRO, x: 72 }]);
  row(page, fonts.regular, 10, 96, [{ text: "Table 11: Opening hours", x: 72 }]);
  grid(page, [72, 200, 330], [110, 130, 150]);
  row(page, fonts.bold, 10, 115, [
    { text: "Day", x: 77 },
    { text: "Hours", x: 205 },
  ]);
  row(page, fonts.regular, 10, 135, [
    { text: "Weekdays", x: 77 },
    { text: "9:00-17:00", x: 205 },
  ]);
  row(page, fonts.regular, 10, 170, [{ text: INTRO, x: 72 }]);
  return doc.save();
};

/** A ruled parameters table (name, type, description) whose description cells hold a sentence or two, wrapped. */
export const buildRuledParametersPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  row(page, fonts.regular, 10, 72, [{ text: INTRO, x: 72 }]);
  grid(page, [72, 160, 230, 540], [100, 120, 150, 180, 210]);
  row(page, fonts.bold, 9, 105, [
    { text: "Name", x: 77 },
    { text: "Type", x: 165 },
    { text: "Description", x: 235 },
  ]);
  for (const [i, [name = "", type = "", first = "", second = ""]] of PARAMETERS.entries()) {
    const top = 125 + i * 30;
    row(page, fonts.regular, 9, top, [
      { text: name, x: 77 },
      { text: type, x: 165 },
      { text: first, x: 235 },
    ]);
    row(page, fonts.regular, 9, top + 11, [{ text: second, x: 235 }]);
  }
  row(page, fonts.regular, 10, 230, [{ text: INTRO, x: 72 }]);
  return doc.save();
};

const PARAMETERS = [
  [
    "url",
    "string",
    "HTTPS address that receives the events. Plain HTTP is",
    "rejected outside test mode, and redirects are not followed.",
  ],
  [
    "events",
    "string[]",
    "Event types to deliver, or an asterisk for all current and",
    "future types, including those added after the endpoint.",
  ],
  [
    "enabled",
    "boolean",
    "Defaults to true. Disabled endpoints keep their history",
    "but receive nothing until they are enabled again.",
  ],
];

/** A page laid out in a ruled grid: a module's title and a paragraph of prose in each of two cells. */
export const buildRuledLayoutPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  grid(page, [72, 540], [100, 150, 200]);
  rule(page, 200, 100, 200, 200);
  for (const [i, top] of [105, 155].entries()) {
    row(page, fonts.bold, 10, top, [{ text: `Module ${i + 1}`, x: 77 }]);
    row(page, fonts.regular, 9, top, [{ text: "This module introduces the learner to the principles of", x: 205 }]);
    row(page, fonts.regular, 9, top + 12, [
      { text: "product development and explores what kinds of products", x: 205 },
    ]);
    row(page, fonts.regular, 9, top + 24, [{ text: "might be developed and tested by a small team.", x: 205 }]);
  }
  return doc.save();
};

const COLUMN_TEXT =
  "The committee reviewed the quarterly figures and noted that operating costs rose while revenue held steady.";

/** Lines of prose 230 pt wide at `x` from `from` while above `to`, one every 12 pt. */
const proseLines = (page: PDFPage, font: PDFFont, x: number, from: number, to: number) => {
  const words = Array.from({ length: 12 }, () => COLUMN_TEXT)
    .join(" ")
    .split(" ");
  let line = "";
  let top = from;
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, 10) <= 230) line = next;
    else if (top < to) {
      row(page, font, 10, top, [{ text: line, x }]);
      top += 12;
      line = word;
    }
  }
};

/**
 * A two-column page whose ruled table starts at the foot of the left column (caption, heading row and one row) and
 * goes on at the head of the right column (three more rows), prose above and below it.
 */
export const buildTableAcrossColumnsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular, bold } = fonts;
  proseLines(page, regular, 72, 72, 600);
  row(page, regular, 10, 612, [{ text: "Table 5: Visits per site", x: 72 }]);
  const xs = (x: number) => [x, x + 100, x + 170, x + 230];
  grid(page, xs(72), [630, 650, 670]);
  row(
    page,
    bold,
    10,
    635,
    ["Site", "Visits", "Share"].map((text, i) => ({ text, x: (xs(72)[i] ?? 0) + 5 })),
  );
  row(
    page,
    regular,
    10,
    655,
    ["Lyon", "970", "2.0%"].map((text, i) => ({ text, x: (xs(72)[i] ?? 0) + 5 })),
  );
  const rest = [
    ["Porto", "100", "48.3%"],
    ["Ghent", "95", "36.9%"],
    ["Turin", "237", "4.9%"],
  ];
  grid(page, xs(320), [72, 92, 112, 132]);
  rest.forEach((texts, r) =>
    row(
      page,
      regular,
      10,
      77 + 20 * r,
      texts.map((text, i) => ({ text, x: (xs(320)[i] ?? 0) + 5 })),
    ),
  );
  proseLines(page, regular, 320, 150, 680);
  return doc.save();
};
