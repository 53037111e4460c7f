import type { ElementType, ParsedElement } from "../types";
import { FURNITURE } from "./break-joins";

/**
 * A slide's agenda sets its items as large as headings ("1. Short intro", "2. Advantages", "3. Future"). Three or
 * more headings in a row, nothing but page furniture between them, numbered one after another at one level ("1.",
 * "2.", "3." or "a)", "b)", "c)"), are the items of a numbered list: section headings have their sections' text
 * between them, and subsections are numbered at two levels ("2.1").
 */

const ORDINAL_RE = /^(\d{1,2}|[a-z])[.)][ \t]+\S/i;
const MIN_RUN = 3;

const ordinalOf = (e: ParsedElement): number | null => {
  if (e.type !== "Title") return null;
  const marker = ORDINAL_RE.exec(e.text)?.[1];
  if (!marker) return null;
  return /\d/.test(marker) ? Number(marker) : marker.toLowerCase().charCodeAt(0) - 96;
};

export const numberedHeadingRunsAsItems = (elements: readonly ParsedElement[]): ParsedElement[] => {
  const out = [...elements];
  let run: number[] = [];
  const close = () => {
    if (run.length >= MIN_RUN) for (const i of run) out[i] = { ...(out[i] as ParsedElement), type: "ListItem" };
    run = [];
  };
  elements.forEach((e, i) => {
    if (FURNITURE.has(e.type)) return;
    const n = ordinalOf(e);
    const last = run[run.length - 1];
    const previous = last === undefined ? null : ordinalOf(elements[last] as ParsedElement);
    if (n !== null && previous !== null && n === previous + 1) {
      run.push(i);
      return;
    }
    close();
    if (n !== null) run.push(i);
  });
  close();
  return out;
};

/**
 * A list numbered at several levels ("1.1 Install the service", "1.2 Configure the database", "1.2.1 …"): three or
 * more elements in a row, nothing but page furniture between them, each opening with a dotted number that follows
 * the one before in an outline (the next at its level, its first child, or the next after a parent), are the items
 * of a numbered list. Sections numbered so have their text between their headings; a contents list's entries end in
 * page numbers, after dot leaders or not. Items numbered at the first level ("1.", "2.") between them are the
 * outline's parents ("1." → "1.1" → "1.2" → "2."): a list whose subitems wrap read as paragraphs otherwise.
 */

const DOTTED_RE = /^(\d{1,2}(?:\.\d{1,2})+)\.?[ \t]+\S/;
const NUMBERED_TYPES: ReadonlySet<ElementType> = new Set(["Title", "NarrativeText", "UncategorizedText", "ListItem"]);

/** An item already read as one, numbered at the outline's first level ("1.", "2)"): the parent of "1.1". */
const TOP_ITEM_RE = /^(\d{1,2})[.)][ \t]+\S/;

const dottedOf = (e: ParsedElement): number[] | null => {
  if (!NUMBERED_TYPES.has(e.type)) return null;
  const marker = DOTTED_RE.exec(e.text)?.[1];
  if (marker) return marker.split(".").map(Number);
  const top = e.type === "ListItem" ? TOP_ITEM_RE.exec(e.text)?.[1] : undefined;
  return top ? [Number(top)] : null;
};

/** `next` follows `prev` in an outline: 1.1 → 1.2, 1.1 → 1.1.1, 1.1.2 → 1.2. */
const follows = (prev: number[], next: number[]): boolean => {
  if (next.length === prev.length + 1) return prev.every((n, i) => n === next[i]) && next.at(-1) === 1;
  if (next.length > prev.length) return false;
  const head = next.slice(0, -1);
  return head.every((n, i) => n === prev[i]) && next.at(-1) === (prev[next.length - 1] ?? 0) + 1;
};

/** A heading numbered at the first level ("3. Prices and payment", "3 Prices"): the number its clauses go on from. */
const HEADING_NUMBER_RE = /^(\d{1,2})[.)]?[ \t]+\p{L}/u;

/**
 * Two paragraphs numbered "3.1" and "3.2" right under the heading "3. Prices and payment": a section's numbered
 * clauses (terms and conditions), though fewer than a run's three. Subsections so numbered are headings themselves.
 */
