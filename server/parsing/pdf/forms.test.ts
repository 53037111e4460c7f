import { describe, expect, it } from "vitest";
import { partitionDocument } from "../partition";
import {
  buildFieldGroupsPdf,
  buildKeyValuePdf,
  buildParagraphEndBesidePdf,
  buildProseBesidePdf,
} from "./form-fixtures";

const parse = async (bytes: Uint8Array) =>
  (await partitionDocument({ bytes, fileName: "t.pdf", fileType: "pdf", method: "basic" })).elements;

describe("text that lines up like cells without being a table", () => {
  it("reads a form's groups of fields as text, each group's label on its own, not as one table", async () => {
    const elements = await parse(await buildFieldGroupsPdf());
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
    const label = elements.find((e) => e.text.includes("Ordinary Radio Buttons:"));
    expect(label?.text).toBe("Ordinary Radio Buttons:");
    expect(elements.filter((e) => e.text.includes("Option 1"))).toHaveLength(2);
  });

  it("keeps a label with a colon inside a table when it is set as close as the rows (a group label)", async () => {
    const elements = await parse(await buildFieldGroupsPdf(20));
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    expect(tables[0]?.text).toContain("Ordinary Radio Buttons:");
  });

  it("reads key/value lines (labels ending in a colon) as text, not as a two-column table", async () => {
    const elements = await parse(await buildKeyValuePdf());
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
    const text = elements.map((e) => e.text).join("\n");
    expect(text).toContain("Date of birth: 12 March 1980");
  });

  it("reads an article beside an infobox as text, not as a table of the article's words", async () => {
    const elements = await parse(await buildProseBesidePdf());
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
    const text = elements.map((e) => e.text).join("\n");
    expect(text).toContain("Initial release");
    expect(text).toContain("without a plugin of its own");
  });

  it("reads a fully justified article beside an infobox as text: its words spread into cells starting in lower case", async () => {
    const elements = await parse(await buildProseBesidePdf(1));
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
  });

  it("reads a paragraph's end beside an infobox as text: a justified line's words are cells starting in lower case", async () => {
    const elements = await parse(await buildParagraphEndBesidePdf());
    expect(elements.filter((e) => e.type === "Table")).toEqual([]);
    expect(elements.map((e) => e.text).join("\n")).toContain("Many web applications, including viewers, use it and");
  });
});
