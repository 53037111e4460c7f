import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { partitionOdt } from "./odt";
import { buildOdt, expectUnprocessable, TINY_PNG } from "./test-fixtures";

const STYLES = `
  <style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="T2" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>
  <style:style style:name="PBreak" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:break-before="page"/></style:style>
  <style:style style:name="PTitle" style:family="paragraph" style:parent-style-name="Title"/>
  <text:list-style style:name="LNum"><text:list-level-style-number text:level="1"/><text:list-level-style-bullet text:level="2"/></text:list-style>`;

describe("partitionOdt", () => {
  it("reads headings, styled text, lists, tables, images and pages", async () => {
    const odt = await buildOdt({
      automaticStyles: STYLES,
      images: { "logo.png": TINY_PNG },
      body: `
        <text:p text:style-name="PTitle">Field Guide</text:p>
        <text:h text:outline-level="1">Birds of the Coast</text:h>
        <text:p>Gulls are <text:span text:style-name="T1">loud</text:span> and <text:span text:style-name="T2">curious</text:span> birds.</text:p>
        <text:list text:style-name="LNum">
          <text:list-item><text:p>Herring gull</text:p>
            <text:list><text:list-item><text:p>Juvenile plumage</text:p></text:list-item></text:list>
          </text:list-item>
          <text:list-item><text:p>Common tern</text:p></text:list-item>
        </text:list>
        <table:table>
          <table:table-header-rows><table:table-row>
            <table:table-cell table:number-columns-spanned="2"><text:p>Species</text:p></table:table-cell><table:covered-table-cell/>
            <table:table-cell><text:p>Count</text:p></table:table-cell>
          </table:table-row></table:table-header-rows>
          <table:table-row>
            <table:table-cell table:number-rows-spanned="2"><text:p>Gulls</text:p></table:table-cell>
            <table:table-cell><text:p>Herring</text:p></table:table-cell><table:table-cell><text:p>12</text:p></table:table-cell>
          </table:table-row>
          <table:table-row>
            <table:covered-table-cell/><table:table-cell><text:p>Black-headed</text:p></table:table-cell><table:table-cell><text:p>7</text:p></table:table-cell>
          </table:table-row>
        </table:table>
        <text:p><draw:frame draw:name="Logo"><draw:image xlink:href="Pictures/logo.png"/><svg:title>Guild logo</svg:title></draw:frame></text:p>
        <text:soft-page-break/>
        <text:p>Text on the second page of the guide.</text:p>
        <text:p text:style-name="PBreak">Text on the third page of the guide.</text:p>`,
      masterStyles: `<style:master-page style:name="Standard">
          <style:header><text:p>Coastal Birding Club</text:p></style:header>
          <style:footer><text:p>Page <text:page-number>1</text:page-number></text:p></style:footer>
        </style:master-page>`,
    });
    const { elements, totalPages } = await partitionOdt(odt);
    expect(elements.map((e) => [e.type, e.text, e.pageNumber])).toEqual([
      ["Header", "Coastal Birding Club", 1],
      ["Title", "Field Guide", 1],
      ["Title", "Birds of the Coast", 1],
      ["NarrativeText", "Gulls are loud and curious birds.", 1],
      ["ListItem", "Herring gull", 1],
      ["ListItem", "Juvenile plumage", 1],
      ["ListItem", "Common tern", 1],
      ["Table", "Species Count\nGulls Herring 12\nBlack-headed 7", 1],
      ["Image", "Guild logo", 1],
      ["NarrativeText", "Text on the second page of the guide.", 2],
      ["NarrativeText", "Text on the third page of the guide.", 3],
    ]);
    expect(totalPages).toBe(3);
    const [, title, heading, para, item, sub] = elements;
    expect(title?.metadata?.heading_level).toBe(1);
    expect(heading?.markdown).toBe("# Birds of the Coast");
    expect(para?.markdown).toBe("Gulls are **loud** and *curious* birds.");
    expect(item?.markdown).toBe("1. Herring gull");
    expect(sub?.metadata?.category_depth).toBe(1);
    const table = elements.find((e) => e.type === "Table");
    expect(table?.html).toBe(
      '<table><thead><tr><th colspan="2">Species</th><th>Count</th></tr></thead><tbody><tr><td rowspan="2">Gulls</td><td>Herring</td><td>12</td></tr><tr><td>Black-headed</td><td>7</td></tr></tbody></table>',
    );
    expect(elements.find((e) => e.type === "Image")?.imgBase64).toBe(TINY_PNG.toString("base64"));
  });

  it("reads paragraphs in a code style or a fixed-pitch font as one listing each, lines and indentation kept", async () => {
    const odt = await buildOdt({
      automaticStyles: `
        <style:style style:name="Preformatted_20_Text" style:display-name="Preformatted Text" style:family="paragraph"/>
        <style:style style:name="P1" style:family="paragraph" style:parent-style-name="Preformatted_20_Text"/>
        <style:style style:name="PMono" style:family="paragraph"><style:text-properties style:font-name="Liberation Mono"/></style:style>`,
      body: `
        <text:p>The figures in this report come from a query on the sales table.</text:p>
        <text:p text:style-name="Preformatted_20_Text">SELECT name, total</text:p>
        <text:p text:style-name="P1"><text:s text:c="2"/>FROM sales;</text:p>
        <text:p>The totals are then computed by a short function set in a fixed-pitch font.</text:p>
        <text:p text:style-name="PMono">def total(rows):</text:p>
        <text:p text:style-name="PMono"><text:s text:c="4"/>return sum(rows)</text:p>
        <text:p>That is all the code this report needs to explain its figures.</text:p>`,
    });
    const { elements } = await partitionOdt(odt);
    expect(elements.map((e) => [e.type, e.text])).toEqual([
      ["NarrativeText", "The figures in this report come from a query on the sales table."],
      ["CodeSnippet", "SELECT name, total\n  FROM sales;"],
      ["NarrativeText", "The totals are then computed by a short function set in a fixed-pitch font."],
      ["CodeSnippet", "def total(rows):\n    return sum(rows)"],
      ["NarrativeText", "That is all the code this report needs to explain its figures."],
    ]);
  });

  it("reads a document typed wholly in a fixed-pitch font as text", async () => {
    const odt = await buildOdt({
      automaticStyles: `<style:style style:name="PMono" style:family="paragraph"><style:text-properties style:font-name="Courier New"/></style:style>`,
      body: `
        <text:p text:style-name="PMono">INT. OFFICE - DAY</text:p>
        <text:p text:style-name="PMono">The team gathers around a laptop to read the quarterly report aloud.</text:p>`,
    });
    const { elements } = await partitionOdt(odt);
    expect(elements.some((e) => e.type === "CodeSnippet")).toBe(false);
  });

  it("refuses a password-protected document", async () => {
    const error = await expectUnprocessable(partitionOdt(await buildOdt({ body: "", encrypted: true })));
    expect(error.message).toMatch(/password-protected/);
  });

  describe("malformed files end as UNPROCESSABLE", () => {
    it("a truncated file", async () => {
      const odt = await buildOdt({ body: "<text:p>Some text</text:p>".repeat(50) });
      await expectUnprocessable(partitionOdt(odt.subarray(0, Math.floor(odt.length * 0.7))));
    });

    it("a package without content.xml", async () => {
      const zip = new JSZip();
      zip.file("mimetype", "application/vnd.oasis.opendocument.text");
      const error = await expectUnprocessable(partitionOdt(await zip.generateAsync({ type: "uint8array" })));
      expect(error.message).toMatch(/no content\.xml/);
    });

    it("content.xml that is not XML", async () => {
      await expectUnprocessable(partitionOdt(await buildOdt({ body: "", rawContent: "<<< not xml at all" })));
    });

    it("another OpenDocument type (a spreadsheet)", async () => {
      const raw =
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"><office:body><office:spreadsheet/></office:body></office:document-content>';
      const error = await expectUnprocessable(partitionOdt(await buildOdt({ body: "", rawContent: raw })));
      expect(error.message).toMatch(/no text document/);
    });
  });
});
