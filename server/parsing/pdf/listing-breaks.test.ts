import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionPdf } from ".";
import { BODY, PAGE, put } from "./test-fixtures";

/** A code listing broken by a page break, its second part indented as a whole. */

const FIRST = ["def train(model, data, epochs=10):", "    for epoch in range(epochs):"];
const REST = ["        loss = model.step(data)", "        print(epoch, loss)", "    return model"];

const build = async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const mono = await doc.embedFont(StandardFonts.Courier);
  // Courier's characters are 0.6 of its size wide: 5.4 pt at 9 pt.
  const at = (line: string) => 96 + 5.4 * (line.length - line.trimStart().length);
  const first = doc.addPage([PAGE.width, PAGE.height]);
  let top = 72;
  for (; top < 690; top += 14) put(first, `${BODY.slice(0, 88)} ${top}.`, 72, top, 10, font);
  FIRST.forEach((line, i) => put(first, line.trimStart(), at(line), top + 8 + i * 12, 9, mono));
  put(first, "Page 1", 290, 800, 9, font);
  const second = doc.addPage([PAGE.width, PAGE.height]);
  REST.forEach((line, i) => put(second, line.trimStart(), at(line), 72 + i * 12, 9, mono));
  for (let i = 0; i < 4; i++) put(second, `${BODY.slice(0, 88)} ${i}.`, 72, 120 + i * 14, 10, font);
  put(second, "Page 2", 290, 800, 9, font);
  return (await partitionPdf({ bytes: await doc.save() })).elements;
};

describe("listings across a page break", () => {
  it("joins a listing at a page's foot with the one opening the next page, keeping the second's indentation", async () => {
    const elements = await build();
    const code = elements.filter((e) => e.type === "CodeSnippet");
    expect(code.map((e) => e.text)).toEqual([[...FIRST, ...REST].join("\n")]);
    expect(code[0]?.metadata?.page_numbers).toEqual([1, 2]);
  });
});
