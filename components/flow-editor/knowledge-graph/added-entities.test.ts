import { describe, expect, it } from "vitest";
import { addHit, NOTHING_ADDED, withAdded } from "./added-entities";
import type { GraphData, SearchHit } from "./types";

const entity = (id: string, x: number, y: number, communityId: string | null = null) => ({
  id,
  name: id.toUpperCase(),
  type: "person",
  description: "",
  degree: 1,
  mentions: 1,
  communityId,
  x,
  y,
});

const data = {
  entities: [entity("a", 0, 0, "c1"), entity("b", 4, 0, "c1"), entity("c", 10, 10, "c2")],
  relationships: [{ source: "a", target: "b", weight: 1, description: "" }],
  communities: [],
} as unknown as GraphData;

const hit = (id: string, relatedTo: string[], communityId: string | null = null) =>
  ({
    ...entity(id, 0, 0, communityId),
    community: null,
    match: "name",
    relationships: relatedTo.map((other) => ({ source: other, target: id, weight: 2, description: "knows" })),
  }) as unknown as SearchHit;

describe("a search hit added to the drawn graph", () => {
  it("goes between the drawn entities it relates to, with only its relationships to drawn entities", () => {
    const added = addHit(NOTHING_ADDED, hit("z", ["a", "b", "not-drawn"]), data);
    expect(added.entities).toMatchObject([{ id: "z", x: 2.7, y: 0.7 }]);
    expect(added.relationships.map((r) => r.source)).toEqual(["a", "b"]);
    const drawn = withAdded(data, added);
    expect(drawn.entities.map((e) => e.id)).toEqual(["a", "b", "c", "z"]);
    expect(drawn.relationships).toHaveLength(3);
  });

  it("without drawn neighbours, goes beside its community, else right of everything", () => {
    expect(addHit(NOTHING_ADDED, hit("y", [], "c2"), data).entities[0]).toMatchObject({ x: 10.7, y: 10.7 });
    expect(addHit(NOTHING_ADDED, hit("x", []), data).entities[0]).toMatchObject({ x: 12, y: 0 });
  });

  it("ties a later hit to one added before it, and adds nothing twice", () => {
    const first = addHit(NOTHING_ADDED, hit("z", ["a"]), data);
    const second = addHit(first, hit("w", ["z"]), data);
    expect(second.relationships.map((r) => `${r.source}-${r.target}`)).toEqual(["a-z", "z-w"]);
    expect(addHit(second, hit("a", []), data)).toBe(second);
    expect(addHit(second, hit("z", ["b"]), data)).toBe(second);
  });
});
