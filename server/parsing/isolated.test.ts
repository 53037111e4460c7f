import { describe, expect, it } from "vitest";
import { pageImageIsolated, partitionIsolated } from "./isolated";

const text = new TextEncoder().encode("Quarterly report\n\nRevenue grew in every region this quarter.\n");

describe("partitionIsolated", () => {
  it("parses in a worker process and returns the elements", async () => {
    const result = await partitionIsolated({ bytes: text, fileName: "r.txt", fileType: "txt", method: "basic" });
    expect(result.elements.map((e) => e.text).join(" ")).toContain("Revenue grew");
  });

  it("passes a document's error through with its message", async () => {
    const bad = new TextEncoder().encode("%PDF-1.7 this is not really a pdf");
    await expect(
      partitionIsolated({ bytes: bad, fileName: "x.pdf", fileType: "pdf", method: "basic" }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE", message: expect.stringContaining("not a readable PDF") });
  });

  it("stops a worker that outlives its time limit", async () => {
    const started = Date.now();
    await expect(
      partitionIsolated(
        { bytes: text, fileName: "r.txt", fileType: "txt", method: "basic" },
        { timeoutMs: 50, maxRssMb: 3072 },
      ),
    ).rejects.toMatchObject({ message: expect.stringContaining("longer than") });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("stops a worker that outgrows its memory limit", async () => {
    await expect(
      partitionIsolated(
        { bytes: text, fileName: "r.txt", fileType: "txt", method: "basic" },
        { timeoutMs: 60_000, maxRssMb: 20 },
      ),
    ).rejects.toMatchObject({ message: expect.stringContaining("memory") });
  });
});

describe("pageImageIsolated", () => {
  it("draws a PDF page in a worker process at the width asked for", async () => {
    const { PDFDocument } = await import("pdf-lib");
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]).drawText("Granite", { x: 72, y: 700, size: 24 });
    const bytes = await doc.save();
    const page = await pageImageIsolated({ bytes, fileType: "pdf", pageNumber: 1, width: 400 });
    expect(page.width).toBe(400);
    expect(page.height).toBe(Math.ceil((792 * 400) / 612 - 1e-6));
    expect(page.png.subarray(1, 4).toString()).toBe("PNG");
    await expect(pageImageIsolated({ bytes, fileType: "pdf", pageNumber: 2, width: 400 })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Page 2 is out of range",
    });
  });
});
