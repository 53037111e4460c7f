import { describe, expect, it } from "vitest";
import { colourOf, communityColours, NO_COMMUNITY } from "./colours";

describe("colourOf", () => {
  const colours = communityColours(["c1", "c2"]);

  it("gives a listed community its colour and an entity without one grey", () => {
    expect(colourOf(colours, "c2")).toBe(colours.get("c2"));
    expect(colourOf(colours, null)).toBe(NO_COMMUNITY);
  });

  it("gives a community that is not listed a community colour, the same each time", () => {
    const unlisted = colourOf(colours, "4f8a1c2e-unlisted");
    expect(unlisted).not.toBe(NO_COMMUNITY);
    expect(unlisted).toMatch(/^#[0-9a-f]{6}$/);
    expect(colourOf(new Map(), "4f8a1c2e-unlisted")).toBe(unlisted);
  });
});
