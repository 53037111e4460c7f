import { describe, expect, it } from "vitest";
import { decodeCtc, splitWords, type CtcChar } from "./ctc-words";

// Classes: blank, a, b, space.
const DICTIONARY = ["", "a", "b", " "];
const BLANK = 0;
const SPACE = 3;

/** One time step per entry: the best class and, on blank steps, the probability left for the space. */
const steps = (spec: readonly (number | [number, number])[]) => {
  const data: number[] = [];
  for (const s of spec) {
    const [best, space] = typeof s === "number" ? [s, 0] : s;
    const row = [0, 0, 0, 0];
    row[SPACE] = best === SPACE ? 0.9 : space;
    row[best] = best === SPACE ? 0.9 : 0.95 - space;
    data.push(...row);
  }
  return { data, count: spec.length };
};

const textOf = (words: CtcChar[][]) => words.map((w) => w.map((c) => c.text).join("")).join(" ");

/** Characters at the given first steps, each with the space evidence before it. */
const chars = (spec: readonly [string, number, number][]): CtcChar[] =>
  spec.map(([text, first, space]) => ({ text, first, last: first, prob: 0.9, space }));

describe("CTC decoding with step ranges", () => {
  it("keeps each character's first and last step and the space evidence before it", () => {
    const { data, count } = steps([1, 1, BLANK, 2, [BLANK, 0.3], SPACE, BLANK, 1, BLANK, 1]);
    const decoded = decodeCtc(data, count, 4, DICTIONARY);
    expect(decoded.map((c) => [c.text, c.first, c.last])).toEqual([
      ["a", 0, 1],
      ["b", 3, 3],
      ["a", 7, 7],
      ["a", 9, 9],
    ]);
    expect(decoded[0]?.space).toBe(0);
    expect(decoded[1]?.space).toBeLessThan(0.1);
    // A space read outright counts as certain; the blank run before it left 0.3.
    expect(decoded[2]?.space).toBe(1);
    expect(decoded[3]?.space).toBeLessThan(0.1);
    expect(decoded[0]?.prob).toBeCloseTo(0.95);
  });

  it("decodes nothing from blank steps", () => {
    const { data, count } = steps([BLANK, BLANK, SPACE, BLANK]);
    expect(decodeCtc(data, count, 4, DICTIONARY)).toEqual([]);
  });
});

describe("words from CTC characters", () => {
  it("splits where the space is (nearly) the model's choice", () => {
    const line = chars([
      ["a", 0, 0],
      ["b", 3, 0],
      ["a", 6, 0.6],
      ["b", 9, 0],
    ]);
    expect(textOf(splitWords(line))).toBe("ab ab");
  });

  it("splits on weaker space evidence only where the gap is wide for the line", () => {
    // Pitch 3 steps; a gap of 6 steps with a 0.2 chance of a space is a space, a gap of 3 with the same is not.
    const line = chars([
      ["a", 0, 0],
      ["b", 3, 0],
      ["a", 6, 0.2],
      ["b", 9, 0],
      ["a", 15, 0.2],
      ["b", 18, 0],
    ]);
    expect(textOf(splitWords(line))).toBe("abab ab");
    // The same gap without space evidence (wide letters, kerning) keeps the word whole.
    const wide = chars([
      ["a", 0, 0],
      ["b", 3, 0],
      ["a", 9, 0.01],
    ]);
    expect(textOf(splitWords(wide))).toBe("aba");
  });

  it("judges the gap relative to the line's own pitch, at any scale", () => {
    // The same line read at 1× and at 4× the time steps splits the same way.
    const at = (k: number) =>
      chars([
        ["a", 0, 0],
        ["b", 2 * k, 0],
        ["a", 4 * k, 0],
        ["b", 8 * k, 0.15],
        ["a", 10 * k, 0],
        ["b", 12 * k, 0.15],
      ]);
    expect(textOf(splitWords(at(1)))).toBe("aba bab");
    expect(textOf(splitWords(at(4)))).toBe("aba bab");
  });

  it("returns no words for no characters", () => {
    expect(splitWords([])).toEqual([]);
  });
});
