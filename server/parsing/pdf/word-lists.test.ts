import { PDFDict, PDFDocument, PDFName, StandardFonts, type PDFFont } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionPdf } from ".";
import { BODY, PAGE, put } from "./test-fixtures";

/**
 * Lists as a word processor sets them (Writer, Word): the marker at the paragraph's edge, the item's text one tab on
 * (a hanging indent), the paragraph after the list back at the edge.
 */

const elementsOf = async (doc: PDFDocument) =>
  (await partitionPdf({ bytes: await doc.save() })).elements.map((e) => [e.type, e.text] as const);

const PROSE = `${BODY.slice(0, 90)}.`;

const page = async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const p = doc.addPage([PAGE.width, PAGE.height]);
  for (let i = 0; i < 3; i++) put(p, PROSE, 72, 100 + i * 14, 10, font);
  return { doc, font, page: p };
};

/** A ToUnicode map sending the character code of "l" to `unicode` (a symbol font's private-use bullet). */
const mapL = async (doc: PDFDocument, font: PDFFont, unicode: string) => {
  await font.embed();
  const cmap = [
    "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
    "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
    "/CMapName /Adobe-Identity-UCS def /CMapType 2 def",
    "1 begincodespacerange <00> <FF> endcodespacerange",
    `1 beginbfchar <6C> <${unicode}> endbfchar`,
    "endcmap CMapName currentdict /CMapResource defineresource pop end end",
  ].join("\n");
  doc.context.lookup(font.ref, PDFDict).set(PDFName.of("ToUnicode"), doc.context.register(doc.context.stream(cmap)));
};

