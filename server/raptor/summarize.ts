import type { ChatModel } from "../providers/chat";
import type { Embedder } from "../providers/embedding";
import { centroid, cosine, normalize } from "./vectors";

/**
 * One cluster's summary: written by the chat model under a prompt that forbids adding anything, or, model-free, its
 * most central sentences verbatim. Either way no number reaches a summary unless it is in the cluster's text: a
 * model's sentence carrying a number the passages do not have is dropped (and with nothing left, the extractive
 * summary serves).
 */

/** Characters an extractive summary keeps, about what a model's summary of a cluster runs to. */
export const SUMMARY_CHARS = 700;
/** Passages' characters sent per call at most (a cluster of long chunks is cut, not sent whole). */
const MAX_PROMPT_CHARS = 24_000;
export const SUMMARY_MAX_TOKENS = 400;

export const SUMMARY_SYSTEM =
  "You summarise a cluster of passages for a retrieval tree. Write one dense paragraph (at most 120 words) that " +
  "covers the main facts shared by the passages. Use only what the passages state: do not add facts, names, " +
  "numbers, dates or conclusions that are not in them, and copy every number exactly as written. No preamble.";

export const summaryPrompt = (texts: string[]) => {
  const per = Math.floor(MAX_PROMPT_CHARS / Math.max(1, texts.length));
  const body = texts.map((t, i) => `[${i + 1}] ${t.slice(0, per).trim()}`).join("\n\n");
  return `Summarise these ${texts.length} passages:\n"""\n${body}\n"""`;
};

const SENTENCE_SPLIT = /(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'(])|\n+/u;
const NUMBER = /\d+(?:[.,:/-]\d+)*/g;

export const sentencesOf = (text: string) =>
  text
    .split(SENTENCE_SPLIT)
    .map((s) => s.replace(/\s+/g, " ").trim())
    .filter((s) => s.length >= 20);

/** The summary without its sentences that carry a number the passages do not contain. */
export const withoutInventedNumbers = (summary: string, texts: string[]) => {
  const known = new Set(texts.join(" ").match(NUMBER) ?? []);
  return summary
    .split(/(?<=[.!?])\s+/)
    .filter((s) => (s.match(NUMBER) ?? []).every((n) => known.has(n)))
    .join(" ")
    .trim();
};

/** The cluster's sentences closest to its centroid, in their reading order, up to SUMMARY_CHARS. */
export const extractiveSummary = async (texts: string[], vectors: number[][], embedder: Embedder) => {
  const sentences = [...new Set(texts.flatMap(sentencesOf))];
  if (sentences.length === 0) return texts.join(" ").replace(/\s+/g, " ").slice(0, SUMMARY_CHARS).trim();
  const center = centroid(vectors);
  const embedded = (await embedder.embed(sentences)).map(normalize);
  const ranked = sentences.map((s, i) => ({ s, i, score: cosine(embedded[i]!, center) }));
  ranked.sort((a, b) => b.score - a.score || a.i - b.i);
  const kept: typeof ranked = [];
  let chars = 0;
  for (const r of ranked) {
    if (kept.length && chars + r.s.length > SUMMARY_CHARS) continue;
    kept.push(r);
    chars += r.s.length + 1;
  }
  return kept
    .sort((a, b) => a.i - b.i)
    .map((r) => r.s)
    .join(" ")
    .slice(0, SUMMARY_CHARS * 2);
};

export const modelSummary = async (model: ChatModel, texts: string[]) => {
  const result = await model.generate({
    messages: [
      { role: "system", content: SUMMARY_SYSTEM },
      { role: "user", content: summaryPrompt(texts) },
    ],
    temperature: 0,
    maxTokens: SUMMARY_MAX_TOKENS,
    retries: 0,
  });
  return withoutInventedNumbers(result.text.replace(/\s+/g, " ").trim(), texts);
};

/** The summary of one cluster: the model's when there is one (the extractive one if it had nothing left). */
export const summarizeCluster = async (input: {
  texts: string[];
  vectors: number[][];
  model: ChatModel | null;
  embedder: Embedder;
}) => {
  if (input.model) {
    const text = await modelSummary(input.model, input.texts);
    if (text) return text;
  }
  return extractiveSummary(input.texts, input.vectors, input.embedder);
};
