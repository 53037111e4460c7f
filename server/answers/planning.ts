import { z } from "zod";
import type { ChatModel, ChatUsage } from "../providers/chat";
import { ZERO_USAGE } from "../providers/chat";
import type { RetrievedChunk } from "../retrieval/types";
import { contentTerms } from "./extractive";
import { contextBlock, type HistoryTurn } from "./prompt";

/**
 * The small model calls around retrieval: a follow-up rewritten into a standalone query, a question split into
 * several searches (accurate, max), and the check that the retrieved context suffices (max). Each has a local,
 * model-free counterpart so the thinking levels change the effort without a model too. A failed or malformed model
 * reply falls back to the local answer: these steps improve retrieval, they never fail an ask.
 */

type Planned<T> = { value: T; usage: ChatUsage };

const askJson = async <T>(
  model: ChatModel,
  system: string,
  user: string,
  schema: z.ZodType<T>,
  signal?: AbortSignal,
): Promise<Planned<T> | null> => {
  try {
    const result = await model.generate({
      messages: [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
      responseFormat: { type: "json" },
      maxTokens: 300,
      signal,
    });
    const parsed = schema.safeParse(JSON.parse(result.text));
    return parsed.success ? { value: parsed.data, usage: result.usage } : null;
  } catch (error) {
    if (signal?.aborted) throw error;
    return null;
  }
};

export const REWRITE_SYSTEM =
  "Rewrite the user's last question into one standalone search query that can be understood without the " +
  'conversation. Reply with JSON: {"query": "..."}.';

/** Terms a follow-up lacks are taken from the previous question when it is short (local counterpart). */
const localFollowUp = (question: string, history: HistoryTurn[]) => {
  const previous = [...history].reverse().find((h) => h.role === "user")?.content;
  if (!previous || contentTerms(question).length >= 5) return question;
  return `${question} ${previous}`;
};

export const standaloneQuery = async (
  model: ChatModel | null,
  question: string,
  history: HistoryTurn[],
  signal?: AbortSignal,
): Promise<Planned<string>> => {
  if (!history.length) return { value: question, usage: ZERO_USAGE };
  if (!model) return { value: localFollowUp(question, history), usage: ZERO_USAGE };
  const transcript = history.map((h) => `${h.role}: ${h.content}`).join("\n");
  const planned = await askJson(
    model,
    REWRITE_SYSTEM,
    `Conversation:\n${transcript}\n\nLast question: ${question}`,
    z.object({ query: z.string().trim().min(1).max(1000) }),
    signal,
  );
  return planned
    ? { value: planned.value.query, usage: planned.usage }
    : { value: localFollowUp(question, history), usage: ZERO_USAGE };
};

export const EXPAND_SYSTEM =
  "Write up to 3 different search queries that together find what is needed to answer the question (for example " +
  'one per part of a compound question). Reply with JSON: {"queries": ["...", "..."]}.';

/** Local counterpart: the question as asked and its content words alone (a keyword-only reading). */
const localQueries = (question: string) => {
  const keywords = (question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => contentTerms(w).length);
  return [...new Set([question, keywords.join(" ")])].filter((q) => q.trim());
};

export const searchQueries = async (
  model: ChatModel | null,
  query: string,
  signal?: AbortSignal,
): Promise<Planned<string[]>> => {
  if (!model) return { value: localQueries(query), usage: ZERO_USAGE };
  const planned = await askJson(
    model,
    EXPAND_SYSTEM,
    `Question: ${query}`,
    z.object({ queries: z.array(z.string().trim().min(1).max(1000)).min(1) }),
    signal,
  );
  if (!planned) return { value: localQueries(query), usage: ZERO_USAGE };
  return { value: [...new Set([query, ...planned.value.queries.slice(0, 3)])], usage: planned.usage };
};

export const SUFFICIENCY_SYSTEM =
  "Decide whether the numbered context passages hold enough to answer the question. Reply with JSON: " +
  '{"sufficient": true} or {"sufficient": false, "query": "<a search query for what is missing>"}.';

/** Local counterpart: question terms none of the passages contain are what is missing. */
const localSufficiency = (query: string, chunks: RetrievedChunk[]) => {
  const present = new Set(chunks.flatMap((c) => contentTerms(c.text)));
  const words = (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => contentTerms(w).length);
  const missing = words.filter((w) => !present.has(contentTerms(w)[0]!));
  return missing.length ? { sufficient: false, query: missing.join(" ") } : { sufficient: true, query: null };
};

export const checkSufficiency = async (
  model: ChatModel | null,
  query: string,
  chunks: RetrievedChunk[],
  signal?: AbortSignal,
): Promise<Planned<{ sufficient: boolean; query: string | null }>> => {
  if (!model) return { value: localSufficiency(query, chunks), usage: ZERO_USAGE };
  const planned = await askJson(
    model,
    SUFFICIENCY_SYSTEM,
    `Context passages:\n\n${contextBlock(chunks.slice(0, 10))}\n\nQuestion: ${query}`,
    z.object({ sufficient: z.boolean(), query: z.string().trim().max(1000).nullish() }),
    signal,
  );
  if (!planned) return { value: localSufficiency(query, chunks), usage: ZERO_USAGE };
  return { value: { sufficient: planned.value.sufficient, query: planned.value.query || null }, usage: planned.usage };
};
