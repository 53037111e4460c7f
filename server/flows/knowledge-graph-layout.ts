/**
 * Positions for the knowledge-graph view, computed here so the page needs no layout library (graphology's layout
 * packages are not installed): each community is a disc of its entities — the most connected in the middle, the rest
 * on a sunflower spiral — and the discs sit on a spiral of their own, largest first. Deterministic: the same graph
 * draws the same way every time.
 */

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));
/** Distance between neighbouring entities inside a disc, and the gap between discs. */
const STEP = 1;
const GAP = 2;

export type Placed = { x: number; y: number };

const spiral = (i: number, spacing: number): Placed => {
  const r = spacing * Math.sqrt(i);
  const a = i * GOLDEN_ANGLE;
  return { x: r * Math.cos(a), y: r * Math.sin(a) };
};

const discRadius = (size: number) => STEP * Math.sqrt(Math.max(1, size)) + 0.5;

/**
 * `groups` are the entity ids of each community, each list ordered by importance (first: middle of the disc);
 * entities without a community come as a group of their own. Returns a position for every id.
 */
export const layoutGroups = (groups: string[][]): Map<string, Placed> => {
  const out = new Map<string, Placed>();
  const ordered = groups.filter((g) => g.length).sort((a, b) => b.length - a.length);
  // Disc centres: a spiral whose spacing fits the largest disc, so discs never overlap.
  const spacing = 2 * (ordered.length ? discRadius(ordered[0]!.length) : 1) + GAP;
  ordered.forEach((group, g) => {
    const centre = spiral(g, spacing);
    group.forEach((id, i) => {
      const p = spiral(i, STEP);
      out.set(id, { x: round(centre.x + p.x), y: round(centre.y + p.y) });
    });
  });
  return out;
};

const round = (n: number) => Math.round(n * 1000) / 1000;
