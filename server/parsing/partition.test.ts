import { describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { ALLOWED_EXTENSIONS } from "@/server/sources/sources.schema";
import { buildDocx, wPara } from "./office/test-fixtures";
import { hasImageObjects, isParsableFileType, mergeFigures, partitionDocument } from "./partition";
import type { ParsedElement } from "./types";

const bytes = Buffer.from("Hello world.\n\nSecond paragraph here.");

describe("partitionDocument", () => {
  it("has a parser for every extension the API accepts", () => {
    expect(ALLOWED_EXTENSIONS.filter((ext) => !isParsableFileType(ext))).toEqual([]);
    expect(isParsableFileType("vtt")).toBe(true);
    expect(isParsableFileType("webp")).toBe(true);
    expect(isParsableFileType("exe")).toBe(false);
  });

  it("reads text formats the same way with every method, and says so for page-image methods", async () => {
    for (const method of ["basic", "auto", "hi_res", "hi_res_ft"] as const) {
      const result = await partitionDocument({ bytes, fileName: "a.txt", fileType: "txt", method });
      expect(result.elements).toHaveLength(2);
      expect(result.totalPages).toBeNull();
      if (method === "basic" || method === "auto") expect(result.warnings).toEqual([]);
      else
        expect(result.warnings).toEqual([
          expect.stringMatching(/^Method '(balanced|accurate)' applies to page images/),
        ]);
    }
    const md = await partitionDocument({
      bytes: Buffer.from("# T\n\ntext"),
      fileName: "a.MD",
      fileType: "MD",
      method: "basic",
    });
    expect(md.elements[0]?.type).toBe("Title");
  });

  it("rejects an extension it has no parser for", async () => {
    const run = partitionDocument({ bytes, fileName: "a.exe", fileType: "exe", method: "basic" });
    await expect(run).rejects.toBeInstanceOf(AppError);
    await expect(run).rejects.toThrow("Parsing .exe files is not supported");
  });

  it("refuses agentic without a vision model instead of faking a result", async () => {
    const pdf = Buffer.from("%PDF-1.4");
    await expect(
      partitionDocument({ bytes: pdf, fileName: "a.pdf", fileType: "pdf", method: "graphorlm" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("VISION_MODEL") });
  });

  it("reports a corrupt PDF as unprocessable", async () => {
    const run = partitionDocument({
      bytes: Buffer.from("%PDF-1.7\nnot really a pdf"),
      fileName: "x.pdf",
      fileType: "pdf",
      method: "basic",
    });
    await expect(run).rejects.toMatchObject({ code: "UNPROCESSABLE" });
    await expect(run).rejects.toThrow(/not a readable PDF/);
  });

  it("reads an Office file's pages through its PDF for page-image methods", { timeout: 120_000 }, async () => {
    const docx = await buildDocx({ body: wPara("Granite survey") + wPara("The quarry face was mapped in spring.") });
    const result = await partitionDocument({ bytes: docx, fileName: "a.docx", fileType: "docx", method: "hi_res" });
    expect(result.warnings[0]).toMatch(/PDF that LibreOffice made/);
    expect(result.pageMethods).toEqual({ 1: "balanced" });
    const text = result.elements.map((e) => e.text).join(" ");
    expect(text).toMatch(/quarry face was mapped/i);
    expect(result.elements.every((e) => e.pageNumber === 1 && e.metadata?.converted_with === "libreoffice")).toBe(true);
  });
});

describe("mergeFigures", () => {
  const text = (page: number, top: number, left = 72): ParsedElement => ({
    type: "NarrativeText",
    text: `p${page} at ${top}`,
    pageNumber: page,
    boundingBox: { left, top, width: 200, height: 20 },
  });
  const figure = (page: number, top: number): ParsedElement => ({
    type: "Image",
    text: "",
    pageNumber: page,
    boundingBox: { left: 72, top, width: 300, height: 100 },
  });

  it("puts a figure before the first text below it on its page, else at the end of its page", () => {
    const merged = mergeFigures([text(1, 100), text(1, 400), text(2, 100)], [figure(1, 200), figure(2, 500)]);
    expect(merged.map((e) => (e.type === "Image" ? `fig${e.pageNumber}` : e.text))).toEqual([
      "p1 at 100",
      "fig1",
      "p1 at 400",
      "p2 at 100",
      "fig2",
    ]);
  });
});

describe("hasImageObjects", () => {
  it("finds an image XObject's dictionary, and nothing in a text-only PDF", async () => {
    const { PDFDocument } = await import("pdf-lib");
    const { TINY_PNG } = await import("./office/test-fixtures");
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    page.drawText("Text only", { x: 72, y: 700 });
    expect(hasImageObjects(await doc.save())).toBe(false);
    page.drawImage(await doc.embedPng(TINY_PNG), { x: 72, y: 400, width: 200, height: 200 });
    expect(hasImageObjects(await doc.save())).toBe(true);
  });
});
