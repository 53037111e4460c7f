import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { PAGE, put } from "./test-fixtures";
import { bodyLines, typesOf } from "./test-headings";

/** Headings of a document's standard parts ("References", "Acknowledgments") set in the body's own font and size. */

describe("headings of a document's parts in the body's font", () => {
  it("types a part's name alone on its line and set apart as Title, not a longer line or one inside a paragraph", async () => {
    const doc = await PDFDocument.create();
    const regular = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([PAGE.width, PAGE.height]);
    bodyLines(page, regular, 80, 1);
    put(page, "Acknowledgments", 72, 150, 10, regular);
    bodyLines(page, regular, 170, 2);
    put(page, "7 Conclusions", 72, 240, 10, regular);
    bodyLines(page, regular, 260, 3);
    // More words than a part's name, set apart all the same: a line of text.
    put(page, "Summary of the survey", 72, 330, 10, regular);
    bodyLines(page, regular, 350, 4);
    put(page, "References", 72, 420, 10, regular);
    put(page, "[1] A. Author. A study of documents. Journal of Tests, 2020.", 72, 440, 10, regular);
    put(page, "[2] B. Author. Another study of documents. Journal of Tests, 2021.", 72, 456, 10, regular);
    const { elements, typeOf } = await typesOf(doc);
    expect(typeOf("Acknowledgments")).toBe("Title");
    expect(typeOf("7 Conclusions")).toBe("Title");
    expect(typeOf("References")).toBe("Title");
    expect(typeOf("Summary of the survey")).toBeDefined();
    expect(typeOf("Summary of the survey")).not.toBe("Title");
    expect(elements.filter((e) => e.type === "ListItem")).toHaveLength(2);
  });
});