describe("lists set with a hanging indent", () => {
  it("ends a one-line item where the next paragraph starts back at the bullet's edge", async () => {
    const { doc, font, page: p } = await page();
    put(p, "•", 72, 160, 10, font);
    put(p, "Check the tags.", 90, 160, 10, font);
    put(p, "•", 72, 174, 10, font);
    put(p, "Embed all fonts", 90, 174, 10, font);
    put(p, PROSE, 72, 188, 10, font);
    put(p, "1.", 72, 230, 10, font);
    put(p, "Install the service.", 90, 230, 10, font);
    put(p, PROSE, 72, 244, 10, font);
    const elements = await elementsOf(doc);
    expect(elements.filter(([type]) => type === "ListItem").map(([, text]) => text)).toEqual([
      "Check the tags.",
      "Embed all fonts",
      "1. Install the service.",
    ]);
    expect(elements.filter(([, text]) => text === PROSE)).toHaveLength(2);
  });

  it("ends a wrapped item at a line back at the marker's edge, and keeps a full line's wrap without an indent", async () => {
    const { doc, font, page: p } = await page();
    put(p, "•", 72, 160, 10, font);
    put(p, "Check the tags of every page, from the first heading down to the last footnote and", 90, 160, 10, font);
    put(p, "every table cell", 90, 174, 10, font);
    put(p, PROSE, 72, 188, 10, font);
    // Set without a hanging indent: the item's full first line wraps to the bullet's edge.
    put(p, "• Check the reading order of every page, from the first heading down to the last one", 72, 230, 10, font);
    put(p, "footnote and every table cell.", 72, 244, 10, font);
    const items = (await elementsOf(doc)).filter(([type]) => type === "ListItem").map(([, text]) => text);
    expect(items).toEqual([
      "Check the tags of every page, from the first heading down to the last footnote and every table cell",
      "Check the reading order of every page, from the first heading down to the last one footnote and every table cell.",
    ]);
  });

  it("joins an item's wrapped line under its text, though its first line ended a sentence, not the paragraph after", async () => {
    const { doc, font, page: p } = await page();
    const wrap = "Then check the reading order of every page, from the first heading down.";
    put(p, "•", 72, 160, 10, font);
    put(p, "Check the tags of every page, from the first heading to the last table cell.", 90, 160, 10, font);
    put(p, wrap, 90, 174, 10, font);
    // The paragraph after the list, its lines as full as the item's (this font's widths are not justified).
    const after = `${BODY.slice(0, 70)}.`;
    put(p, after, 72, 188, 10, font);
    put(p, after, 72, 202, 10, font);
    const elements = await elementsOf(doc);
    expect(elements.filter(([type]) => type === "ListItem").map(([, text]) => text)).toEqual([
      `Check the tags of every page, from the first heading to the last table cell. ${wrap}`,
    ]);
    expect(elements.at(-1)).toEqual(["NarrativeText", `${after} ${after}`]);
  });

  it("ends an indented quotation whose last line is full where the text goes back to the margin", async () => {
    const { doc, font, page: p } = await page();
    const quote = "The parser reads the text layer of every page, and where there is none it reads the";
    put(p, quote, 108, 160, 10, font);
    put(
      p,
      "picture of the page with the recogniser, one line after the other, to the page's foot.",
      108,
      174,
      10,
      font,
    );
    put(p, PROSE, 72, 188, 10, font);
    const texts = (await elementsOf(doc)).map(([, text]) => text);
    expect(texts.at(-1)).toBe(PROSE);
    expect(texts.at(-2)).toMatch(/^The parser reads .* to the page's foot\.$/);
  });

  it("reads subitems numbered at two levels between first-level items as items, not numbered headings", async () => {
    const { doc, font, page: p } = await page();
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const line = (marker: string, text: string, x: number, top: number) => {
      put(p, marker, x, top, 10, font);
      put(p, text, x + 22, top, 10, font);
    };
    line("1.", "Prepare the service.", 72, 160);
    line("1.1.", "Install the command line tools and check that the worker reaches the", 94, 174);
    put(p, "database before the first run.", 116, 188, 10, font);
    line("1.2.", "Create a project and an API token for the public interface of the", 94, 202);
    put(p, "service.", 116, 216, 10, font);
    line("2.", "Upload the first document.", 72, 230);
    line("2.1.", "Check the queue.", 94, 244);
    put(p, PROSE, 72, 258, 10, font);
    // Numbered headings and a paragraph opening with a number stay what they are.
    put(p, "1.1 Background", 72, 300, 12, bold);
    put(p, "1.2 Scope", 72, 330, 12, bold);
    put(p, "2. Quarry parses uploaded documents into typed elements and indexes them.", 72, 370, 10, font);
    const elements = await elementsOf(doc);
    expect(elements.filter(([type]) => type === "ListItem").map(([, text]) => text.slice(0, 12))).toEqual([
      "1. Prepare t",
      "1.1. Install",
      "1.2. Create ",
      "2. Upload th",
      "2.1. Check t",
      "2. Quarry pa",
    ]);
    expect(elements.find(([, text]) => text.startsWith("2.1."))?.[1]).toBe("2.1. Check the queue.");
    expect(elements.filter(([type]) => type === "Title").map(([, text]) => text)).toEqual([
      "1.1 Background",
      "1.2 Scope",
    ]);
  });

  it('reads a wide number ("10.", "III.") set against its item\'s first word as the item\'s marker', async () => {
    const { doc, font, page: p } = await page();
    ["8.", "9."].forEach((n, i) => {
      put(p, n, 72, 160 + i * 14, 10, font);
      put(p, `Step ${n.slice(0, -1)} of the checklist`, 90, 160 + i * 14, 10, font);
    });
    put(p, "10.Restart the worker", 72, 188, 10, font);
    put(p, "11.Check the queue", 72, 202, 10, font);
    put(p, PROSE, 72, 240, 10, font);
    put(p, "II.", 72, 270, 10, font);
    put(p, "Terms of use", 90, 270, 10, font);
    put(p, "III.Data retention", 72, 284, 10, font);
    const items = (await elementsOf(doc)).filter(([type]) => type === "ListItem").map(([, text]) => text);
    expect(items).toEqual([
      "8. Step 8 of the checklist",
      "9. Step 9 of the checklist",
      "10. Restart the worker",
      "11. Check the queue",
      "II. Terms of use",
      "III. Data retention",
    ]);
  });

  it("starts an item at a bullet of OpenSymbol's private-use codes", async () => {
    const { doc, font, page: p } = await page();
    const symbol = await doc.embedFont(StandardFonts.Helvetica);
    ["Check the tags", "Embed all fonts", "Add alternative texts"].forEach((item, i) => {
      put(p, "l", 72, 160 + i * 14, 10, symbol);
      put(p, item, 90, 160 + i * 14, 10, font);
    });
    await mapL(doc, symbol, "E00C");
    const items = (await elementsOf(doc)).filter(([type]) => type === "ListItem").map(([, text]) => text);
    expect(items).toEqual(["Check the tags", "Embed all fonts", "Add alternative texts"]);
  });
});
