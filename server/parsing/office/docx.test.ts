import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { ImageBudget, MAX_IMAGE_BYTES } from "./common";
import { partitionDocx } from "./docx";
import { markPageBreaks } from "./docx-walker";
import {
  buildDocx,
  expectUnprocessable,
  TINY_PNG,
  wHyperlink,
  wImage,
  wPageBreak,
  wFontRun,
  wPara,
  wRenderedBreak,
  wRun,
  wTable,
} from "./test-fixtures";

describe("partitionDocx", () => {
  it("reads headings, paragraphs with emphasis and nested lists", async () => {
    const docx = await buildDocx({
      body: [
        wPara("Annual Report", { style: "Title" }),
        wPara("Introduction", { style: "Heading1" }),
        wPara([
          wRun("Sales grew "),
          wRun("strongly", { bold: true }),
          wRun(" in "),
          wRun("every", { italic: true }),
          wRun(" region."),
        ]),
        wPara("First point of the list", { numbered: { level: 0 } }),
        wPara("A sub point under it", { numbered: { level: 1 } }),
        wPara("Background", { style: "Heading2" }),
        wPara("The company was founded long ago and has grown ever since."),
      ].join(""),
    });
    const { elements, totalPages } = await partitionDocx(docx);
    expect(totalPages).toBe(1);
    expect(elements.map((e) => [e.type, e.text])).toEqual([
      ["Title", "Annual Report"],
      ["Title", "Introduction"],
      ["NarrativeText", "Sales grew strongly in every region."],
      ["ListItem", "First point of the list"],
      ["ListItem", "A sub point under it"],
      ["Title", "Background"],
      ["NarrativeText", "The company was founded long ago and has grown ever since."],
    ]);
    expect(elements[1]?.metadata?.heading_level).toBe(1);
    expect(elements[1]?.markdown).toBe("# Introduction");
    expect(elements[5]?.metadata?.heading_level).toBe(2);
    expect(elements[2]?.markdown).toBe("Sales grew **strongly** in *every* region.");
    expect(elements[3]?.metadata?.category_depth).toBe(0);
    expect(elements[4]?.metadata?.category_depth).toBe(1);
    expect(elements[4]?.markdown).toBe("  - A sub point under it");
    expect(elements.every((e) => e.pageNumber === 1)).toBe(true);
  });

  it("infers headings from bold or capitals, and bullets typed as text", async () => {
    const docx = await buildDocx({
      body: [
        wPara([wRun("Executive Summary", { bold: true })]),
        wPara("The results for the year were better than expected across the board."),
        wPara("A.\tPURPOSE"),
        wPara("• Typed bullet item"),
        wPara("This is a normal sentence that ends with a period."),
      ].join(""),
    });
    const { elements } = await partitionDocx(docx);
    expect(elements.map((e) => [e.type, e.text])).toEqual([
      ["Title", "Executive Summary"],
      ["NarrativeText", "The results for the year were better than expected across the board."],
      ["Title", "A. PURPOSE"],
      ["ListItem", "Typed bullet item"],
      ["NarrativeText", "This is a normal sentence that ends with a period."],
    ]);
  });

  it("reads a code style's paragraphs, or paragraphs set in a fixed-pitch font, as one listing each", async () => {
    const docx = await buildDocx({
      body: [
        wPara("The figures in this report come from a query on the sales table."),
        wPara("SELECT name, total", { style: "SourceCode" }),
        wPara("FROM sales", { style: "SourceCode" }),
        wPara("  WHERE year = 2023;", { style: "SourceCode" }),
        wPara("The totals are then computed by a short function typed in Consolas."),
        wPara([wFontRun("def total(rows):", "Consolas")]),
        wPara([wFontRun("    return sum(r.amount ", "Consolas"), wFontRun("for r in rows)", "Courier New")]),
        wPara([wRun("Run "), wFontRun("npm test", "Consolas"), wRun(" before you commit.")]),
      ].join(""),
    });
    const { elements } = await partitionDocx(docx);
    expect(elements.map((e) => [e.type, e.text])).toEqual([
      ["NarrativeText", "The figures in this report come from a query on the sales table."],
      ["CodeSnippet", "SELECT name, total\nFROM sales\n  WHERE year = 2023;"],
      ["NarrativeText", "The totals are then computed by a short function typed in Consolas."],
      ["CodeSnippet", "def total(rows):\n    return sum(r.amount for r in rows)"],
      ["NarrativeText", "Run npm test before you commit."],
    ]);
    expect(elements[1]?.markdown).toBe("```\nSELECT name, total\nFROM sales\n  WHERE year = 2023;\n```");
  });

  it("reads a document typed wholly in a fixed-pitch font as text, not code", async () => {
    const docx = await buildDocx({
      body: [
        wPara([wFontRun("INT. OFFICE - DAY", "Courier New")]),
        wPara([wFontRun("The team gathers around a laptop to read the quarterly report aloud.", "Courier New")]),
      ].join(""),
    });
    const { elements } = await partitionDocx(docx);
    expect(elements.some((e) => e.type === "CodeSnippet")).toBe(false);
  });

  it("keeps tables as HTML with spans, nested tables and links", async () => {
    const nested = wTable([
      ["e", "f"],
      ["g", "h"],
    ]);
    const docx = await buildDocx({
      links: { rIdLink: "https://example.com/docs" },
      body: [
        wTable([
          [{ text: "Merged head", gridSpan: 2 }, "C"],
          [{ text: "Tall", vMerge: "restart" }, "b2", "c2"],
          [{ text: "", vMerge: "continue" }, "b3", "c3"],
        ]),
        `<w:p>${wRun("See ")}${wHyperlink("rIdLink", "the guide")}${wRun(" for details on every table.")}</w:p>`,
        // A nested table sits inside a cell, next to a hyperlink.
        `<w:tbl><w:tr><w:tc><w:p>${wHyperlink("rIdLink", "Read the docs")}</w:p></w:tc><w:tc>${nested}<w:p/></w:tc></w:tr></w:tbl>`,
      ].join(""),
    });
    const { elements } = await partitionDocx(docx);
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(2);
    const [merged, withNested] = tables;
    expect(merged?.html).toContain('<td colspan="2">Merged head</td>');
    expect(merged?.html).toContain('<td rowspan="2">Tall</td>');
    expect(merged?.text).toBe("Merged head C\nTall b2 c2\nb3 c3");
    expect(merged?.markdown).toMatch(/^\| Merged head \| C \|/);
    expect(withNested?.html).toContain('<a href="https://example.com/docs">Read the docs</a>');
    expect(withNested?.html).toMatch(/<td><table><tbody><tr><td>e<\/td><td>f<\/td><\/tr>/);
    expect(withNested?.text).toBe("Read the docs e f g h");
    const between = elements.find((e) => e.type === "NarrativeText");
    expect(between?.text).toBe("See the guide for details on every table.");
    expect(between?.markdown).toBe("See [the guide](https://example.com/docs) for details on every table.");
  });

  it("adds headers and footers, leaving page-number fields out", async () => {
    const docx = await buildDocx({
      header: wPara("ACME Employee Handbook"),
      footer: `${wPara("Copyright 2024 ACME")}<w:p><w:fldSimple w:instr=" PAGE "><w:r><w:t>7</w:t></w:r></w:fldSimple></w:p>`,
      body: [
        wPara("Welcome to the company, we are glad you are here."),
        wPageBreak,
        wPara("Second page body text."),
      ].join(""),
    });
    const { elements } = await partitionDocx(docx);
    expect(elements[0]).toMatchObject({
      type: "Header",
      text: "ACME Employee Handbook",
      pageNumber: 1,
      metadata: { header_footer_type: "primary" },
    });
    const last = elements[elements.length - 1];
    expect(last).toMatchObject({ type: "Footer", text: "Copyright 2024 ACME", pageNumber: 2 });
  });

  it("drops a footer that is only 'Page X of Y'", async () => {
    const field = (instr: string, value: string) =>
      `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>${instr}</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>${value}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;
    const docx = await buildDocx({
      footer: `<w:p>${wRun("Page ")}${field(" PAGE ", "3")}${wRun(" of ")}${field(" NUMPAGES ", "9")}</w:p>`,
      body: wPara("Only body text here, nothing else."),
    });
    const { elements } = await partitionDocx(docx);
    expect(elements.map((e) => e.type)).toEqual(["NarrativeText"]);
  });

  it("counts pages at explicit, rendered and 'page break before' breaks", async () => {
    const docx = await buildDocx({
      footer: wPara("Footer text"),
      body: [
        wPara("First page text."),
        wPageBreak,
        // Word writes a rendered break at the top of the page an explicit break started: one page turn, not two.
        `<w:p>${wRenderedBreak}${wRun("Second page text.")}</w:p>`,
        wPara("Third page text.", { pageBreakBefore: true }),
        `<w:p>${wRenderedBreak}${wRun("Fourth page text.")}</w:p>`,
        wTable([["cell one", "cell two"]]),
      ].join(""),
    });
    const { elements, totalPages } = await partitionDocx(docx);
    expect(elements.map((e) => [e.text, e.pageNumber])).toEqual([
      ["First page text.", 1],
      ["Second page text.", 2],
      ["Third page text.", 3],
      ["Fourth page text.", 4],
      ["cell one cell two", 4],
      ["Footer text", 4],
    ]);
    expect(totalPages).toBe(4);
  });

  it("turns embedded pictures into Image elements with their bytes", async () => {
    const docx = await buildDocx({
      images: { rIdImg: TINY_PNG },
      body: [wPara("Our logo follows."), wImage("rIdImg", "Company logo")].join(""),
    });
    const { elements } = await partitionDocx(docx);
    const image = elements.find((e) => e.type === "Image");
    expect(image?.text).toBe("Company logo");
    expect(image?.imgBase64).toBe(TINY_PNG.toString("base64"));
    expect(image?.metadata?.image_mime_type).toBe("image/png");
  });

  it("keeps image bytes within a budget", () => {
    const budget = new ImageBudget();
    expect(budget.take(new Uint8Array(MAX_IMAGE_BYTES + 1))).toBeNull();
    expect(budget.take(TINY_PNG)).toBe(TINY_PNG.toString("base64"));
    expect(budget.warnings()).toEqual([expect.stringMatching(/1 embedded image\(s\) larger than 5 MB/)]);
  });

  it("marks page breaks without touching the text", () => {
    const xml = '<w:p><w:r><w:t>a</w:t><w:br w:type="page"/><w:lastRenderedPageBreak/><w:br/></w:r></w:p>';
    expect(markPageBreaks(xml)).toBe("<w:p><w:r><w:t>a</w:t><w:t>\uE000</w:t><w:t>\uE001</w:t><w:br/></w:r></w:p>");
  });

  describe("malformed files end as UNPROCESSABLE", () => {
    it("random bytes", async () => {
      const error = await expectUnprocessable(partitionDocx(new TextEncoder().encode("%PDF-1.7 not a docx")));
      expect(error.message).toMatch(/not a valid Office document/);
    });

    it("a truncated file", async () => {
      const docx = await buildDocx({ body: wPara("Some text ".repeat(100)) });
      await expectUnprocessable(partitionDocx(docx.subarray(0, docx.length - 40)));
    });

    it("a package without a document part", async () => {
      const zip = new JSZip();
      zip.file("[Content_Types].xml", "<Types/>");
      const error = await expectUnprocessable(partitionDocx(await zip.generateAsync({ type: "uint8array" })));
      expect(error.message).toMatch(/not a valid Word document/);
    });

    it("a document part that is not XML", async () => {
      const docx = await buildDocx({ body: "", rawDocument: "<w:document><w:body><w:p>never closed <<<" });
      await expectUnprocessable(partitionDocx(docx));
    });

    it("a document part with an entity-expansion DOCTYPE", async () => {
      const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&lol2;</w:t></w:r></w:p></w:body></w:document>`;
      const error = await expectUnprocessable(partitionDocx(await buildDocx({ body: "", rawDocument: bomb })));
      expect(error.message).toMatch(/DOCTYPE/);
    });

    it("a package whose compressed data is corrupted", async () => {
      const docx = await buildDocx({ body: wPara("Some text that compresses. ".repeat(200)) });
      const broken = new Uint8Array(docx);
      const start = Math.floor(broken.length * 0.3);
      for (let i = start; i < start + 200; i++) broken[i] = (broken[i] ?? 0) ^ 0x5a;
      await expectUnprocessable(partitionDocx(broken));
    });
  });
});
