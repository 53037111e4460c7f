import { describe, expect, it } from "vitest";
import { toRuns, type PageChar } from "./runs";

/** Characters of one line set left to right from `x`, 10 pt Times-like: each letter 5 pt wide. */
const line = (text: string, { x = 72, baseline = 100, size = 10, font = "Times", gapAfterSpace = 2.5 } = {}) => {
  const chars: PageChar[] = [];
  let before: PageChar["before"] = "none";
  for (const char of text) {
    if (char === " ") {
      before = "space";
      x += gapAfterSpace;
      continue;
    }
    chars.push({
      char,
      left: x,
      right: x + size / 2,
      top: baseline - 0.75 * size,
      bottom: baseline + 0.25 * size,
      baseline,
      fontSize: size,
      fontName: font,
      mono: false,
      horizontal: true,
      before,
    });
    x += size / 2;
    before = "none";
  }
  return chars;
};

const texts = (chars: PageChar[]) => toRuns(chars).runs.map((r) => r.text);

describe("toRuns", () => {
  it("keeps a line in one run, with the file's spaces", () => {
    expect(texts(line("Granite survives the winter"))).toEqual(["Granite survives the winter"]);
  });

  it("ends a run at a wide gap, a change of font and a new line", () => {
    const cells = [...line("Revenue"), ...line("1,204", { x: 200 })];
    expect(texts(cells)).toEqual(["Revenue", "1,204"]);
    const fonts = [...line("Bold"), ...line("plain", { x: 95, font: "Times-Italic" })];
    expect(texts(fonts)).toEqual(["Bold", "plain"]);
    const lines = [...line("first"), ...line("second", { baseline: 114 })];
    expect(texts(lines)).toEqual(["first", "second"]);
  });

  it("keeps the letters of a ligature together (they share its box)", () => {
    const word = line("ficient");
    const [f, i] = word;
    word[1] = { ...i!, left: f!.left, right: f!.right };
    expect(texts(word)).toEqual(["ficient"]);
  });

  it("drops a space PDFium inferred at a footnote mark that touches its word", () => {
    const word = line("Karpukhin");
    const last = word[word.length - 1]!;
    const mark: PageChar = {
      ...last,
      char: "∗",
      left: last.right,
      right: last.right + 3,
      baseline: 96,
      top: 96 - 5,
      bottom: 96 + 2,
      fontSize: 7,
      before: "inferred-space",
    };
    const comma: PageChar = { ...last, char: ",", left: last.right, right: last.right + 2.5, before: "inferred-space" };
    const runs = toRuns([...word, mark, comma]).runs;
    expect(runs.map((r) => r.text).join("")).toBe("Karpukhin∗,");
  });

  it("keeps a space PDFium inferred between two words of one line", () => {
    const [first, second] = [line("of"), line("the", { x: 84 })];
    second[0] = { ...second[0]!, before: "inferred-space" };
    expect(texts([...first, ...second])).toEqual(["of the"]);
  });

  it("puts an accent drawn after its line over its letter, and a mark between letters at its place", () => {
    const word = line("Jegou");
    const e = word[1]!;
    const acute: PageChar = { ...e, char: "´", before: "inferred-space" };
    const code = line("a^b");
    const caret = code[1]!;
    expect(texts([...word, acute])).toEqual(["Jégou"]);
    expect(texts([code[0]!, code[2]!, caret])).toEqual(["a^b"]);
  });

  it("sends text at an angle to `rotated`", () => {
    const stamp = line("arXiv").map((c) => ({ ...c, horizontal: false }));
    const { runs, rotated } = toRuns(stamp);
    expect(runs).toEqual([]);
    expect(rotated.map((r) => r.text)).toEqual(["arXiv"]);
  });
});
