import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { PAGE, put } from "./test-fixtures";
import { bodyLines, typesOf } from "./test-headings";

/**
 * Lines set like headings (larger than the body, or bold) that are not: a sentence's wrapped line, a table's source,
 * a caption's label, a paper's author lines, a table's header row left alone, an admonition's label.
 */

const fonts = async (doc: PDFDocument) => ({
  regular: await doc.embedFont(StandardFonts.Helvetica),
  bold: await doc.embedFont(StandardFonts.HelveticaBold),
  italic: await doc.embedFont(StandardFonts.HelveticaOblique),
});

describe("lines set like headings that are text", () => {
  it("keeps a bold sentence wrapped onto a line in lower case as one paragraph, not a Title over its end", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "Key Findings", 72, 68, 12, bold);
    bodyLines(page, regular, 84, 1);
    put(page, "All states allowed testing accommodations to enable the majority of students with", 90, 150, 10, bold);
    put(page, "disabilities to take the general state assessments.", 90, 162, 10, bold);
    bodyLines(page, regular, 184, 2);
    const { elements, typeOf } = await typesOf(doc);
    expect(elements.filter((e) => e.type === "Title").map((e) => e.text)).toEqual(["Key Findings"]);
    expect(
      typeOf(
        "All states allowed testing accommodations to enable the majority of students with disabilities to take the general state assessments.",
      ),
    ).toBe("NarrativeText");
  });

  it("types a table's source line set like a heading as text, not Title", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "Market size", 72, 68, 12, bold);
    bodyLines(page, regular, 84, 1);
    put(page, "Source: National Survey, 1998", 72, 150, 12, bold);
    bodyLines(page, regular, 170, 2);
    const { typeOf } = await typesOf(doc);
    expect(typeOf("Market size")).toBe("Title");
    expect(typeOf("Source: National Survey, 1998")).toBeDefined();
    expect(typeOf("Source: National Survey, 1998")).not.toBe("Title");
  });

  it("types a caption's label set like a heading as a caption, not Title", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "Server energy use", 72, 68, 12, bold);
    bodyLines(page, regular, 84, 1);
    put(page, "Table A4-12. Projected average volume by space type", 72, 150, 12, bold);
    bodyLines(page, regular, 170, 2);
    put(page, "Exhibit 9 Characteristics of assessments", 72, 240, 12, bold);
    bodyLines(page, regular, 260, 3);
    put(page, "Table 1", 72, 330, 12, bold);
    bodyLines(page, regular, 350, 4);
    const { typeOf } = await typesOf(doc);
    expect(typeOf("Server energy use")).toBe("Title");
    expect(typeOf("Table A4-12. Projected average volume by space type")).toBe("FigureCaption");
    expect(typeOf("Exhibit 9 Characteristics of assessments")).toBe("FigureCaption");
    expect(typeOf("Table 1")).toBe("FigureCaption");
  });

  it("types a paper's author and affiliation lines with footnote marks as text, not Title", async () => {
    const doc = await PDFDocument.create();
    const { regular } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "Dense Retrieval for Question Answering", 72, 60, 16, regular);
    put(page, "Ann Author *, Bob Writer *, Cy Scholar \u2020, Di Reader", 72, 90, 12, regular);
    put(page, "Example Labs \u2020 University of Somewhere \u2021 Other University", 72, 120, 12, regular);
    put(page, "Abstract", 72, 150, 12, regular);
    bodyLines(page, regular, 166, 1);
    const { typeOf } = await typesOf(doc);
    expect(typeOf("Dense Retrieval for Question Answering")).toBe("Title");
    expect(typeOf("Abstract")).toBe("Title");
    expect(typeOf("Ann Author *, Bob Writer *, Cy Scholar \u2020, Di Reader")).toBeDefined();
    expect(typeOf("Ann Author *, Bob Writer *, Cy Scholar \u2020, Di Reader")).not.toBe("Title");
    expect(typeOf("Example Labs \u2020 University of Somewhere \u2021 Other University")).not.toBe("Title");
  });

  it("types an italic line at the body's size as Title only when set apart, not a label over the lines under it", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold, italic } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "NOMENCLATURE", 72, 68, 10, bold);
    // A group's label at the list's own pitch, over the symbols it names.
    put(page, "Roman letters", 72, 82, 10, italic);
    put(page, "k Thermal conductivity", 80, 94, 10, regular);
    put(page, "q Heat flux vector", 80, 106, 10, regular);
    bodyLines(page, regular, 140, 1);
    // An italic heading with space above and below it.
    put(page, "Sampling of the sites", 72, 220, 10, italic);
    bodyLines(page, regular, 244, 2);
    const { typeOf, elements } = await typesOf(doc);
    expect(typeOf("NOMENCLATURE")).toBe("Title");
    expect(typeOf("Sampling of the sites")).toBe("Title");
    expect(elements.some((e) => e.text.startsWith("Roman letters"))).toBe(true);
    expect(typeOf("Roman letters")).not.toBe("Title");
  });

  it("types a table's header row left alone at a page's foot as no Title, a number set apart from its heading as one", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const first = doc.addPage([PAGE.width, PAGE.height]);
    put(first, "2.1", 72, 80, 12, bold);
    put(first, "Scope of the review", 110, 80, 12, bold);
    let top = bodyLines(first, regular, 100, 1);
    for (let n = 2; n <= 10; n++) top = bodyLines(first, regular, top + 8, n);
    // The header row of a table whose rows went on to the next page.
    ["Step", "Owner", "Days"].forEach((cell, i) => put(first, cell, 72 + i * 180, top + 16, 10, bold));
    const second = doc.addPage([PAGE.width, PAGE.height]);
    ["policy control", "project data", "county report"].forEach((name, i) => {
      put(second, name, 72, 72 + i * 14, 10, regular);
      put(second, "staff", 252, 72 + i * 14, 10, regular);
      put(second, String(3 + i), 432, 72 + i * 14, 10, regular);
    });
    bodyLines(second, regular, 140, 13);
    const { elements } = await typesOf(doc);
    const titles = elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(titles.filter((t) => t.includes("Owner"))).toEqual([]);
    expect(titles.some((t) => t.includes("Scope of the review"))).toBe(true);
  });

  it("types a manual's admonition label alone on its line as no Title, a section named Notes as one", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "Removing the cover", 72, 80, 13, bold);
    bodyLines(page, regular, 100, 1);
    put(page, "WARNING", 72, 160, 10, bold);
    bodyLines(page, regular, 176, 2);
    put(page, "Note:", 72, 236, 10, bold);
    bodyLines(page, regular, 252, 3);
    put(page, "Notes", 72, 320, 13, bold);
    bodyLines(page, regular, 340, 4);
    const { typeOf } = await typesOf(doc);
    expect(typeOf("Removing the cover")).toBe("Title");
    expect(typeOf("WARNING")).not.toBe("Title");
    expect(typeOf("Note:")).not.toBe("Title");
    expect(typeOf("Notes")).toBe("Title");
  });

  it("types a standfirst in italics and a details line parted by middle dots under a title as text, not Title", async () => {
    const doc = await PDFDocument.create();
    const { regular, bold, italic } = await fonts(doc);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    put(page, "Council approves plan to rebuild the harbour wall", 72, 60, 20, bold);
    const dek = "Work on the old sea defence will start in May, but traders fear a summer of closures";
    put(page, dek, 72, 90, 12, italic);
    put(page, "Serves 4 \u00b7 Preparation 20 minutes \u00b7 Cooking 1 hour 25 minutes", 72, 116, 10, italic);
    bodyLines(page, regular, 140, 1);
    put(page, "Funding of the works", 72, 210, 12, bold);
    bodyLines(page, regular, 230, 2);
    // A heading in italics, larger than the body and in title case, stays one.
    put(page, "The Effects of the New Harbour Wall on the Fishing Fleet and the Summer Trade", 72, 300, 12, italic);
    bodyLines(page, regular, 320, 3);
    const { typeOf } = await typesOf(doc);
    expect(typeOf("Council approves plan to rebuild the harbour wall")).toBe("Title");
    expect(typeOf("Funding of the works")).toBe("Title");
    expect(typeOf("The Effects of the New Harbour Wall on the Fishing Fleet and the Summer Trade")).toBe("Title");
    expect(typeOf(dek)).toBe("NarrativeText");
    expect(typeOf("Serves 4 \u00b7 Preparation 20 minutes \u00b7 Cooking 1 hour 25 minutes")).toBe("NarrativeText");
  });
});
