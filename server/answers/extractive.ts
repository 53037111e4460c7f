import { neutraliseBrackets } from "./citations";
import { stem } from "../providers/embedding/stem";
import { STOPWORDS } from "../enrichment/stopwords";
import type { RetrievedChunk } from "../retrieval/types";
import { wholeSentences, type SourceElement } from "./whole-sentences";

/**
 * The local, model-free answerer (`quarry-extractive`): it writes no text of its own beyond a "found nothing"
 * sentence. It quotes whole sentences of the retrieved chunks (boundaries from the chunks' source elements, never
 * the chunk cut: whole-sentences.ts) and puts the `[N]` of the chunk a sentence came from after it, so every claim
 * can be checked against its source.
 *
 * - It abstains only when no document among the chunks it reads is about the question (its terms and phrases, and
 *   how far retrieval put it ahead of the others: `readChunks`); otherwise it answers, with the best sentence of the
 *   most relevant document at least.
 * - It prefers the fewest documents: the answer starts from one chunk, and a chunk of another document is quoted
 *   only for a good share of the question's terms that the chunks already chosen lack.
 * - Sentences of one chunk stay together in their document order, chunks in the order chosen, so the answer reads
 *   as a paragraph; markers are numbered 1..n in order of first use (the chunks are handed back in that order).
 * - A quoted sentence's own bracketed numbers (literature references like `[2]`) are written `(2)`: only the markers
 *   this answerer adds are citations.
 */

export const EXTRACTIVE_MODEL = "quarry-extractive";
export const NOTHING_FOUND = "I could not find an answer to this in the selected sources.";

/*
 * Calibrated on SciFact train claims only, `fast` retrieval (809 claims over their documents and 1,500 others; the
 * bench, bench/answers.ts, runs the first 200): answer wherever the top chunk is relevant, cite as precisely as the
 * context allows. Citation precision 60.4% -> 67.4%; "found nothing" where the top chunk is relevant 15.1% -> 1.8%.
 */
/** Chunks read: the best ones; lower ones rarely hold a better sentence. */
export const EXTRACTIVE_CHUNKS = 5;
/**
 * The relevance (`readChunks`) the best document needs for the answerer to answer at all. On the 809 claims: below
 * it for 1.8% of those whose top chunk is of a relevant document, and for 28% of those whose context holds none.
 */
const MIN_RELEVANCE = 0.45;
/** Weight of a chunk's lead in retrieval score over other documents, next to its shares of terms and phrases. */
const LEAD_WEIGHT = 0.5;
/**
 * Share of the question's terms a further chunk must add, that the chunks chosen so far lack, to be quoted too
 * (half of it for another chunk of a document already quoted). SciFact claims rarely need a second document:
 * precision 66.7% at 0.3, 67.4% at 0.4, 67.9% with never a second one.
 */
const MIN_NEW_COVERAGE = 0.4;
/**
 * A further sentence of a quoted chunk: at least this share of the best sentence's coverage, or half of it when it
 * holds question terms the answer lacks.
 */
const MIN_RELATIVE = 0.85;
const MAX_SENTENCES = 4;
const MAX_ANSWER_CHARS = 900;
const MIN_SENTENCE_CHARS = 12;
const MAX_SENTENCE_CHARS = 400;

