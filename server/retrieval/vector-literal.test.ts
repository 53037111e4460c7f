import { describe, expect, it } from "vitest";
import { toVectorLiteral } from "./embedding-index";

/** What pgvector does with each component: strtof, i.e. the nearest single-precision value. */
const asStored = (text: string) => Math.fround(Number(text));

describe("toVectorLiteral", () => {
  it("writes every component so that pgvector stores the same single-precision value", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const vector = Array.from({ length: 2000 }, (_, i) => random() * 10 ** -(i % 12));
    const parts = toVectorLiteral(vector).slice(1, -1).split(",");
    expect(parts).toHaveLength(vector.length);
    parts.forEach((part, i) => expect(asStored(part)).toBe(Math.fround(vector[i]!)));
  });

  it("keeps nine significant digits at most and writes zero (and what is not a number) as 0", () => {
    expect(toVectorLiteral([0, -0, NaN, Infinity, 0.1, -1 / 3, 1e-7])).toBe(
      "[0,0,0,0,0.100000001,-0.333333343,1.00000001e-7]",
    );
  });
});
