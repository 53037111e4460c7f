import { describe, expect, it } from "vitest";
import type { Line, Run } from "./types";
import { unruledTable } from "./unruled-tables";

/** A line of runs at the given x positions (10 pt, about 5 points a character), as the layout hands them over. */
const line = (top: number, cells: [string, number][]): Line => {
  const runs: Run[] = cells.map(([text, left]) => ({
    text,
    left,
    right: left + 5 * text.length,
    top,
    bottom: top + 10,
    baseline: top + 8,
    fontSize: 10,
    fontName: "Times",
    mono: false,
  }));
  const segments = runs.map((r) => ({ ...r, runs: [r], row: top }));
  const text = cells.map(([t]) => t).join(" ");
  return {
    left: 72,
    right: 540,
    top,
    bottom: top + 10,
    text,
    segments,
    fontSize: 10,
    fontName: "Times",
    baseline: top + 8,
  };
};

describe("unruled tables and displayed equations", () => {
  it("reads lines lined up on an equals sign standing alone as equations, not a table", () => {
    const equations = [
      ["Pstart(s)", "softmax", "Ps wstart", "(3)"],
      ["Pend(t)", "softmax", "Pt wend", "(4)"],
      ["Psel(i)", "softmax", "Pi wsel", "(5)"],
    ].map(([left, fn, arg, n], i) =>
      line(100 + 14 * i, [
        [left ?? "", 120],
        ["=", 200],
        [fn ?? "", 220],
        [arg ?? "", 280],
        [n ?? "", 520],
      ]),
    );
    expect(unruledTable(equations)).toBeNull();
    // The same lines with figures in place of the signs are a table: the rule is the lone relation sign.
    const figures = equations.map((l, i) => ({
      ...l,
      segments: l.segments.map((s) =>
        s.text === "=" ? { ...s, text: String(i + 1), runs: [{ ...s.runs[0]!, text: String(i + 1) }] } : s,
      ),
    }));
    expect(unruledTable(figures)).not.toBeNull();
  });
});
