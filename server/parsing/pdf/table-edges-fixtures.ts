import { row, start } from "./unruled-fixtures";

/**
 * An invoice built in code for table-edges.test.ts: the sender's address with a contact line on the right (two rows
 * of two segments under a line set over the right one only), the invoice's number and date far above the items, a
 * table of items with a header, and the total alone under the amounts.
 */
export const buildInvoicePdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  row(page, regular, 10, 136, [{ text: "info@example.org", x: 455 }]);
  row(page, regular, 9, 149, [
    { text: "Example Systems, Inc. - 17, Aviation Road - Paperfield", x: 55 },
    { text: "www.example-systems.com", x: 455 },
  ]);
  row(page, regular, 9, 170, [
    { text: "John Q. Doe", x: 55 },
    { text: "Local sales rep:", x: 455 },
  ]);
  row(page, regular, 9, 178, [{ text: "Lucy Irwin", x: 455 }]);
  row(page, regular, 10, 190, [{ text: "255 Customer Lane", x: 55 }]);
  row(page, regular, 10, 202, [{ text: "12345 User Town", x: 55 }]);
  row(page, regular, 10, 300, [
    { text: "INVOICE 2020-10", x: 55 },
    { text: "January 8, 2020", x: 530, align: "right" },
  ]);
  const columns = (cells: [string, string, string, string]) =>
    cells.map((text, i) =>
      i === 0 ? { text, x: 101 } : { text, x: [382, 455, 528][i - 1] ?? 0, align: "right" as const },
    );
  let top = 342;
  row(page, regular, 10, top, columns(["Description", "Quantity", "Price", "Amount"]));
  for (const item of [
    ["Super Kite", "2", "20.00", "40.00"],
    ["Turbo Flyer", "5", "40.00", "200.00"],
    ["Giga Trash", "1", "180.00", "180.00"],
    ["Free Gift", "1", "0.00", "0.00"],
  ] as const) {
    top += 18;
    row(page, regular, 10, top, columns([...item]));
  }
  top += 18;
  row(page, regular, 10, top, [{ text: "420.00", x: 528, align: "right" }]);
  row(page, regular, 10, top + 38, [
    { text: "Terms of payment: 30 days net. This warranty covers defects in workmanship only.", x: 55 },
  ]);
  return doc.save();
};
