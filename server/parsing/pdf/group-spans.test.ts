import { describe, expect, it } from "vitest";
import { partitionDocument } from "../partition";
import type { ParsedElement } from "../types";
import {
  buildEvenGroupsPdf,
  buildNestedGroupsPdf,
  buildNumberedColumnsPdf,
  buildTwoRowGroupsPdf,
  buildUnequalGroupsPdf,
} from "./group-span-fixtures";

const tableOf = async (bytes: Uint8Array) => {
  const { elements } = await partitionDocument({ bytes, fileName: "t.pdf", fileType: "pdf", method: "basic" });
  const tables = elements.filter((e) => e.type === "Table");
  expect(tables).toHaveLength(1);
  return tables[0] as ParsedElement;
};

/** The first header row of a table's HTML. */
const groupRow = (table: ParsedElement) => /<tr>(.*?)<\/tr>/.exec(table.html ?? "")?.[1];

describe("group headings over narrow figure columns", () => {
  it("spans a heading over an even group of columns, though its own width reaches only the middle two", async () => {
    const table = await tableOf(await buildEvenGroupsPdf());
    expect(groupRow(table)).toBe(
      '<th></th><th colspan="4">Small</th><th colspan="4">Medium</th><th colspan="4">Large</th>',
    );
  });

  it("spans a heading centred on the middle sub-heading of its group when the row's other headings are groups", async () => {
    const table = await tableOf(await buildUnequalGroupsPdf());
    expect(groupRow(table)).toBe(
      '<th></th><th colspan="2">Speed</th><th colspan="3">Quality</th><th colspan="3">Memory</th>',
    );
    expect(table.html).toContain("<th>chrF</th><th>TER</th><th>GPU</th><th>CPU</th>");
  });

  it("spans a heading over sub-headings that span columns themselves", async () => {
    const table = await tableOf(await buildNestedGroupsPdf());
    expect(groupRow(table)).toBe('<th></th><th colspan="4">Supervised</th><th colspan="4">Unsupervised</th>');
    expect(table.html).toContain(
      '<tr><th></th><th colspan="2">Image</th><th colspan="2">Text</th><th colspan="2">Image</th><th colspan="2">Text</th></tr>',
    );
  });
});

describe("column numbers as sub-headings", () => {
  it("keeps a row of column numbers under group headings in the header", async () => {
    const table = await tableOf(await buildNumberedColumnsPdf());
    expect(groupRow(table)).toBe('<th></th><th colspan="5">Validation</th><th colspan="5">Test</th>');
    expect(table.html).toContain(
      "<tr><th>Model</th><th>1</th><th>2</th><th>3</th><th>4</th><th>5</th><th>1</th><th>2</th><th>3</th><th>4</th>" +
        "<th>5</th></tr></thead><tbody><tr><td>Baseline</td>",
    );
  });
});

describe("row labels over groups of two rows", () => {
  it("spans each label over its two rows, whichever of them it was set on", async () => {
    const table = await tableOf(await buildTwoRowGroupsPdf());
    expect(table.html).toContain(
      '<tbody><tr><td rowspan="2">Small</td><td>Base</td><td>47.1</td><td>58.2</td><td>69.3</td><td>80.4</td></tr>' +
        "<tr><td>Ours</td><td>84.2</td><td>95.3</td><td>17.4</td><td>28.5</td></tr>" +
        '<tr><td rowspan="2">Large</td><td>Base</td>',
    );
  });
});
