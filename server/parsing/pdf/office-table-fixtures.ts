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
    ...["Women", "Men", "Total", "Share (%)"].map((text, i) => ({ text, x: centres[i] ?? 0, align: "centre" as const })),
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
