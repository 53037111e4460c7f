import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionPdf } from ".";
import { BODY, PAGE } from "./test-fixtures";

describe("a bibliography", () => {
  it("types each numbered entry as a ListItem, its wrapped lines joined under its number", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    const put = (text: string, x: number, top: number, size: number, f = font) =>
      page.drawText(text, { x, y: PAGE.height - top - size, size, font: f });
    for (let i = 0; i < 4; i++) put(`${BODY.slice(0, 88)} ${i}.`, 72, 100 + i * 14, 10);
    put("References", 72, 170, 14, bold);
    // Each entry's second line hangs under its text, right of the number.
    put("[1] Taco Hoekwater. LuaTeX. TUGboat, 28(3):312-313, 2007, with a title long", 72, 194, 10);
    put("enough to wrap.", 90, 208, 10);
    put("[2] Don Knuth. Comments on quality in publishing. TUGboat, 5(1):67-67, May", 72, 222, 10);
    put("1984.", 90, 236, 10);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const items = elements.filter((e) => e.type === "ListItem").map((e) => e.text);
    expect(items).toEqual([
      "[1] Taco Hoekwater. LuaTeX. TUGboat, 28(3):312-313, 2007, with a title long enough to wrap.",
      "[2] Don Knuth. Comments on quality in publishing. TUGboat, 5(1):67-67, May 1984.",
    ]);
  });
});

describe("a word broken at a line end", () => {
  it("joins a word hyphenated at the line end, and keeps the hyphen of a compound broken at its own", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    const put = (text: string, top: number) =>
      page.drawText(text, { x: 72, y: PAGE.height - top - 10, size: 10, font });
    put("Skipping the end-to-end suite for changes to the documentation only sounded safe until we found infor-", 100);
    put("mation on three incidents in the past year that started with such a change, and the state-of-the-", 114);
    put("art pipelines we compared with had dropped the idea for the same reason after a similar end-to-", 128);
    put("end review of their own deploys.", 142);
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    const text = elements.map((e) => e.text).join(" ");
    expect(text).toContain("found information on three");
    expect(text).toContain("the state-of-the-art pipelines");
    expect(text).toContain("a similar end-to-end review");
  });
});
