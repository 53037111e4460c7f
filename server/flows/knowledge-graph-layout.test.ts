import { describe, expect, it } from "vitest";
import { excerpt } from "./knowledge-graph-excerpt";
import { layoutGroups } from "./knowledge-graph-layout";

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const dist = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);

describe("layoutGroups", () => {
  it("places every entity once, the first of a group in its middle, and is deterministic", () => {
    const groups = [ids("a", 30), ids("b", 5), ["lonely"]];
    const placed = layoutGroups(groups);
    expect(placed.size).toBe(36);
    expect(placed.get("a0")).toEqual({ x: 0, y: 0 });
    expect(layoutGroups(groups)).toEqual(placed);
    const points = [...placed.values()].map((p) => `${p.x},${p.y}`);
    expect(new Set(points).size).toBe(points.length);
  });

  it("keeps communities apart: every entity is nearer its own centre than any other group's", () => {
    const groups = [ids("a", 40), ids("b", 12), ids("c", 12), ids("d", 3)];
    const placed = layoutGroups(groups);
    const centre = (g: string[]) => placed.get(g[0]!)!;
    for (const g of groups)
      for (const id of g) {
        const own = dist(placed.get(id)!, centre(g));
        for (const other of groups.filter((o) => o !== g))
          expect(own).toBeLessThan(dist(placed.get(id)!, centre(other)));
      }
  });

  it("handles no entities", () => {
    expect(layoutGroups([]).size).toBe(0);
    expect(layoutGroups([[]]).size).toBe(0);
  });
});

describe("excerpt", () => {
  it("shows a long passage around the entity's first mention, a short one whole", () => {
    const long = `${"a".repeat(1000)} Grace Hopper ${"b".repeat(1000)}`;
    const cut = excerpt(long, "grace hopper");
    expect(cut).toContain("Grace Hopper");
    expect(cut.startsWith("…") && cut.endsWith("…")).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(602);
    expect(excerpt(long, "Nobody").startsWith("aaa")).toBe(true);
    expect(excerpt("short", "x")).toBe("short");
  });
});
