import { afterEach, describe, expect, it } from "vitest";
import { countPdfPages } from "../pdf/render";
import { findTool, resetToolCache } from "../system-tools";
import { convertOfficeToPdf, convertWithSoffice } from "./convert";
import { partitionOffice } from "./index";
import { buildDocx, buildPptx, expectUnprocessable, pShape, wPageBreak, wPara } from "./test-fixtures";

const soffice = await findTool("soffice");

describe("convertOfficeToPdf", () => {
  it("refuses formats it does not convert", async () => {
    const error = await expectUnprocessable(convertOfficeToPdf(new Uint8Array(10), "pages"));
    expect(error.message).toBe("Converting .pages files to PDF is not supported");
  });

  it("checks packages before LibreOffice sees them", async () => {
    const error = await expectUnprocessable(convertOfficeToPdf(new TextEncoder().encode("not a zip"), "docx"));
    expect(error.message).toMatch(/not a valid Office document/);
  });

  describe("without LibreOffice", () => {
    const saved = process.env.QUARRY_SOFFICE_PATH;
    afterEach(() => {
      if (saved === undefined) delete process.env.QUARRY_SOFFICE_PATH;
      else process.env.QUARRY_SOFFICE_PATH = saved;
      resetToolCache();
    });

    it("says which package to install", async () => {
      process.env.QUARRY_SOFFICE_PATH = "/nonexistent/soffice";
      resetToolCache();
      const error = await expectUnprocessable(
        partitionOffice({ bytes: new Uint8Array(100), fileName: "a.doc", fileType: "doc", method: "basic" }),
      );
      expect(error.message).toMatch(/needs LibreOffice .*apt-get install libreoffice-writer/);
    });
  });

  describe.runIf(soffice)("with LibreOffice", () => {
    it("converts a two-page DOCX to a two-page PDF", async () => {
      const docx = await buildDocx({ body: [wPara("Page one."), wPageBreak, wPara("Page two.")].join("") });
      const pdf = await convertOfficeToPdf(docx, "docx");
      expect(Buffer.from(pdf.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
      expect(await countPdfPages(pdf)).toBe(2);
    });

    it("converts a three-slide PPTX to a three-page PDF", async () => {
      const pptx = await buildPptx({
        slides: ["One", "Two", "Three"].map((t) => ({ shapes: [pShape({ ph: { type: "title" }, paragraphs: [t] })] })),
      });
      expect(await countPdfPages(await convertOfficeToPdf(pptx, "pptx"))).toBe(3);
    });

    it("parses a legacy .doc through LibreOffice", async () => {
      const docx = await buildDocx({
        body: [wPara("Legacy Title", { style: "Heading1" }), wPara("Body text of the legacy document.")].join(""),
      });
      const doc = await convertWithSoffice({ bytes: docx, fromExt: "docx", toExt: "doc" });
      expect(Buffer.from(doc.subarray(0, 4)).toString("hex")).toBe("d0cf11e0");
      const { elements } = await partitionOffice({ bytes: doc, fileName: "old.doc", fileType: "doc", method: "basic" });
      expect(elements.map((e) => [e.type, e.text])).toEqual([
        ["Title", "Legacy Title"],
        ["NarrativeText", "Body text of the legacy document."],
      ]);
      expect(elements.every((e) => e.metadata?.converted_with === "libreoffice")).toBe(true);

      // Cut in half, the same file is one LibreOffice cannot load: a clear error, not an empty result.
      const error = await expectUnprocessable(
        partitionOffice({
          bytes: doc.subarray(0, doc.length >> 1),
          fileName: "cut.doc",
          fileType: "doc",
          method: "basic",
        }),
      );
      expect(error.message).toMatch(/^Converting the \.doc file to \.docx failed: LibreOffice could not open it/);
    });
  });
});
