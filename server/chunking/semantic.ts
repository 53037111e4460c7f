import type { Embedder } from "../providers/embedding/types";
import { splitSentences } from "./sentences";
import { defaultSeparators, splitText, tailOf } from "./text-splitter";
import type { Chunk } from "./types";
import { groupUnits, isTitle, makeChunk, type Settings, type Unit } from "./units";

/**
 * Semantic splitting: the text breaks where consecutive sentences drift apart in the embedder's space, at every
 * distance above a percentile of the document's distances. A stretch still longer than the size is cut where, within the size, the drift is largest, with the
 * overlap repeated across such forced cuts only (a topic break needs no repeat). Pages are never mixed, as with the
 * other splitters, and no break follows a heading when another place will do.
 */

/** Distances above this percentile of the document's neighbour distances are topic breaks. */
export const BREAKPOINT_PERCENTILE = 95;
/** Sentences on each side of a boundary compared as one block. */
const BLOCK = 2;
const EMBED_BATCH = 64;
/** Bounds the embedding work: past this many sentences, text is packed by size alone. */
const MAX_EMBEDDED_SENTENCES = 20_000;
/** A topic segment shorter than this (or a quarter of the chunk size) is merged into a neighbour. */
const MIN_SEGMENT = 100;
/** Kept whole as one "sentence" (split only when longer than the size). */
const WHOLE_TYPES = new Set(["Table", "CodeSnippet", "Formula"]);

type Sentence = {
  text: string;
  unit: Unit;
  /** Cosine distance of this sentence's window to the next one's; -Infinity where no break may be. */
  distance: number;
};

const cosine = (a: number[], b: number[]): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
};

/** The p-th percentile with linear interpolation between ranks (numpy's default). */
export const percentile = (values: number[], p: number): number => {
  if (values.length === 0) return Infinity;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (rank - low);
};

const sentencesOf = (unit: Unit, settings: Settings): Sentence[] => {
  const raw = WHOLE_TYPES.has(unit.element.type) ? [unit.text] : splitSentences(unit.text);
  return raw.flatMap((text) => {
    const pieces =
      settings.length(text) <= settings.chunkSize
        ? [text]
        : splitText({
            text,
            chunkSize: settings.chunkSize,
            chunkOverlap: 0,
            length: settings.length,
            separators: defaultSeparators(settings.chunkSeparator),
          });
    return pieces.map((piece) => ({ text: piece, unit, distance: 0 }));
  });
};

/**
 * Fills each sentence's distance to the next: the cosine distance between the block of sentences that ends with it
 * and the block that follows (TextTiling's block comparison). Blocks of two sentences smooth out one odd sentence
 * without blurring the boundary, which single sentences or sliding windows do with lexical embedders.
 */
const measureDistances = async (sentences: Sentence[], embedder: Embedder) => {
  const measured = sentences.slice(0, MAX_EMBEDDED_SENTENCES);
  if (measured.length < 2) return;
  const block = (from: number, to: number) =>
    measured
      .slice(Math.max(0, from), Math.min(measured.length, to + 1))
      .map((s) => s.text)
      .join(" ");
  const pairs = measured.slice(0, -1).map((_, i) => [block(i - BLOCK + 1, i), block(i + 1, i + BLOCK)] as const);
  // The block after one boundary is the block before another: each text is embedded once.
  const texts = [...new Set(pairs.flat())];
  const vectors = new Map<string, number[]>();
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    const batch = texts.slice(i, i + EMBED_BATCH);
    const embedded = await embedder.embed(batch);
    batch.forEach((text, j) => vectors.set(text, embedded[j] ?? []));
  }
  pairs.forEach(([before, after], i) => {
    (measured[i] as Sentence).distance = 1 - cosine(vectors.get(before) ?? [], vectors.get(after) ?? []);
  });
};

const joinerBetween = (a: Unit, b: Unit, settings: Settings) => (a === b ? " " : settings.chunkSeparator);

const joinSentences = (parts: { text: string; unit: Unit }[], settings: Settings) =>
  parts.map((p, i) => (i === 0 ? p.text : joinerBetween(parts[i - 1]!.unit, p.unit, settings) + p.text)).join("");

