import type { ChatMessage } from "../providers/chat";
import type { RetrievedChunk } from "../retrieval/types";
import { neutraliseBrackets } from "./citations";

/** What the chat model is told. Pure, so the flow's llm node builds the same context. */

export const DEFAULT_SYSTEM_PROMPT =
  "You answer questions using only the numbered context passages you are given. After every sentence that uses a " +
  "passage, cite it with its number in square brackets, e.g. [2]; cite several as [1][3]. Never cite a number that " +
  "is not in the context. If the context does not contain the answer, say that you could not find it in the " +
  "selected sources. Answer in the language of the question.";

export type HistoryTurn = { role: "user" | "assistant"; content: string };

/** Characters of context sent when the model's window is unknown (~8k tokens, which every listed model takes). */
const DEFAULT_CONTEXT_CHARS = 24_000;

/** The chunks that fit the model's window, best first; the numbers of the kept ones do not change. */
export const fitContext = (chunks: RetrievedChunk[], contextTokens: number | null) => {
  // Roughly 3.5 characters per token, half the window for context (the rest: prompt, history, answer).
  const budget = contextTokens ? Math.max(4_000, Math.floor(contextTokens * 3.5 * 0.5)) : DEFAULT_CONTEXT_CHARS;
  const kept: RetrievedChunk[] = [];
  let used = 0;
  for (const chunk of chunks) {
    if (kept.length && used + chunk.text.length > budget) break;
    kept.push(chunk);
    used += chunk.text.length;
  }
  return kept;
};

/**
 * The numbered passages. A passage's own bracketed numbers (literature references) are shown as `(2)`: a model that
 * copies a sentence must not carry a `[2]` of the source into its answer, where it would cite passage 2.
 */
export const contextBlock = (chunks: RetrievedChunk[]) =>
  chunks
    .map((c, i) => {
      const where = [c.fileName, c.pageNumber !== null ? `page ${c.pageNumber}` : null].filter(Boolean).join(", ");
      return `[${i + 1}] (${where})\n${neutraliseBrackets(c.text.trim())}`;
    })
    .join("\n\n");

export const answerMessages = ({
  question,
  chunks,
  history = [],
  systemPrompt,
}: {
  question: string;
  chunks: RetrievedChunk[];
  history?: HistoryTurn[];
  systemPrompt?: string | null;
}): ChatMessage[] => [
  { role: "system", content: systemPrompt?.trim() || DEFAULT_SYSTEM_PROMPT },
  ...history.map((h) => ({ role: h.role, content: h.content })),
  {
    role: "user",
    content: chunks.length
      ? `Context passages:\n\n${contextBlock(chunks)}\n\nQuestion: ${question}`
      : `There are no context passages.\n\nQuestion: ${question}`,
  },
];