export const contentTerms = (text: string): string[] =>
  (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((w) => (w.length > 1 || /\d/.test(w)) && !STOPWORDS.has(w))
    .map(stem);

/** Adjacent content terms: a question's phrases ("vitamin d", "breast cancer") found as phrases in a chunk. */
const pairs = (terms: string[]) => new Set(terms.slice(1).map((t, i) => `${terms[i]} ${t}`));

type Sentence = { text: string; terms: Set<string>; order: number };
type Read = {
  chunk: RetrievedChunk;
  terms: Set<string>;
  relevance: number;
  /** The best relevance among the chunks read of its document (a heading-only chunk vouches for its document). */
  ofDocument: number;
  sentences: Sentence[];
};

export type ExtractiveAnswer = {
  /** With `[N]` markers numbered 1..n in order of first use, each pointing at `chunks[N-1]`. */
  answer: string;
  /** The chunks given, reordered: the cited ones in the order first cited, then the others in their order. */
  chunks: RetrievedChunk[];
  /** The relevance of the best document with a quotable sentence (0 when there is none). */
  relevance: number;
};

const share = <T>(wanted: T[], held: Set<T>) =>
  wanted.length ? wanted.filter((x) => held.has(x)).length / wanted.length : 0;

/**
 * How much a chunk is about the question, from what it says and from retrieval: the share of the question's terms
 * it holds (its title and heading too), the share of the question's phrases it holds as phrases, and half its lead
 * in retrieval score over the best chunk of any other document (negative below it). The lead, not the score itself,
 * since what a score means depends on the search type and the embedding model.
 */
const readChunks = (question: string, chunks: RetrievedChunk[], elements: Map<string, SourceElement>): Read[] => {
  const asked = contentTerms(question);
  const askedTerms = [...new Set(asked)];
  const askedPairs = [...pairs(asked)];
  const read = chunks.slice(0, EXTRACTIVE_CHUNKS);
  const reads = read.map((chunk) => {
    const sources = chunk.elementIds.flatMap((id) => elements.get(id) ?? []);
    const sentences = wholeSentences(chunk.text, sources)
      .map((s) => s.replace(/\s+/g, " ").trim())
      .filter((s) => s.length >= MIN_SENTENCE_CHARS && s.length <= MAX_SENTENCE_CHARS)
      .map((text, order) => ({ text, order, terms: new Set(contentTerms(text)) }));
    const words = contentTerms(`${chunk.title}\n${chunk.heading}\n${chunk.text}`);
    const terms = new Set(words);
    const others = read.filter((c) => c.sourceId !== chunk.sourceId).map((c) => c.score);
    const lead = chunk.score - Math.max(0, ...others);
    const relevance = share(askedTerms, terms) + share(askedPairs, pairs(words)) + LEAD_WEIGHT * lead;
    return { chunk, terms, relevance, ofDocument: relevance, sentences };
  });
  for (const r of reads) {
    r.ofDocument = Math.max(...reads.filter((o) => o.chunk.sourceId === r.chunk.sourceId).map((o) => o.relevance));
  }
  return reads;
};

/**
 * The question's terms weighted by rarity among the candidate sentences (idf), to pick sentences within a chunk: a
 * term found in few says more about which one answers; a term found in none weighs the most.
 */
const termWeights = (question: string, reads: Read[]) => {
  const sentences = reads.flatMap((r) => r.sentences);
  const weights = new Map<string, number>();
  for (const t of new Set(contentTerms(question))) {
    const df = sentences.filter((s) => s.terms.has(t)).length;
    weights.set(t, Math.log(1 + sentences.length / Math.max(df, 1)));
  }
  const total = [...weights.values()].reduce((sum, w) => sum + w, 0) || 1;
  /** Share of the question's term weight that `terms` hold. */
  return (terms: Set<string>) => {
    let sum = 0;
    for (const [t, w] of weights) if (terms.has(t)) sum += w;
    return sum / total;
  };
};

type Pick = { read: Read; sentence: Sentence };

/** The sentences of one chunk worth quoting: its best one, and those nearly as good or adding question terms. */
const pickFrom = (read: Read, cover: (terms: Set<string>) => number, quoted: Set<string>): Sentence[] => {
  const scored = read.sentences.map((s) => ({ s, score: cover(s.terms) })).sort((a, b) => b.score - a.score);
  const best = scored[0];
  if (!best) return [];
  const picked = [best.s];
  const seen = new Set([...quoted, ...best.s.terms]);
  for (const { s, score } of scored.slice(1)) {
    const adds = [...s.terms].some((t) => !seen.has(t) && cover(new Set([t])) > 0);
    if (score < (adds ? 0.5 : MIN_RELATIVE) * best.score || score === 0) continue;
    picked.push(s);
    s.terms.forEach((t) => seen.add(t));
  }
  return picked;
};

/**
 * The sentences to quote, chunk by chunk: first from the most relevant chunk, then from a further relevant chunk
 * only when it holds enough of the question's terms that the chunks chosen so far lack (fewest documents).
 */
const choose = (question: string, reads: Read[]): Pick[] => {
  const cover = termWeights(question, reads);
  const askedTerms = [...new Set(contentTerms(question))];
  const ordered = reads
    .filter((r) => r.sentences.length)
    .sort((a, b) => b.ofDocument - a.ofDocument || b.relevance - a.relevance);
  const picks: Pick[] = [];
  const held = new Set<string>();
  const quoted = new Set<string>();
  const documents = new Set<string>();
  let length = 0;
  for (const read of ordered) {
    if (picks.length >= MAX_SENTENCES) break;
    const gain = askedTerms.filter((t) => !held.has(t) && read.terms.has(t)).length / (askedTerms.length || 1);
    const bar = documents.has(read.chunk.sourceId) ? MIN_NEW_COVERAGE / 2 : MIN_NEW_COVERAGE;
    if (picks.length && (gain < bar || read.ofDocument < MIN_RELEVANCE)) continue;
    for (const sentence of pickFrom(read, cover, quoted)) {
      if (picks.length >= MAX_SENTENCES || (picks.length && length + sentence.text.length > MAX_ANSWER_CHARS)) break;
      picks.push({ read, sentence });
      length += sentence.text.length;
      sentence.terms.forEach((t) => quoted.add(t));
    }
    read.terms.forEach((t) => held.add(t));
    documents.add(read.chunk.sourceId);
  }
  return picks;
};

export const extractiveAnswer = (
  question: string,
  chunks: RetrievedChunk[],
  elements: Map<string, SourceElement> = new Map(),
): ExtractiveAnswer => {
  const reads = readChunks(question, chunks, elements);
  const relevance = Math.max(0, ...reads.filter((r) => r.sentences.length).map((r) => r.ofDocument));
  const nothing = { answer: NOTHING_FOUND, chunks, relevance };
  if (relevance < MIN_RELEVANCE) return nothing;
  const picks = choose(question, reads);
  if (!picks.length) return nothing;

  // Chunks in the order chosen, each chunk's sentences in document order: the answer reads as a paragraph.
  const chosen = [...new Set(picks.map((p) => p.read))];
  const ordered = chosen.flatMap((read) =>
    picks
      .filter((p) => p.read === read)
      .sort((a, b) => a.sentence.order - b.sentence.order)
      .map((p) => ({ ...p, n: chosen.indexOf(read) + 1 })),
  );
  const answer = ordered.map((p) => `${neutraliseBrackets(p.sentence.text)} [${p.n}]`).join(" ");
  const cited = chosen.map((r) => r.chunk);
  return { answer, chunks: [...cited, ...chunks.filter((c) => !cited.includes(c))], relevance };
};