/** Packs one topic segment (no break above the threshold inside) into chunks of at most the size. */
const packSegment = (segment: Sentence[], settings: Settings, sentenceCount: Map<Unit, number>): Chunk[] => {
  const { chunkSize, chunkOverlap, length } = settings;
  const chunks: Chunk[] = [];
  let previous: { text: string; unit: Unit } | null = null;
  let start = 0;
  while (start < segment.length) {
    const first = segment[start] as Sentence;
    // After a forced cut the chunk opens with the end of the previous one, if room is left for its first sentence.
    let lead: { text: string; unit: Unit } | null = null;
    let total = 0;
    if (previous && chunkOverlap > 0) {
      const joiner = length(joinerBetween(previous.unit, first.unit, settings));
      const text = tailOf(previous.text, Math.min(chunkOverlap, chunkSize - length(first.text) - joiner), length);
      if (text) {
        lead = { text, unit: previous.unit };
        total = length(text) + joiner;
      }
    }
    // Every end position that keeps the chunk within the size, with the length reached there.
    const fits: { end: number; total: number }[] = [];
    for (let k = start; k < segment.length; k++) {
      const s = segment[k] as Sentence;
      const add = length(s.text) + (k > start ? length(joinerBetween(segment[k - 1]!.unit, s.unit, settings)) : 0);
      if (k > start && total + add > chunkSize) break;
      total += add;
      fits.push({ end: k, total });
    }
    let end = fits[fits.length - 1]?.end ?? start;
    if (end < segment.length - 1) {
      // Forced cut: where the drift is largest, among ends that fill at least half the chunk.
      const full = fits.filter((f) => f.total >= chunkSize / 2);
      const candidates = full.length > 0 ? full : fits;
      let best = candidates[candidates.length - 1]!;
      for (const c of candidates) if (segment[c.end]!.distance > segment[best.end]!.distance) best = c;
      end = best.end;
    }
    const parts = segment.slice(start, end + 1);
    const units = [...new Set(parts.map((p) => p.unit))];
    const split = units.some((u) => parts.filter((p) => p.unit === u).length < (sentenceCount.get(u) ?? 0));
    const body = joinSentences(parts, settings);
    const text = lead ? joinSentences([lead, { text: body, unit: first.unit }], settings) : body;
    const chunkUnits = lead && !units.includes(lead.unit) ? [lead.unit, ...units] : units;
    chunks.push(makeChunk(chunkUnits, text, settings, null, split));
    previous = { text: body, unit: parts[parts.length - 1]!.unit };
    start = end + 1;
  }
  return chunks;
};

/**
 * A segment too small to stand alone (a page number, a stray caption between two breaks) joins the segment
 * before it, or the one after when it comes first; packing cuts the result to size if needed.
 */
const mergeSmall = (segments: Sentence[][], settings: Settings): Sentence[][] => {
  const minimum = Math.min(MIN_SEGMENT, settings.chunkSize / 4);
  const size = (segment: Sentence[]) => segment.reduce((n, s) => n + settings.length(s.text) + 1, 0);
  const out: Sentence[][] = [];
  for (const segment of segments) {
    const previous = out[out.length - 1];
    if (previous && (size(segment) < minimum || size(previous) < minimum)) previous.push(...segment);
    else out.push([...segment]);
  }
  return out;
};

export const semanticChunks = async ({
  units,
  settings,
  embedder,
}: {
  units: Unit[];
  settings: Settings;
  embedder: Embedder;
}): Promise<Chunk[]> => {
  const groups = groupUnits(units, false).map((g) => g.units.flatMap((u) => sentencesOf(u, settings)));
  const all = groups.flat();
  await measureDistances(all, embedder);
  const sentenceCount = new Map<Unit, number>();
  for (const s of all) sentenceCount.set(s.unit, (sentenceCount.get(s.unit) ?? 0) + 1);
  // No break inside a heading's sentence run, nor at a group's end (groups break anyway).
  for (const group of groups) {
    group.forEach((s, i) => {
      if (isTitle(s.unit) || i === group.length - 1) s.distance = -Infinity;
    });
  }
  const threshold = percentile(
    all.map((s) => s.distance).filter((d) => d > -Infinity),
    BREAKPOINT_PERCENTILE,
  );
  return groups.flatMap((group) => {
    const segments: Sentence[][] = [];
    let current: Sentence[] = [];
    for (const s of group) {
      current.push(s);
      if (s.distance > threshold) {
        segments.push(current);
        current = [];
      }
    }
    if (current.length > 0) segments.push(current);
    return mergeSmall(segments, settings).flatMap((segment) => packSegment(segment, settings, sentenceCount));
  });
};
