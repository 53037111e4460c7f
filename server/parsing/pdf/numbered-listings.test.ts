import { rgb, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionPdf } from ".";
import { BODY, PAGE, pageWithProse, put } from "./test-fixtures";

/** Listings whose lines are numbered in a column of their own, framed as LaTeX's listings package draws them. */

const CODE = [
  "def train(model, data, epochs=10):",
  "    for epoch in range(epochs):",
  "        loss = model.step(data)",
  "        print(epoch, loss)",
  "    return model",
];

const build = async (numbers: (i: number) => string) => {
  const { doc, font, page } = await pageWithProse();
  const mono = await doc.embedFont(StandardFonts.Courier);
  // The frame: a box around the code lines, the numbers outside it on the left.
  page.drawRectangle({
    x: 90,
    y: PAGE.height - 252,
    width: 300,
    height: 88,
    borderColor: rgb(0, 0, 0),
    borderWidth: 0.4,
  });
  CODE.forEach((line, i) => {
    put(page, numbers(i), 78, 172 + i * 14, 6, font);
    put(page, line, 96, 170 + i * 14, 9, mono);
  });
  for (let i = 0; i < 3; i++) put(page, `${BODY.slice(0, 88)} ${i + 4}.`, 72, 270 + i * 14, 10, font);
  return (await partitionPdf({ bytes: await doc.save() })).elements;
};

describe("numbered listings", () => {
  it("types a framed listing with a column of line numbers as code, not as a two-column table", async () => {
    const elements = await build((i) => String(i + 1));
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
    const code = elements.filter((e) => e.type === "CodeSnippet").map((e) => e.text);
    expect(code).toHaveLength(1);
    expect(code[0]?.split("\n").map((l) => l.trim())).toEqual(CODE.map((l) => l.trim()));
  });
});

describe("one-line listings", () => {
  it("types a line of its own wholly in a typewriter font as code, in a text set in another font", async () => {
    const { doc, font, page } = await pageWithProse();
    const mono = await doc.embedFont(StandardFonts.Courier);
    put(page, "$ quarry ingest --project demo ./papers", 90, 175, 9, mono);
    for (let i = 0; i < 3; i++) put(page, `${BODY.slice(0, 88)} ${i + 4}.`, 72, 200 + i * 14, 10, font);
    // A numbered line in the typewriter font stays a list's item.
    put(page, "1. pip install quarry", 72, 270, 9, mono);
    for (let i = 0; i < 3; i++) put(page, `${BODY.slice(0, 88)} ${i + 7}.`, 72, 310 + i * 14, 10, font);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements.filter((e) => e.type === "CodeSnippet").map((e) => e.text)).toEqual([
      "$ quarry ingest --project demo ./papers",
    ]);
  });
});

describe("headings in a typewriter font", () => {
  it("reads a line in a typewriter font set larger than the body as a heading, not a command to type", async () => {
    const { doc, font, page } = await pageWithProse();
    const mono = await doc.embedFont(StandardFonts.Courier);
    const monoBold = await doc.embedFont(StandardFonts.CourierBold);
    // A command reference's entry: its name as the heading, then its synopsis to type.
    put(page, "7.1 start", 72, 180, 13, monoBold);
    for (let i = 0; i < 3; i++) put(page, `${BODY.slice(0, 88)} ${i + 4}.`, 72, 204 + i * 14, 10, font);
    put(page, "quarry start --verbose --timeout 30", 90, 262, 9, mono);
    for (let i = 0; i < 3; i++) put(page, `${BODY.slice(0, 88)} ${i + 7}.`, 72, 286 + i * 14, 10, font);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements.filter((e) => e.type === "CodeSnippet").map((e) => e.text)).toEqual([
      "quarry start --verbose --timeout 30",
    ]);
    expect(elements.filter((e) => e.type === "Title").map((e) => e.text)).toContain("7.1 start");
  });
});