const clausesUnderHeading = (elements: readonly ParsedElement[], run: number[]): boolean => {
  const [first] = run;
  if (first === undefined || run.length < 2 || run.some((i) => elements[i]?.type === "Title")) return false;
  let p = first - 1;
  while (p >= 0 && FURNITURE.has((elements[p] as ParsedElement).type)) p--;
  const heading = elements[p];
  const number = heading?.type === "Title" ? HEADING_NUMBER_RE.exec(heading.text)?.[1] : undefined;
  const clause = dottedOf(elements[first] as ParsedElement);
  return number !== undefined && clause?.length === 2 && clause[0] === Number(number) && clause[1] === 1;
};

const CLAUSE_TYPES: ReadonlySet<ElementType> = new Set(["NarrativeText", "UncategorizedText", "ListItem"]);
const TEXT_TYPES: ReadonlySet<ElementType> = new Set(["NarrativeText", "UncategorizedText"]);

/** The next element after `i` that is not page furniture. */
const nextContent = (elements: readonly ParsedElement[], i: number): ParsedElement | undefined =>
  elements.find((e, j) => j > i && !FURNITURE.has(e.type));

/** Two elements start at one left edge and are set at one size. */
const alignedWith = (a: ParsedElement, b: ParsedElement): boolean =>
  !!a.boundingBox &&
  !!b.boundingBox &&
  Math.abs(a.boundingBox.left - b.boundingBox.left) <= 1 &&
  a.metadata?.font_size === b.metadata?.font_size;

/** The box of a clause and its rest under it on its page. */
const spanned = (a: ParsedElement, b: ParsedElement) => {
  const [x, y] = [a.boundingBox, b.boundingBox];
  if (!x || !y || a.pageNumber !== b.pageNumber) return x;
  const right = Math.max(x.left + x.width, y.left + y.width);
  return { ...x, width: right - x.left, height: Math.max(x.height, y.top + y.height - x.top) };
};

/**
 * A clause set without a hanging indent wraps its lines back to its number's edge, so a line there after one that
 * ends a sentence reads as a paragraph of its own ("2.2 A booking is confirmed … tracking number." / "Until then we
 * may decline a booking …"). Text without a number between a clause ending a sentence and the one that follows it
 * in the outline ("2.2" and "2.3"), at the clause's left edge and size, is the clause's rest: the list goes on after
 * it. Items numbered at the first level ("1. Ouverture de la séance") and items without a sentence's end head the
 * text under them, as a meeting's minutes set their agenda.
 */
const joinClauseRests = (elements: readonly ParsedElement[]): ParsedElement[] => {
  const out: ParsedElement[] = [];
  let clause = -1;
  elements.forEach((e, i) => {
    const open = out[clause];
    const ended = !!open && CLAUSE_TYPES.has(open.type) && /[.!?]["”’)]?$/.test(open.text.trim());
    const n = open && ended && TEXT_TYPES.has(e.type) && !dottedOf(e) && alignedWith(open, e) ? dottedOf(open) : null;
    const next = n && n.length >= 2 ? nextContent(elements, i) : undefined;
    const after = next && CLAUSE_TYPES.has(next.type) ? dottedOf(next) : null;
    if (open && n && after && after.length >= 2 && follows(n, after)) {
      out[clause] = { ...open, text: `${open.text.trim()} ${e.text.trim()}`, boundingBox: spanned(open, e) };
      return;
    }
    if (!FURNITURE.has(e.type)) clause = out.length;
    out.push(e);
  });
  return out;
};

export const dottedRunsAsItems = (input: readonly ParsedElement[]): ParsedElement[] => {
  const elements = joinClauseRests(input);
  const out = [...elements];
  let run: number[] = [];
  const close = () => {
    const entries = run.filter((i) => /\d$/.test(elements[i]?.text.trim() ?? "")).length;
    // Items numbered "1." count in the run among paragraphs and items; among headings ("1.1 Background", "1.2
    // Scope") only the dotted numbers do, so a paragraph opening "2." does not make the headings a list.
    const headings = run.some((i) => elements[i]?.type === "Title");
    const counted = headings ? run.filter((i) => (dottedOf(elements[i] as ParsedElement)?.length ?? 0) > 1) : run;
    if ((counted.length >= MIN_RUN || clausesUnderHeading(elements, run)) && entries < run.length) {
      for (const i of run) out[i] = { ...(out[i] as ParsedElement), type: "ListItem" };
    }
    run = [];
  };
  elements.forEach((e, i) => {
    if (FURNITURE.has(e.type)) return;
    const n = dottedOf(e);
    const last = run[run.length - 1];
    const previous = last === undefined ? null : dottedOf(elements[last] as ParsedElement);
    if (n && previous && follows(previous, n)) {
      run.push(i);
      return;
    }
    close();
    if (n) run.push(i);
  });
  close();
  return out;
};
