import ExcelJS from "exceljs";
import JSZip from "jszip";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ALLOWED_EXTENSIONS } from "@/server/sources/sources.schema";
import { drawTextPage } from "./ocr/test-fixtures";
import { convertWithSoffice } from "./office/convert";
import { buildDocx, buildPptx, pShape, wPara } from "./office/test-fixtures";
import { isParsableFileType, partitionDocument } from "./partition";
import { findTool } from "./system-tools";

/** The extensions contract §5.2 accepts beyond the original list, each read through the format it really is. */

const soffice = await findTool("soffice");
const parse = (bytes: Uint8Array, ext: string, method: "basic" | "hi_res" = "basic") =>
  partitionDocument({ bytes, fileName: `file.${ext}`, fileType: ext, method });
const allText = (result: { elements: { text: string }[] }) => result.elements.map((e) => e.text).join("\n");

describe("formats beyond the original list", () => {
  it("every accepted extension has a parser", () => {
    for (const ext of ALLOWED_EXTENSIONS) expect(isParsableFileType(ext), ext).toBe(true);
    for (const ext of ["tif", "webp", "ods", "odp", "epub", "rtf", "vtt", "srt"]) {
      expect(ALLOWED_EXTENSIONS).toContain(ext);
    }
  });

  it(".tif and .webp are read with OCR like any image", async () => {
    const png = drawTextPage("Quarterly revenue grew 42 percent");
    for (const [ext, bytes] of [
      ["tif", await sharp(png).tiff().toBuffer()],
      ["webp", await sharp(png).webp({ lossless: true }).toBuffer()],
    ] as const) {
      const result = await parse(new Uint8Array(bytes), ext);
      expect(allText(result), ext).toMatch(/Quarterly revenue grew 42 percent/);
    }
  });

  it(".epub: chapters in spine order, one page each, with the book's title", async () => {
    const zip = new JSZip();
    zip.file("mimetype", "application/epub+zip");
    zip.file(
      "META-INF/container.xml",
      `<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    );
    zip.file(
      "OEBPS/content.opf",
      `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" xmlns:dc="http://purl.org/dc/elements/1.1/" version="3.0"><metadata><dc:title>Field Notes</dc:title><dc:creator>A. Author</dc:creator></metadata><manifest><item id="c2" href="text/two.xhtml" media-type="application/xhtml+xml"/><item id="c1" href="text/one.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>`,
    );
    const chapter = (title: string, body: string) =>
      `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title><script>alert(1)</script></head><body><h1>${title}</h1><p>${body}</p></body></html>`;
    zip.file("OEBPS/text/one.xhtml", chapter("First Chapter", "The expedition left on the third of May."));
    zip.file("OEBPS/text/two.xhtml", chapter("Second Chapter", "They reached the pass after 12 days."));
    const result = await parse(await zip.generateAsync({ type: "uint8array" }), "epub");
    expect(result.totalPages).toBe(2);
    expect(result.elements.map((e) => [e.type, e.text, e.pageNumber])).toEqual([
      ["Title", "First Chapter", 1],
      ["NarrativeText", "The expedition left on the third of May.", 1],
      ["Title", "Second Chapter", 2],
      ["NarrativeText", "They reached the pass after 12 days.", 2],
    ]);
    expect(result.elements[0]?.metadata).toMatchObject({ book_title: "Field Notes", book_authors: ["A. Author"] });
  });

  it("an .epub that is not a ZIP fails with a sentence", async () => {
    await expect(parse(new TextEncoder().encode("not an e-book"), "epub")).rejects.toMatchObject({
      code: "UNPROCESSABLE",
    });
  });

  // One test per format: each runs LibreOffice twice (to make the fixture, then to read it), 5-20 s on a busy machine.
  describe.runIf(soffice)("through LibreOffice", () => {
    it(".rtf reads as the document it is", async () => {
      const docx = await buildDocx({
        body: wPara("Meeting Notes", { style: "Heading1" }) + wPara("The budget was approved at 1,250 euros."),
      });
      const rtf = await convertWithSoffice({ bytes: docx, fromExt: "docx", toExt: "rtf" });
      const fromRtf = await parse(rtf, "rtf");
      expect(allText(fromRtf)).toMatch(/Meeting Notes[\s\S]*approved at 1,250 euros/);
      expect(fromRtf.elements.every((e) => e.metadata?.converted_with === "libreoffice")).toBe(true);
    });

    it(".ods reads as the spreadsheet it is, its sheet name a title", async () => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet("Budget");
      ws.getRow(1).values = ["Item", "Cost"];
      ws.getRow(2).values = ["Tents", 420];
      ws.getRow(3).values = ["Stoves", 130];
      const xlsx = new Uint8Array(await wb.xlsx.writeBuffer());
      const ods = await convertWithSoffice({ bytes: xlsx, fromExt: "xlsx", toExt: "ods" });
      const fromOds = await parse(ods, "ods");
      expect(fromOds.elements.map((e) => [e.type, e.text])).toEqual([
        ["Title", "Budget"],
        ["Table", "Item Cost\nTents 420\nStoves 130"],
      ]);
    });

    it(".odp reads as the slides it is", async () => {
      const pptx = await buildPptx({
        slides: [{ shapes: [pShape({ ph: { type: "title" }, paragraphs: ["Route Plan"] })] }],
      });
      const odp = await convertWithSoffice({ bytes: pptx, fromExt: "pptx", toExt: "odp" });
      expect(allText(await parse(odp, "odp"))).toContain("Route Plan");
    });
  });
});
