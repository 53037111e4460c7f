import type { GraphData, GraphEntity, SearchHit } from "./types";

/**
 * Search hits drawn on top of the view's top N entities: each one placed beside the drawn entities it relates to (or
 * its community's, or at the edge of the drawing), with its relationships to drawn entities.
 */

/** An added hit keeps its community, which the view may not have loaded. */
export type AddedEntity = GraphEntity & { community: SearchHit["community"] };
export type Added = { entities: AddedEntity[]; relationships: GraphData["relationships"] };
export const NOTHING_ADDED: Added = { entities: [], relationships: [] };

const centre = (points: { x: number; y: number }[]) => ({
  x: points.reduce((sum, p) => sum + p.x, 0) / points.length,
  y: points.reduce((sum, p) => sum + p.y, 0) / points.length,
});

/** Where a hit goes: the middle of its drawn neighbours, nudged off it; else its community's; else right of it all. */
const place = (hit: SearchHit, drawn: GraphEntity[]) => {
  const byId = new Map(drawn.map((e) => [e.id, e]));
  const neighbours = hit.relationships.flatMap((r) => byId.get(r.source === hit.id ? r.target : r.source) ?? []);
  const community = drawn.filter((e) => hit.communityId && e.communityId === hit.communityId);
  const near = neighbours.length ? neighbours : community;
  if (near.length) {
    const c = centre(near);
    return { x: c.x + 0.7, y: c.y + 0.7 };
  }
  return { x: Math.max(0, ...drawn.map((e) => e.x)) + 2, y: 0 };
};

/** `added` with `hit` drawn too, and the relationships that tie it to what is drawn. */
export const addHit = (added: Added, hit: SearchHit, data: GraphData): Added => {
  const drawn = [...data.entities, ...added.entities];
  if (drawn.some((e) => e.id === hit.id)) return added;
  const ids = new Set([...drawn.map((e) => e.id), hit.id]);
  const entity: AddedEntity = {
    id: hit.id,
    name: hit.name,
    type: hit.type,
    description: hit.description,
    degree: hit.degree,
    mentions: hit.mentions,
    communityId: hit.communityId,
    community: hit.community,
    ...place(hit, drawn),
  };
  const relationships = hit.relationships.filter((r) => ids.has(r.source) && ids.has(r.target));
  return { entities: [...added.entities, entity], relationships: [...added.relationships, ...relationships] };
};

/** The graph to draw: the server's top N and the added hits. */
export const withAdded = (data: GraphData, added: Added): GraphData =>
  added.entities.length
    ? {
        ...data,
        entities: [...data.entities, ...added.entities],
        relationships: [...data.relationships, ...added.relationships],
      }
    : data;
