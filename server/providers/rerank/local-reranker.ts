import { normalizeForEmbedding } from "../../embedding/local-embedder";
import { stem } from "../../embedding/stem";
import type { Reranker, RerankPassage } from "./types";

/**
 * A model-free reranker, honest about what it is: no learned model, only signals a cross-encoder would also look at,
 * computed on each passage against the query:
 * - coverage: the share of the query's terms (weighted by how rare they are among the candidates) the passage holds;
 * - proximity: query terms close to each other in the passage (pairs within a window, closer counts more);
 * - phrases: the query's consecutive word pairs found in the passage in the same order;
 * - the first-stage (hybrid) score.
 * They are mixed by fixed weights, then a passage that mostly repeats a better one (overlapping chunks) is pushed down.
 * Weights were chosen on SciFact train (bench/retrieval.ts prints the effect).
 */

export const LOCAL_RERANK_MODEL = "quarry-proximity-v1";

const WEIGHTS = { first: 0.55, coverage: 0.25, proximity: 0.1, phrase: 0.1 };
/** Query terms further apart than this (in words) do not count as near. */
const WINDOW = 8;
/** Share of words two passages must have in common before the lower one is treated as a repeat. */
const REPEAT_OVERLAP = 0.6;
const REPEAT_PENALTY = 0.5;

const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it " +
    "its me my no nor not of on or our she so than that the their them then there these they this those to too us was " +
    "we were what when where which while who whom why will with would you your"
  ).split(" "),
);
const WORD_RE = /[\p{L}\p{N}]+/gu;

const terms = (text: string): string[] => {
  const out: string[] = [];
  for (const match of normalizeForEmbedding(text).matchAll(WORD_RE)) {
    const word = match[0];
    out.push(STOPWORDS.has(word) || word.length > 40 ? "" : stem(word)); // "" keeps positions for proximity
  }
  return out;
};

const saturate = (x: number) => x / (1 + x);

type Analysed = { positions: Map<string, number[]>; words: Set<string> };

const analyse = (text: string): Analysed => {
  const positions = new Map<string, number[]>();
  terms(text).forEach((t, i) => {
    if (!t) return;
    const list = positions.get(t);
    if (list) list.push(i);
    else positions.set(t, [i]);
  });
  return { positions, words: new Set(positions.keys()) };
};

/** Sum over pairs of distinct query terms of weight / distance², for their closest occurrences within the window. */
const proximityOf = (passage: Analysed, query: string[], weight: Map<string, number>) => {
  let sum = 0;
  for (let a = 0; a < query.length; a++) {
    const pa = passage.positions.get(query[a]!);
    if (!pa) continue;
    for (let b = a + 1; b < query.length; b++) {
      const pb = passage.positions.get(query[b]!);
      if (!pb) continue;
      let best = Infinity;
      for (const x of pa) for (const y of pb) best = Math.min(best, Math.abs(x - y));
      if (best <= WINDOW) sum += ((weight.get(query[a]!) ?? 0) * (weight.get(query[b]!) ?? 0)) / (best * best);
    }
  }
  return saturate(sum);
};

const phraseOf = (passage: Analysed, bigrams: [string, string][]) => {
  if (bigrams.length === 0) return 0;
  const found = bigrams.filter(([x, y]) =>
    (passage.positions.get(x) ?? []).some((p) => (passage.positions.get(y) ?? []).some((q) => q > p && q - p <= 2)),
  );
  return found.length / bigrams.length;
};

const overlap = (a: Set<string>, b: Set<string>) => {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared += 1;
  return shared / Math.max(1, Math.min(a.size, b.size));
};

export const rerankLocally = (query: string, passages: RerankPassage[]): number[] => {
  const queryTerms = terms(query);
  const distinct = [...new Set(queryTerms.filter(Boolean))];
  const analysed = passages.map((p) => analyse(p.text));
  // Rarity among the candidates: a term every candidate holds tells them apart no better than a stopword.
  const weight = new Map(
    distinct.map((t) => {
      const df = analysed.filter((a) => a.words.has(t)).length;
      return [t, Math.log(1 + (analysed.length + 1) / (df + 0.5))];
    }),
  );
  const totalWeight = distinct.reduce((s, t) => s + (weight.get(t) ?? 0), 0) || 1;
  const bigrams: [string, string][] = [];
  for (let i = 0; i + 1 < queryTerms.length; i++) {
    if (queryTerms[i] && queryTerms[i + 1]) bigrams.push([queryTerms[i]!, queryTerms[i + 1]!]);
  }
  const scores = analysed.map((a, i) => {
    const coverage = distinct.reduce((s, t) => s + (a.words.has(t) ? (weight.get(t) ?? 0) : 0), 0) / totalWeight;
    return (
      WEIGHTS.first * (passages[i]!.score ?? 0) +
      WEIGHTS.coverage * coverage +
      WEIGHTS.proximity * proximityOf(a, distinct, weight) +
      WEIGHTS.phrase * phraseOf(a, bigrams)
    );
  });
  // Repeats: walking from the best down, a passage sharing most of its words with a better one loses score.
  const order = scores.map((_, i) => i).sort((x, y) => scores[y]! - scores[x]!);
  const kept: number[] = [];
  const final = [...scores];
  for (const i of order) {
    const repeat = Math.max(0, ...kept.map((j) => overlap(analysed[i]!.words, analysed[j]!.words)));
    if (repeat >= REPEAT_OVERLAP) final[i] = scores[i]! * (1 - REPEAT_PENALTY * repeat);
    kept.push(i);
  }
  return final.map((s) => Math.min(1, Math.max(0, s)));
};

export const createLocalReranker = (): Reranker => ({
  kind: "local",
  model: LOCAL_RERANK_MODEL,
  rerank: async (query, passages) => rerankLocally(query, passages),
});
