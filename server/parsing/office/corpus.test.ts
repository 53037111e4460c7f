import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findTool } from "../system-tools";
import { peerText, textSimilarity } from "../text-similarity";
import type { ParsedElement } from "../types";
import { partitionOffice } from "./index";

/** Real documents (see ../shared/corpus/MANIFEST.md); a clone without the corpus skips these. */
const CORPUS = path.resolve(import.meta.dirname, "../../../../shared/corpus");
const soffice = await findTool("soffice");

const parse = async (file: string) => {
  const fileType = path.extname(file).slice(1);
  return partitionOffice({
    bytes: new Uint8Array(readFileSync(path.join(CORPUS, file))),
    fileName: file,
    fileType,
    method: "basic",
  });
};

const texts = (elements: ParsedElement[], type: string) => elements.filter((e) => e.type === type).map((e) => e.text);

/** Word-level F1 against unstructured's output for the same file; printed so the figure is visible in the run. */
const similarity = (file: string, elements: ParsedElement[]) => {
  const expected = JSON.parse(readFileSync(path.join(CORPUS, `${file}.expected.json`), "utf8")) as unknown;
  const score = textSimilarity(elements.map((e) => e.text).join("\n"), peerText(expected));
  console.log(`text similarity ${file}: ${score.toFixed(3)}`);
  return score;
};

