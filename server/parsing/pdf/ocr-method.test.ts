import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { shutdownOcr } from "../ocr/engine";
import {
  buildScannedPdf,
  drawScanPage,
  drawTextPage,
  SCAN,
  SCAN_BULLETS,
  SCAN_TABLE,
  SCAN_TITLE,
} from "../ocr/test-fixtures";
import type { PartitionResult } from "../types";
import { partitionPdfOcr } from "./ocr-method";

const CORPUS = path.resolve(import.meta.dirname, "../../../../shared/corpus");

const cellCount = (html: string) => (html.match(/<t[hd][ >]/g) ?? []).length;

/** The scan is embedded at 144 dpi: two image pixels per point. */
const POINTS = { width: SCAN.width / 2, height: SCAN.height / 2 };

describe("pdf balanced / accurate (OCR of rendered pages)", () => {
  let balanced: PartitionResult;
  let accurate: PartitionResult;

  beforeAll(async () => {
    const pdf = await buildScannedPdf([drawScanPage()]);
    balanced = await partitionPdfOcr({ bytes: pdf, method: "balanced" });
    accurate = await partitionPdfOcr({ bytes: pdf, method: "accurate" });
  });
  afterAll(() => shutdownOcr());

  it("balanced: types and text of a scanned page, boxes in PDF points", () => {
    const { elements, totalPages, warnings, pageMethods } = balanced;
    expect([totalPages, warnings, pageMethods]).toEqual([1, [], { 1: "balanced" }]);
    expect(elements[0]).toMatchObject({ type: "Title", text: SCAN_TITLE, pageNumber: 1, pageLayout: POINTS });
    expect(elements[1]?.type).toBe("NarrativeText");
    expect(elements.filter((e) => e.type === "ListItem").map((e) => e.text)).toEqual(SCAN_BULLETS);
    // Drawn at (80, 90) px in 48 px type: (40, 45) pt, about 24 pt tall.
    const box = elements[0]?.boundingBox;
    expect(box?.left).toBeGreaterThan(36);
    expect(box?.left).toBeLessThan(46);
    expect(box?.top).toBeGreaterThan(42);
    expect(box?.top).toBeLessThan(52);
    expect(box?.height).toBeGreaterThan(15);
    expect(box?.height).toBeLessThan(35);
    for (const e of elements) {
      expect(e.pageLayout).toEqual(POINTS);
      expect(e.metadata?.method).toBe("balanced");
      const b = e.boundingBox!;
      expect(b.left + b.width).toBeLessThanOrEqual(POINTS.width);
      expect(b.top + b.height).toBeLessThanOrEqual(POINTS.height);
    }
  });

  it("accurate: the ruled table as a Table with 12 cells; the rest as in balanced", () => {
    const tables = accurate.elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const html = tables[0]?.html ?? "";
    expect(cellCount(html)).toBe(12);
    expect(html).toContain(`<thead><tr>${SCAN_TABLE[0]!.map((c) => `<th>${c}</th>`).join("")}</tr></thead>`);
    for (const row of SCAN_TABLE.slice(1))
      expect(html).toContain(`<tr>${row.map((c) => `<td>${c}</td>`).join("")}</tr>`);
    // Drawn from (80, 6xx) px, 740 px wide: 40 pt from the left, 370 pt wide.
    const box = tables[0]?.boundingBox;
    expect(box?.left).toBeGreaterThan(37);
    expect(box?.left).toBeLessThan(43);
    expect(box?.width).toBeGreaterThan(365);
    expect(box?.width).toBeLessThan(375);
    expect(accurate.elements.slice(0, 5).map((e) => e.text)).toEqual(balanced.elements.slice(0, 5).map((e) => e.text));
    expect(accurate.pageMethods).toEqual({ 1: "accurate" });
  });

  it("reads only the pages asked for, keeps blank pages out with a warning", async () => {
    const doc = await PDFDocument.create();
    doc.addPage([300, 200]);
    const blank = await doc.save();
    const pdf = await buildScannedPdf([drawTextPage("The first page of two"), drawTextPage("The second page of two")]);
    const second = await partitionPdfOcr({ bytes: pdf, method: "balanced", pages: [2, 9] });
    expect(second.totalPages).toBe(2);
    expect(second.elements.map((e) => [e.pageNumber, e.text])).toEqual([[2, "The second page of two"]]);
    expect(second.pageMethods).toEqual({ 2: "balanced" });

    const empty = await partitionPdfOcr({ bytes: blank, method: "balanced" });
    expect(empty.elements).toEqual([]);
    expect(empty.warnings).toEqual(["Page 1 is blank"]);
  });

  it("a file that is not a PDF fails as unprocessable", async () => {
    const error = await partitionPdfOcr({
      bytes: new TextEncoder().encode("%PDF-1.7 nothing more"),
      method: "accurate",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("UNPROCESSABLE");
  });
});

describe.runIf(existsSync(CORPUS))("pdf OCR corpus", () => {
  const read = (name: string) => new Uint8Array(readFileSync(path.join(CORPUS, name)));
  afterAll(() => shutdownOcr());

  const timed = async (name: string, method: "balanced" | "accurate") => {
    const started = Date.now();
    const result = await partitionPdfOcr({ bytes: read(name), method });
    const seconds = (Date.now() - started) / 1000;
    console.log(`${name} ${method}: ${result.totalPages} page(s) in ${seconds.toFixed(1)} s`);
    return result;
  };

  it("loremipsum-flat-image-only.pdf: the five paragraphs come back as NarrativeText (balanced and accurate)", async () => {
    for (const method of ["balanced", "accurate"] as const) {
      const { elements, warnings } = await timed("loremipsum-flat-image-only.pdf", method);
      expect(warnings).toEqual([]);
      expect(elements.map((e) => e.type)).toEqual(Array(5).fill("NarrativeText"));
      expect(elements.map((e) => e.text.split(" ").slice(0, 2).join(" "))).toEqual([
        "Lorem ipsum",
        "Sed posuere",
        "Nunc elementum",
        "Donec ut",
        "Duis quis",
      ]);
      expect(elements[0]?.pageLayout).toEqual({ width: 612, height: 792 });
    }
  });

  it("layout-parser-paper-with-table.pdf, accurate: Table 1 with its five data rows", async () => {
    const { elements } = await timed("layout-parser-paper-with-table.pdf", "accurate");
    const table = elements.find((e) => e.type === "Table");
    const html = table?.html ?? "";
    expect(html).toMatch(
      /^<table><thead><tr><th>Dataset<\/th><th>Base Model.?<\/th><th>Large Model<\/th><th>Notes<\/th><\/tr><\/thead>/,
    );
    const firstCells = [...html.matchAll(/<tr><td>([^<]*)<\/td>/g)].map((m) => m[1]?.split(" ")[0]);
    expect(firstCells).toEqual(["PubLayNet", "PRImA", "Newspaper", "TableBank", "HJDataset"]);
    expect(cellCount(html)).toBe(24);
    expect(elements.find((e) => e.text === "3.1 Layout Detection Models")?.type).toBe("Title");
    expect(elements.find((e) => e.text.startsWith("Table 1:"))?.type).toBe("FigureCaption");
  });
});
