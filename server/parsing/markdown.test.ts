import { describe, expect, it } from "vitest";
import { partitionMarkdownText } from "./markdown";

describe("markdown", () => {
  const source = [
    "---",
    "title: ignored front matter",
    "---",
    "# Guide",
    "",
    "Intro with **bold**, `code` and a [link](https://example.com) &amp; more.",
    "",
    "## Steps",
    "",
    "- first step",
    "  - nested step",
    "- second step",
    "",
    "```ts",
    "const x = 1;",
    "```",
    "",
    "| Item | Price |",
    "|---|---|",
    "| Apples | 1.99 |",
    "",
    "> A quoted remark.",
    "",
    "[Only a link](https://example.com/docs)",
  ].join("\n");
  const elements = partitionMarkdownText(source);

  it("maps blocks to element types in order", () => {
    expect(elements.map((e) => e.type)).toEqual([
      "Title",
      "NarrativeText",
      "Title",
      "ListItem",
      "ListItem",
      "ListItem",
      "CodeSnippet",
      "Table",
      "NarrativeText",
      "Link",
    ]);
  });

  it("keeps plain text, heading depth and the source markdown", () => {
    expect(elements[0]?.metadata?.category_depth).toBe(1);
    expect(elements[2]?.metadata?.category_depth).toBe(2);
    expect(elements[1]?.text).toBe("Intro with bold, code and a link & more.");
    expect(elements[1]?.markdown).toContain("**bold**");
    expect(elements[4]).toMatchObject({ text: "nested step", metadata: { category_depth: 1 } });
    expect(elements[6]).toMatchObject({ text: "const x = 1;", metadata: { language: "ts" } });
  });

  it("renders tables as real HTML with a header row", () => {
    const table = elements[7];
    expect(table?.text).toBe("Item Price\nApples 1.99");
    expect(table?.html).toBe(
      "<table><thead><tr><th>Item</th><th>Price</th></tr></thead><tbody><tr><td>Apples</td><td>1.99</td></tr></tbody></table>",
    );
  });
});
