import { describe, expect, it } from "vitest";
import { parsePdf, tableRows } from "./test-tables";
import { row, start } from "./unruled-fixtures";

const PROSE = "The other column goes on with its prose, set larger and at a wider spacing than the rows of the table";

/**
 * A two-column page: an 8 pt table at a 9 pt pitch in the left column, beside 10 pt prose at a 12 pt pitch in the
 * right one, so that a prose line's box reaches over two of the table's rows.
 */
const buildTableBesideLargerProsePdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  const labels = ["Resolution", "Wavelength range", "No. of images", "Completeness", "Multiplicity", "Mean I/sigma"];
  row(page, regular, 8, 100, [
    { text: "Parameter", x: 72 },
    { text: "Native", x: 230, align: "right" },
  ]);
  labels.forEach((label, i) => {
    row(page, regular, 8, 109 + 9 * i, [
      { text: label, x: 72 },
      { text: (10.5 + i).toFixed(2), x: 230, align: "right" },
    ]);
  });
  for (let top = 70; top < 700; top += 12) row(page, regular, 10, top, [{ text: PROSE.slice(0, 48), x: 320 }]);
  for (let top = 200; top < 700; top += 12) row(page, regular, 10, top, [{ text: PROSE.slice(0, 48), x: 72 }]);
  return doc.save();
};

/** A table whose labels carry a superscript and a subscript of one size ("s² for N₀"), its values beside them. */
const buildScriptedLabelsPdf = async (): Promise<Uint8Array> => {
  const { doc, fonts, page: newPage } = await start();
  const page = newPage();
  const { regular } = fonts;
  const HEIGHT = page.getHeight();
  const draw = (text: string, x: number, baseline: number, size: number) => {
    page.drawText(text, { x, y: HEIGHT - baseline, size, font: regular });
    return x + regular.widthOfTextAtSize(text, size);
  };
  ["N", "M", "K", "V"].forEach((name, i) => {
    const baseline = 120 + 12.5 * i;
    let x = draw("s", 72, baseline, 8.5);
    x = draw("2", x, baseline - 3, 5.9);
    x = draw(` for ${name}`, x, baseline, 8.5);
    // Kerned into the letter before it, as typesetters set subscripts after a capital.
    draw("0", x - 0.6, baseline + 2.5, 5.9);
    draw((0.04 + i / 100).toFixed(3), 200, baseline, 8.5);
    draw(String(50 + i), 300, baseline, 8.5);
  });
  return doc.save();
};

describe("rows of a page with columns of different sizes", () => {
  it("keeps a subscript on its line beside a superscript of its size", async () => {
    const rows = tableRows((await parsePdf(await buildScriptedLabelsPdf())).find((e) => e.type === "Table"));
    expect(rows).toHaveLength(4);
    expect(rows[0]?.[0]).toMatch(/^s ?2 for N ?0$/);
  });

  it("keeps apart two table rows that a larger line of the other column reaches over", async () => {
    const rows = tableRows((await parsePdf(await buildTableBesideLargerProsePdf())).find((e) => e.type === "Table"));
    expect(rows).toHaveLength(7);
    expect(rows[2]).toEqual(["Wavelength range", "11.50"]);
    expect(rows[3]).toEqual(["No. of images", "12.50"]);
  });
});
