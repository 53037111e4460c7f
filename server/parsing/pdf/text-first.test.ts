import { beforeAll, describe, expect, it } from "vitest";
import { describeFailure } from "../failure";
import { partitionDocument } from "../partition";
import { digitTokens, tokens } from "../quality";
import type { ParsedElement } from "../types";
import { buildMixedPdf, SCANNED_PAGE } from "../vision/test-fixtures";
import { judgeTextLayer } from "./soundness";
import { buildBlankPdf } from "./test-fixtures";

const textOf = (elements: ParsedElement[], page: number) =>
  elements
    .filter((e) => e.pageNumber === page)
    .map((e) => e.text)
    .join(" ");

describe("text layer first", () => {
  let mixed: Uint8Array;
  beforeAll(async () => {
    mixed = await buildMixedPdf();
  });

  // Page 1 is prose, page 2 a ruled table with numbers, page 3 a scan (a page-sized picture of text).
  for (const method of ["hi_res", "hi_res_ft"] as const) {
    it(`${method} keeps every word and number of the text pages and OCRs only the scan`, async () => {
      const fast = await partitionDocument({ bytes: mixed, fileName: "m.pdf", fileType: "pdf", method: "basic" });
      const result = await partitionDocument({ bytes: mixed, fileName: "m.pdf", fileType: "pdf", method });
      for (const page of [1, 2]) {
        expect(tokens(textOf(result.elements, page))).toEqual(tokens(textOf(fast.elements, page)));
        expect(digitTokens(textOf(result.elements, page))).toEqual(digitTokens(textOf(fast.elements, page)));
        const sources = result.elements.filter((e) => e.pageNumber === page).map((e) => e.metadata?.text_source);
        expect(new Set(sources)).toEqual(new Set(["text_layer"]));
      }
      // balanced emits the table too, from the text layer.
      expect(result.elements.find((e) => e.pageNumber === 2 && e.type === "Table")?.text).toMatch(/North.*1200/s);
      const scan = result.elements.filter((e) => e.pageNumber === 3);
      expect(scan.length).toBeGreaterThan(0);
      expect(scan.every((e) => e.metadata?.text_source === "ocr")).toBe(true);
      expect(textOf(result.elements, 3)).toContain(SCANNED_PAGE.title.text);
      expect(result.totalPages).toBe(3);
    });
  }

  it("a scan under auto is read; under fast it fails with the reason instead of completing empty", async () => {
    const scanOnly = await (async () => {
      const { PDFDocument } = await import("pdf-lib");
      const doc = await PDFDocument.create();
      const [page] = await doc.copyPages(await PDFDocument.load(mixed), [2]);
      if (page) doc.addPage(page);
      return doc.save();
    })();
    const auto = await partitionDocument({ bytes: scanOnly, fileName: "s.pdf", fileType: "pdf", method: "auto" });
    expect(auto.pageMethods).toEqual({ 1: "balanced" });
    expect(textOf(auto.elements, 1)).toContain("Quarterly Scan Report");
    await expect(
      partitionDocument({ bytes: scanOnly, fileName: "s.pdf", fileType: "pdf", method: "basic" }),
    ).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      message: expect.stringMatching(/^No text could be read from this \.pdf file: Page 1 has no text layer/),
    });
    // A page with nothing on it, under every method: a failure with a reason.
    const blank = await buildBlankPdf();
    for (const method of ["basic", "auto"] as const) {
      await expect(
        partitionDocument({ bytes: blank, fileName: "b.pdf", fileType: "pdf", method }),
      ).rejects.toMatchObject({ code: "UNPROCESSABLE", message: expect.stringMatching(/^No text could be read/) });
    }
  });
});

describe("soundness of a page's text layer", () => {
  const page = (text: string) => ({
    runs: [{ text, left: 0, right: 1, top: 0, bottom: 1, baseline: 1, fontSize: 10, fontName: "F", mono: false }],
    rotated: [],
  });

  it("sound text, no text, broken glyphs and shifted encodings", () => {
    expect(judgeTextLayer(page("The quick brown fox jumps over the lazy dog; 3.14 and 1,234."))).toMatchObject({
      sound: true,
      reason: "text",
    });
    expect(judgeTextLayer(page("12"))).toMatchObject({ sound: false, reason: "no-text" });
    // Glyphs mapped to the private-use area or the replacement character.
    expect(judgeTextLayer(page("\uE001\uE002\uE003 \uE004\uE005 \uFFFD\uFFFD text"))).toMatchObject({
      sound: false,
      reason: "garbled",
    });
    // Letters shifted by a broken font (no vowels left).
    const shifted =
      "Thr qck brwn fxs jmpd vr thr lzz dgs whn thr fnt wss brkn snd thr vwls wrr gnn frm thss txt lnn " +
      "brt thr cnsnnts stll strd n plcc";
    expect(judgeTextLayer(page(shifted))).toMatchObject({ sound: false, reason: "garbled" });
    // A table column repeating an acronym: distinct words are judged, not each of the column's rows.
    const table = `Patient Genotype Viral load Response ${"R1 1a 4.36 SVR ".repeat(40)}`;
    expect(judgeTextLayer(page(table))).toMatchObject({ sound: true, reason: "text" });
    // Symbols where letters should be.
    expect(judgeTextLayer(page("☐☒☓☔☕☖☗☘☙☚☛☜☝☞☟ ☠☡☢☣"))).toMatchObject({ sound: false, reason: "garbled" });
  });
});

describe("failure texts", () => {
  it("say what is wrong in a sentence, never a library's internals", () => {
    expect(describeFailure(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(
      "its content is damaged or uses a feature Quarry does not read",
    );
    expect(describeFailure("the time limit was reached")).toBe("the time limit was reached");
    expect(describeFailure("bad value {x: undefined}")).not.toMatch(/undefined/);
  });
});