describe.runIf(existsSync(CORPUS))("Office corpus", () => {
  it("handbook-1p.docx: header, headings, prose on two pages, footer", async () => {
    const { elements, totalPages } = await parse("handbook-1p.docx");
    expect(elements[0]).toMatchObject({ type: "Header", text: "US Trustee Handbook", pageNumber: 1 });
    expect(elements[elements.length - 1]).toMatchObject({ type: "Footer", text: "Copyright", pageNumber: 2 });
    expect(texts(elements, "Title")).toEqual(
      expect.arrayContaining(["CHAPTER 1", "INTRODUCTION", "A. PURPOSE", "B. ROLE OF THE UNITED STATES TRUSTEE"]),
    );
    expect(texts(elements, "NarrativeText")).toHaveLength(7);
    // The file has an explicit page break after the "A. PURPOSE" section.
    expect(totalPages).toBe(2);
    expect(elements.find((e) => e.text === "A. PURPOSE")?.pageNumber).toBe(1);
    expect(elements.find((e) => e.text.startsWith("B. ROLE"))?.pageNumber).toBe(2);
    expect(similarity("handbook-1p.docx", elements)).toBeGreaterThanOrEqual(0.95);
  });

  it("docx-tables.docx: simple, linked, nested and merged tables", async () => {
    const { elements } = await parse("docx-tables.docx");
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(3);
    const [simple, nested, merged] = tables;
    expect(simple?.html).toContain('<a href="https://tabul.com/">A link example</a>');
    expect(simple?.text).toBe("Header Col 1 Header Col 2\nLorem ipsum A link example");
    expect(nested?.html).toContain(
      "<td><table><tbody><tr><td>e</td><td>f</td></tr><tr><td>g&amp;t</td><td>h</td></tr></tbody></table></td>",
    );
    expect(merged?.html).toBe(
      '<table><tbody><tr><td rowspan="2">a</td><td colspan="2">b</td></tr><tr><td>c</td><td rowspan="2">d</td></tr><tr><td colspan="2">e</td></tr></tbody></table>',
    );
    expect(texts(elements, "Title")).toEqual(["Simple uniform table", "Nested Table", "Table with merged cells"]);
  });

  it("fake-doc-emphasized-text.docx: emphasis in markdown and table HTML", async () => {
    const { elements } = await parse("fake-doc-emphasized-text.docx");
    expect(elements.map((e) => e.type)).toEqual(["Table", "NarrativeText", "NarrativeText"]);
    expect(elements[0]?.html).toContain("<strong><em>bold-italic </em></strong>");
    expect(elements[0]?.html).toContain('<a href="http://github.com/">A Link example</a>');
    expect(elements[1]?.markdown).toBe("I am a **bold** *italic* ***bold-italic*** text.");
  });

  it("fake.odt: a paragraph and a 4x4 table", async () => {
    const { elements } = await parse("fake.odt");
    expect(elements.map((e) => [e.type, e.pageNumber])).toEqual([
      ["NarrativeText", 1],
      ["Table", 1],
    ]);
    expect(elements[0]?.text).toBe("Lorem ipsum dolor sit amet.");
    expect(elements[1]?.text.split("\n")).toEqual([
      "Header row Mon Wed Fri",
      "Color Blue Red Green",
      "Time 1pm 2pm 3pm",
      "Leader Sarah Mark Ryan",
    ]);
  });

  it("simple.odt: heading, bullets, a heading-like line, prose and an address", async () => {
    const { elements } = await parse("simple.odt");
    expect(elements.map((e) => [e.type, e.text])).toEqual([
      ["Title", "These are a few of my favorite things:"],
      ["ListItem", "Parrots"],
      ["ListItem", "Hockey"],
      ["Title", "Analysis"],
      ["NarrativeText", "This is my first thought. This is my second thought."],
      ["NarrativeText", "This is my third thought."],
      ["UncategorizedText", "2023"],
      ["Address", "DOYLESTOWN, PA 18901"],
    ]);
    expect(elements[0]?.metadata?.heading_level).toBe(1);
  });

  it("science-exploration-1p.pptx: title lines first, then the bullet hierarchy", async () => {
    const { elements, totalPages } = await parse("science-exploration-1p.pptx");
    expect(totalPages).toBe(1);
    expect(texts(elements, "Title")).toEqual([
      "GSFC: Sciences and Exploration Directorate",
      "Virtual Machine Environment Scorecard",
    ]);
    const items = elements.filter((e) => e.type === "ListItem");
    expect(items).toHaveLength(11);
    expect(items[0]?.text).toBe("Code 600: Sciences and Exploration Directorate (SED)");
    expect(items.find((e) => e.text.startsWith("Code 603"))?.metadata?.level).toBe(1);
    expect(elements.every((e) => e.pageNumber === 1)).toBe(true);
    expect(elements[0]?.pageLayout).toEqual({ width: 720, height: 540 });
    expect(elements[0]?.boundingBox).toEqual({ left: 65.06, top: 11.65, width: 533.88, height: 64.66 });
    expect(similarity("science-exploration-1p.pptx", elements)).toBeGreaterThanOrEqual(0.95);
  });

  it("fake-power-point-table.pptx: title and a 4x3 table", async () => {
    const { elements } = await parse("fake-power-point-table.pptx");
    expect(elements.map((e) => [e.type, e.pageNumber])).toEqual([
      ["Title", 1],
      ["Table", 1],
    ]);
    expect(elements[0]?.text).toBe("A Slide with a Table");
    expect(elements[1]?.text).toBe(
      "Column 1 Column 2 Column 3\nRed Green Blue\nPurple Orange Yellow\nTangerine Pink Aqua",
    );
    expect(elements[1]?.html).toMatch(/^<table><tbody><tr><td>Column 1<\/td>/);
  });

  it("stanley-cups.xlsx: a title above a table on each sheet", async () => {
    const { elements, totalPages } = await parse("stanley-cups.xlsx");
    expect(totalPages).toBe(2);
    expect(elements.map((e) => [e.type, e.text.split("\n")[0], e.pageNumber, e.metadata?.sheet_name])).toEqual([
      ["Title", "Stanley Cups", 1, "Stanley Cups"],
      ["Table", "Team Location Stanley Cups", 1, "Stanley Cups"],
      ["Title", "Stanley Cups Since 67", 2, "Stanley Cups Since 67"],
      ["Table", "Team Location Stanley Cups", 2, "Stanley Cups Since 67"],
    ]);
    expect(elements[1]?.html).toContain("<thead><tr><th>Team</th><th>Location</th><th>Stanley Cups</th></tr></thead>");
    expect(elements[1]?.text).toContain("Maple Leafs TOR 13");
    expect(similarity("stanley-cups.xlsx", elements)).toBeGreaterThanOrEqual(0.95);
  });

  it("2023-half-year-analyses-by-segment.xlsx: financial tables with headers, totals and footnotes", async () => {
    const { elements, totalPages } = await parse("2023-half-year-analyses-by-segment.xlsx");
    expect(totalPages).toBe(5);
    expect(new Set(elements.map((e) => e.pageNumber))).toEqual(new Set([1, 2, 3, 4, 5]));
    const first = elements.filter((e) => e.pageNumber === 1);
    // The sheet's name first, then its own title lines.
    expect(first[0]?.text).toBe("OS-Rev.and results 30 06 2023");
    expect(first.map((e) => e.type)).toEqual([
      "Title",
      "Title",
      "Title",
      "Title",
      "Table",
      "Table",
      "NarrativeText",
      "NarrativeText",
      "NarrativeText",
      "NarrativeText",
      "NarrativeText",
    ]);
    const table = first[4];
    expect(table?.metadata).toEqual({ sheet_name: "OS-Rev.and results 30 06 2023", cell_range: "A6:J18" });
    expect(table?.text).toContain("Zone NA 12553 2713 2632 -81 -29 -44 -337");
    // Totals are formulas: their cached results.
    expect(table?.text).toContain("Total 46293 7904 7351 -553 -110 -262 -1722");
    expect(table?.html).toMatch(/^<table><thead><tr><th>In millions of CHF<\/th>/);
    expect(first[6]?.text).toBe("(a) Inter-segment sales are not significant.");
  });

  describe.runIf(soffice)("legacy formats through LibreOffice", () => {
    it("fake-doc-emphasized-text.doc: same content as the .docx", async () => {
      const { elements } = await parse("fake-doc-emphasized-text.doc");
      expect(elements.map((e) => e.type)).toEqual(["Table", "NarrativeText", "NarrativeText"]);
      expect(elements[1]?.markdown).toBe("I am a **bold** *italic* ***bold-italic*** text.");
      expect(elements[0]?.html).toContain('<a href="http://github.com/">A Link example</a>');
      expect(elements.every((e) => e.metadata?.converted_with === "libreoffice" && e.pageNumber === 1)).toBe(true);
    });

    it("fake-power-point.ppt: bullet levels and text boxes", async () => {
      const { elements } = await parse("fake-power-point.ppt");
      expect(elements.map((e) => [e.type, e.text, e.metadata?.level])).toEqual([
        ["Title", "Adding a Bullet Slide", undefined],
        ["ListItem", "Find the bullet slide layout", 0],
        ["ListItem", "Use _TextFrame.text for first bullet", 1],
        ["ListItem", "Use _TextFrame.add_paragraph() for subsequent bullets", 2],
        ["NarrativeText", "Here is a lot of text!", undefined],
        ["NarrativeText", "Here is some text in a text box!", undefined],
      ]);
      expect(elements[0]?.pageLayout).toEqual({ width: 720, height: 540 });
    });

    it("tests-example.xls: three sheets, a quiz table, readme lines", async () => {
      const { elements, totalPages } = await parse("tests-example.xls");
      expect(totalPages).toBe(3);
      expect(elements[0]).toMatchObject({ type: "Title", text: "Example Test", pageNumber: 1 });
      expect(elements[1]).toMatchObject({ type: "Table", pageNumber: 1, metadata: { sheet_name: "Example Test" } });
      expect(elements[1]?.text).toContain("MC What is 2+2? 4 correct 3 incorrect");
      const abbr = elements.find((e) => e.type === "Table" && e.pageNumber === 2);
      expect(abbr?.html).toContain("<thead><tr><th>Abbreviation</th><th>Question Type</th></tr></thead>");
      expect(elements.find((e) => e.type === "EmailAddress")).toMatchObject({
        text: "bb-help@andrew.cmu.edu",
        pageNumber: 3,
      });
      expect(texts(elements, "Title")).toEqual(
        expect.arrayContaining(["Question Format Abbreviations", "File Information"]),
      );
      expect(similarity("tests-example.xls", elements)).toBeGreaterThanOrEqual(0.95);
    });
  });
});
