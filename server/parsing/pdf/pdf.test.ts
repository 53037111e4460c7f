import { degrees, PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { partitionPdf } from ".";
import {
  buildBlankPdf,
  buildEncryptedPdf,
  buildReportPdf,
  buildTablePdf,
  buildTwoColumnPdf,
  PAGE,
} from "./test-fixtures";

describe("pdf text layer", () => {
  it("reads a page turned by /Rotate as it is displayed: text in order, boxes on the turned page", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    page.setRotation(degrees(90));
    // Drawn turned the other way, so it reads left to right on the landscape page as displayed.
    page.drawText("Granite survives the winter", { x: 100, y: 100, size: 14, font, rotate: degrees(90) });
    page.drawText("Basalt keeps its colour", { x: 140, y: 100, size: 14, font, rotate: degrees(90) });
    const { elements } = await partitionPdf({ bytes: await doc.save() });
    expect(elements.map((e) => e.text)).toEqual(["Granite survives the winter", "Basalt keeps its colour"]);
    const [first, second] = elements;
    expect(first?.pageLayout).toEqual({ width: 792, height: 612 });
    // On the landscape page both lines start 100 pt from the left, the second 40 pt further down.
    expect(first?.boundingBox?.left).toBeCloseTo(100, 0);
    expect(second?.boundingBox?.left).toBeCloseTo(100, 0);
    expect((second?.boundingBox?.top ?? 0) - (first?.boundingBox?.top ?? 0)).toBeCloseTo(40, 0);
  });

  it("types, pages, boxes and page layout of a three-page report", async () => {
    const { elements, totalPages, warnings } = await partitionPdf({ bytes: await buildReportPdf() });
    expect(totalPages).toBe(3);
    expect(warnings).toEqual([]);
    const page1 = elements.filter((e) => e.pageNumber === 1);
    expect(page1.map((e) => e.type)).toEqual([
      "Header",
      "Title",
      "NarrativeText",
      "NarrativeText",
      "NarrativeText",
      "PageNumber",
    ]);
    expect(page1[1]?.text).toBe("Document Ingestion Report");
    expect(page1[2]?.text).toMatch(/^Paragraph 1 of page 1\. Quarry parses uploaded documents .* that page\.$/);

    const page2 = elements.filter((e) => e.pageNumber === 2);
    expect(page2.find((e) => e.type === "Title")?.text).toBe("Results and Findings");
    expect(page2.filter((e) => e.type === "ListItem").map((e) => e.text)).toEqual([
      "First finding about parsing speed",
      "Second finding about chunk sizes",
    ]);
    expect(elements.filter((e) => e.type === "PageNumber").map((e) => [e.pageNumber, e.text])).toEqual([
      [1, "1"],
      [2, "2"],
      [3, "3"],
    ]);
    expect(elements.filter((e) => e.type === "Header")).toHaveLength(3);

    for (const e of elements) {
      expect(e.pageLayout).toEqual({ width: PAGE.width, height: PAGE.height });
      const box = e.boundingBox;
      expect(box).toBeTruthy();
      if (!box) continue;
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.left + box.width).toBeLessThanOrEqual(PAGE.width);
      expect(box.top + box.height).toBeLessThanOrEqual(PAGE.height);
    }
    // Top-left origin: the title was drawn 90pt below the top edge, the page number near the bottom.
    const title = page1[1]?.boundingBox;
    expect(title?.left).toBeCloseTo(72, 0);
    expect(title?.top).toBeGreaterThan(85);
    expect(title?.top).toBeLessThan(100);
    expect(title?.height).toBeGreaterThan(18);
    expect(page1[5]?.boundingBox?.top).toBeGreaterThan(740);
  });

  it("reads the left column before the right one", async () => {
    const { elements } = await partitionPdf({ bytes: await buildTwoColumnPdf() });
    expect(elements[0]).toMatchObject({ type: "Title", text: "A Study of Column Layouts" });
    const body = elements
      .slice(1)
      .map((e) => e.text)
      .join(" ");
    expect(body.indexOf("LEFT column begins")).toBeLessThan(body.indexOf("LEFT column ends"));
    expect(body.indexOf("LEFT column ends")).toBeLessThan(body.indexOf("RIGHT column begins"));
    expect(body).not.toMatch(/LEFT.*RIGHT.*LEFT/s);
    expect(elements[2]?.boundingBox?.left).toBeGreaterThan(300);
  });

  it("recovers aligned rows as a table", async () => {
    const { elements } = await partitionPdf({ bytes: await buildTablePdf() });
    expect(elements.map((e) => e.type)).toEqual(["NarrativeText", "Table", "NarrativeText"]);
    const table = elements[1];
    expect(table?.text).toBe("Format Parser Pages\nPDF pdfjs text layer yes\nHTML cheerio no\nCSV papaparse no");
    expect(table?.html).toContain("<th>Format</th><th>Parser</th><th>Pages</th>");
    expect(table?.html).toContain("<td>pdfjs text layer</td>");
  });

  it("warns about pages without a text layer instead of guessing", async () => {
    const result = await partitionPdf({ bytes: await buildBlankPdf() });
    expect(result.elements).toEqual([]);
    expect(result.warnings).toEqual(["Page 1 has no text layer (scanned?); use method balanced or accurate for OCR"]);
  });

  it("reads the pages it can and names the one whose object is missing", async () => {
    const content = "BT /F1 12 Tf 72 700 Td (Granite survives the winter) Tj ET";
    // Page 2 of the page tree points at an object the file does not have.
    const pdf = [
      "%PDF-1.4",
      "1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj",
      "2 0 obj<</Type/Pages/Kids[3 0 R 9 0 R]/Count 2>>endobj",
      "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj",
      `4 0 obj<</Length ${content.length}>>stream\n${content}\nendstream endobj`,
      "5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj",
      "trailer<</Root 1 0 R>>",
      "%%EOF",
    ].join("\n");
    const result = await partitionPdf({ bytes: new TextEncoder().encode(pdf) });
    expect(result.elements.map((e) => e.text)).toEqual(["Granite survives the winter"]);
    expect(result.warnings).toEqual(["Page 2 could not be read (The page is damaged in the file or missing from it)"]);
  });

  it("refuses password-protected files with a clear message", async () => {
    await expect(partitionPdf({ bytes: await buildEncryptedPdf() })).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      message: "The PDF is password-protected; remove the password and upload it again",
    });
  });
});
