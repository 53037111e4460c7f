import { describe, expect, it } from "vitest";
import { blockRecall, extractionOf, furniturePrecision, scoreExtraction, tokens } from "./quality";
import type { ParsedElement } from "./types";

const element = (type: ParsedElement["type"], text: string): ParsedElement => ({ type, text, pageNumber: 1 });

describe("word tokens", () => {
  it("counts Chinese and Japanese characters one by one, so a line break read as a space or as nothing scores alike", () => {
    expect(tokens("大型语言 模型的性能")).toEqual(tokens("大型语言模型的性能"));
    expect(tokens("日本語のテキスト, and English")).toEqual([
      "日",
      "本",
      "語",
      "の",
      "テ",
      "キ",
      "ス",
      "ト",
      "and",
      "english",
    ]);
    expect(tokens("Quarry 2.0 parses")).toEqual(["quarry", "2", "0", "parses"]);
  });
});

describe("code recall and footer precision", () => {
  it("counts a reference listing as found when our CodeSnippets hold its words, however they are cut", () => {
    const listing = "def main():\n    print('hello')\n    return 0";
    expect(blockRecall(["def main():", "print('hello')\nreturn 0"], [listing])).toBe(1);
    expect(blockRecall(["def main():"], [listing])).toBe(0);
    expect(blockRecall([], [listing, "SELECT id FROM users"])).toBe(0);
  });

  it("scores only what we typed as furniture, and says nothing when either side has none", () => {
    const reference = ["Official - Subject to Final Review", "Alderson Reporting Company 1"];
    expect(furniturePrecision(["Alderson Reporting Company", "1"], reference)).toBe(1);
    expect(furniturePrecision(["Alderson Reporting Company", "IN THE SUPREME COURT"], reference)).toBe(0.5);
    expect(furniturePrecision([], reference)).toBeNull();
    expect(furniturePrecision(["Page 1"], [])).toBeNull();
  });

  it("reads CodeSnippet and Header/Footer/PageNumber elements out of a parse into the scores", () => {
    const ours = extractionOf([
      element("Header", "Chapter 3 Results 27"),
      element("NarrativeText", "Body text of the page."),
      element("CodeSnippet", "SELECT id FROM users"),
      element("PageNumber", "27"),
    ]);
    expect(ours.codeBlocks).toEqual(["SELECT id FROM users"]);
    expect(ours.furniture).toEqual(["Chapter 3 Results 27", "27"]);
    const scores = scoreExtraction(ours, {
      codeBlocks: ["SELECT id FROM users", "UPDATE users SET name = 'x'"],
      furniture: ["Chapter 3 Results 27"],
    });
    expect(scores.code).toBe(0.5);
    expect(scores.footers).toBe(1);
    expect(scoreExtraction(ours, {}).code).toBeNull();
  });
});
