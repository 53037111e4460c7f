import { splitSentences } from "@/server/chunking/sentences";
import { neutraliseBrackets } from "@/server/answers/citations";
import { stem } from "@/server/providers/embedding/stem";
import { STOPWORDS } from "@/server/enrichment/stopwords";
import type { RetrievedChunk } from "@/server/retrieval/types";

/**
 * The local answerer as it was before issue 26 (item 4), kept only so bench/answers.ts prints before and after in
 * one run on one index. Nothing in the product imports it; delete it with the bench line once the figures are
 * settled. It quoted sentences split from the chunk's text (so a chunk cut could leave a fragment), numbered markers
 * by retrieval rank, and said "found nothing" when no single sentence covered 30% of the question's term weight.
 */

const NOTHING_FOUND = "I could not find an answer to this in the selected sources.";

/** Share of the question's term weight a sentence must cover to be worth quoting. */
const MIN_COVERAGE = 0.3;
const MAX_SENTENCES = 4;
const MAX_ANSWER_CHARS = 900;
const MAX_SENTENCE_CHARS = 400;
/** How much a sentence's overlap with those already picked counts against it (maximal marginal relevance). */
const REDUNDANCY_WEIGHT = 0.6;
/*
 * Chosen on SciFact train claims (half of them; the other half confirmed it), answering from a BM25 top 10 over the
 * whole corpus: citation precision 24.1% -> 43.5% and claims answered with a relevant document cited 58.4% -> 54.2%,
 * at 1.6 citations per answer instead of 3.0. Quoting a lower-ranked chunk because one sentence shares more words
 * with the question was the main source of wrong citations.
 */
/** Chunks read: the best ones; lower ones rarely hold a better sentence. */
const MAX_CHUNKS = 5;
/** Weight of the chunk's retrieval score (in [0, 1]) next to the sentence's term coverage. */
const SCORE_WEIGHT = 0.4;
/** A further sentence is quoted only when it scores at least this share of the best one. */
const MIN_RELATIVE = 0.85;

const contentTerms = (text: string): string[] =>
  (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((w) => (w.length > 1 || /\d/.test(w)) && !STOPWORDS.has(w))
    .map(stem);

type Candidate = { sentence: string; chunkIndex: number; terms: Set<string>; order: number };

const jaccard = (a: Set<string>, b: Set<string>) => {
  let both = 0;
  for (const t of a) if (b.has(t)) both++;
  return both / (a.size + b.size - both || 1);
};

type ExtractiveAnswer = { answer: string; cited: number[]; coverage: number };

export const extractiveAnswerBefore = (question: string, chunks: RetrievedChunk[]): ExtractiveAnswer => {
  const queryTerms = [...new Set(contentTerms(question))];
  const candidates: Candidate[] = [];
  chunks.slice(0, MAX_CHUNKS).forEach((chunk, i) => {
    for (const sentence of splitSentences(chunk.text)) {
      if (sentence.length < 12 || sentence.length > MAX_SENTENCE_CHARS) continue;
      candidates.push({
        sentence,
        chunkIndex: i + 1,
        terms: new Set(contentTerms(sentence)),
        order: candidates.length,
      });
    }
  });
  if (!queryTerms.length || !candidates.length) return { answer: NOTHING_FOUND, cited: [], coverage: 0 };

  // A term found in few candidate sentences says more about which one answers (idf over the candidates); a term
  // found in none weighs the most, since an answer would have to contain it.
  const weight = new Map(
    queryTerms.map((t) => {
      const df = candidates.filter((c) => c.terms.has(t)).length;
      return [t, Math.log(1 + candidates.length / Math.max(df, 1))];
    }),
  );
  const total = [...weight.values()].reduce((sum, w) => sum + w, 0);
  const coverage = (c: Candidate) =>
    queryTerms.reduce((sum, t) => sum + (c.terms.has(t) ? weight.get(t)! : 0), 0) / (total || 1);
  // A sentence of a chunk retrieval ranked higher is likelier to answer; a small nudge also breaks ties toward it.
  const relevance = (c: Candidate) =>
    coverage(c) + 0.02 / c.chunkIndex + SCORE_WEIGHT * (chunks[c.chunkIndex - 1]?.score ?? 0);

  const ranked = candidates
    .map((c) => ({ c, score: relevance(c), cover: coverage(c) }))
    .sort((a, b) => b.score - a.score);
  const best = ranked[0]!;
  const bestCover = Math.max(...ranked.map((r) => r.cover));
  if (bestCover < MIN_COVERAGE) return { answer: NOTHING_FOUND, cited: [], coverage: bestCover };

  const picked: Candidate[] = [];
  let length = 0;
  const pool = ranked.filter((r) => r.cover >= MIN_COVERAGE / 2 && r.score >= MIN_RELATIVE * best.score);
  while (picked.length < MAX_SENTENCES && pool.length) {
    let top = 0;
    let topScore = -Infinity;
    pool.forEach((r, i) => {
      const redundancy = Math.max(0, ...picked.map((p) => jaccard(p.terms, r.c.terms)));
      const score = r.score - REDUNDANCY_WEIGHT * redundancy;
      if (score > topScore) {
        top = i;
        topScore = score;
      }
    });
    const { c } = pool.splice(top, 1)[0]!;
    if (picked.some((p) => jaccard(p.terms, c.terms) > 0.8)) continue;
    if (picked.length && length + c.sentence.length > MAX_ANSWER_CHARS) break;
    picked.push(c);
    length += c.sentence.length;
  }
  // Read in document order within the answer: by chunk rank, then position in the chunk.
  picked.sort((a, b) => a.chunkIndex - b.chunkIndex || a.order - b.order);
  const answer = picked
    .map((p) => `${neutraliseBrackets(p.sentence.replace(/\s+/g, " ").trim())} [${p.chunkIndex}]`)
    .join(" ");
  return { answer, cited: [...new Set(picked.map((p) => p.chunkIndex))], coverage: bestCover };
};
