/**
 * A colour per community, in the order the community list shows them; entities without a community are grey.
 * Tailwind's 600 shades: legible on the light and the dark canvas.
 */
const PALETTE = [
  "#2563eb",
  "#dc2626",
  "#059669",
  "#d97706",
  "#7c3aed",
  "#db2777",
  "#0891b2",
  "#65a30d",
  "#ea580c",
  "#4f46e5",
  "#0d9488",
  "#c026d3",
];
export const NO_COMMUNITY = "#94a3b8";

export const communityColours = (communityIds: string[]) =>
  new Map(communityIds.map((id, i) => [id, PALETTE[i % PALETTE.length]!]));

/** A stable index for an id: the same community gets the same colour wherever it is drawn. */
const indexOf = (id: string) => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % PALETTE.length;

/**
 * An entity's colour: its community's, grey only when it has none. A community not in the list (an entity added from
 * a search beside the drawn ones) still gets a community colour, from its id, so it never reads as "no community".
 */
export const colourOf = (colours: Map<string, string>, communityId: string | null | undefined) =>
  communityId ? (colours.get(communityId) ?? PALETTE[indexOf(communityId)]!) : NO_COMMUNITY;
