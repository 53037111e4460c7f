import { describe, expect, it } from "vitest";
import { joinItemsSplitByPages, wholeItemTexts } from "./page-split-items";

const STRUCT_TEXT = [
  "Document",
  "  L (block)",
  "    LI (block)",
  "      LBody (block)",
  "        P (block):",
  "           /Placement /Block",
  '          "• Check the pump "',
  '          "before you start."',
  "    LI (block)",
  "      LBody (block)",
  "        P (block):",
  '          "• Close the valve on the "',
  '          "left side and wait."',
  "        L (block)",
  "          LI (block)",
  '            "a) Inner item."',
  "  P (block):",
  '    "Then open the lid."',
].join("\n");

describe("list items a page break splits in a page-by-page reading of the tags", () => {
  it("reads each item's own text from the whole tree, nested lists left out", () => {
    expect(wholeItemTexts(STRUCT_TEXT)).toEqual([
      "• Check the pump before you start.",
      "• Close the valve on the left side and wait.",
      "a) Inner item.",
    ]);
  });

  it("joins the pieces of an item set over a page break, and keeps whole items apart", () => {
    const whole = wholeItemTexts(STRUCT_TEXT);
    const pages = [
      ["• Check the pump before you start.", "• Close the valve on the"],
      ["left side and wait.", "a) Inner item."],
    ];
    expect(joinItemsSplitByPages(pages, whole)).toEqual([
      "• Check the pump before you start.",
      "• Close the valve on the left side and wait.",
      "a) Inner item.",
    ]);
    const apart = [["• Check the pump before you start."], ["• Close the valve on the left side and wait."]];
    expect(joinItemsSplitByPages(apart, whole)).toEqual(apart.flat());
  });

  it("keeps the pieces apart when the whole tree cannot be read", () => {
    const pages = [["• Close the valve on the"], ["left side and wait."]];
    expect(joinItemsSplitByPages(pages, [])).toEqual(pages.flat());
  });
});
