import { describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { partitionDocument } from "./partition";

const bytes = Buffer.from("Hello world.\n\nSecond paragraph here.");

describe("partitionDocument", () => {
  it("dispatches by extension, whatever the method for text formats", async () => {
    for (const method of ["basic", "hi_res", "graphorlm"] as const) {
      const result = await partitionDocument({ bytes, fileName: "a.txt", fileType: "txt", method });
      expect(result.elements).toHaveLength(2);
      expect(result.totalPages).toBeNull();
    }
    const md = await partitionDocument({
      bytes: Buffer.from("# T\n\ntext"),
      fileName: "a.MD",
      fileType: "MD",
      method: "basic",
    });
    expect(md.elements[0]?.type).toBe("Title");
  });

  it("rejects formats that have no parser yet", async () => {
    for (const ext of ["docx", "xlsx", "png", "mp3"]) {
      const run = partitionDocument({ bytes, fileName: `a.${ext}`, fileType: ext, method: "basic" });
      await expect(run).rejects.toThrow(`Parsing .${ext} files is not supported yet`);
      await expect(run).rejects.toBeInstanceOf(AppError);
    }
  });

  it("rejects PDF methods that need OCR or models, naming the v2 method", async () => {
    const pdf = Buffer.from("%PDF-1.4");
    await expect(
      partitionDocument({ bytes: pdf, fileName: "a.pdf", fileType: "pdf", method: "hi_res" }),
    ).rejects.toThrow("Method 'balanced' is not supported yet for .pdf files; use fast");
    await expect(
      partitionDocument({ bytes: pdf, fileName: "a.pdf", fileType: "pdf", method: "mai" }),
    ).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      message: "Method 'mai' is not supported yet for .pdf files; use fast",
    });
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
});
