import { resolveChatModel } from "../model-providers/resolve";
import { ZERO_USAGE, type ChatUsage, type FinishReason } from "../providers/chat";
import type { RetrievedChunk } from "../retrieval/types";
import { MarkerFilter, resolveCitations } from "./citations";
import type { Citation } from "./events.schema";
import { EXTRACTIVE_CHUNKS, EXTRACTIVE_MODEL, extractiveAnswer } from "./extractive";
import { answerMessages, fitContext, type HistoryTurn } from "./prompt";
import { loadSourceElements } from "./source-elements";

/**
 * One answer from retrieved chunks: by the chat model that serves `modelId` (else the project's default, else the configured one; model-providers/resolve.ts) when there is one, else by
 * the local extractive answerer. Streams through `onToken` when given (markers that point at nothing are held back
 * and dropped, so the streamed text equals the final answer) and reports each citation once through `onCitation`.
 * Used by the ask endpoint and the flow's llm/response nodes; it knows nothing about HTTP.
 */

export type GenerateAnswerInput = {
  question: string;
  /** The chunks' project: the local answerer reads their source elements for sentence boundaries. */
  projectId?: string;
  /** Numbered [1]..[n] in this order for the model. */
  chunks: RetrievedChunk[];
  history?: HistoryTurn[];
  systemPrompt?: string | null;
  modelId?: string | null;
  temperature?: number;
  maxTokens?: number;
  onToken?: (text: string) => void;
  onCitation?: (citation: Citation) => void;
  signal?: AbortSignal;
};

export type GeneratedAnswer = {
  /** With `[N]` markers, each pointing at `chunks[N-1]`. */
  answer: string;
  citations: Citation[];
  /** The model id that answered, or `quarry-extractive`. */
  model: string;
  usage: ChatUsage;
  finishReason: FinishReason;
  /**
   * The chunks the answerer saw (those that fit the model's window); the local answerer hands them back reordered,
   * cited ones first in the order it cites them, so its markers read [1], [2], … with no gaps.
   */
  chunks: RetrievedChunk[];
};

const streamed = (input: GenerateAnswerInput, chunks: RetrievedChunk[]) => {
  const filter = new MarkerFilter(chunks);
  return {
    push: (delta: string) => {
      const { text, cited } = filter.push(delta);
      if (text) input.onToken?.(text);
      const resolved = resolveCitations(cited.map((n) => `[${n}]`).join(""), chunks).citations;
      resolved.forEach((c) => input.onCitation?.(c));
    },
    end: () => {
      const rest = filter.flush();
      if (rest) input.onToken?.(rest);
    },
  };
};

export const generateAnswer = async (input: GenerateAnswerInput): Promise<GeneratedAnswer> => {
  const model = await resolveChatModel(input.projectId, input.modelId);
  if (!model) {
    const read = input.chunks.slice(0, EXTRACTIVE_CHUNKS);
    const elements = input.projectId ? await loadSourceElements(input.projectId, read) : undefined;
    const { answer, chunks } = extractiveAnswer(input.question, input.chunks, elements);
    if (input.onToken || input.onCitation) {
      const out = streamed(input, chunks);
      // One sentence (with its marker) per token: the local answerer has no finer grain.
      for (const piece of answer.match(/[^\]]*\]\s?|[^\]]+$/g) ?? [answer]) out.push(piece);
      out.end();
    }
    return {
      ...resolveCitations(answer, chunks),
      model: EXTRACTIVE_MODEL,
      usage: ZERO_USAGE,
      finishReason: "stop",
      chunks,
    };
  }

  const chunks = fitContext(input.chunks, model.contextTokens);
  const options = {
    messages: answerMessages({ ...input, chunks }),
    temperature: input.temperature ?? 0,
    maxTokens: input.maxTokens,
    signal: input.signal,
  };
  if (!input.onToken && !input.onCitation) {
    const result = await model.generate(options);
    return {
      ...resolveCitations(result.text, chunks),
      model: result.model,
      usage: result.usage,
      finishReason: result.finishReason,
      chunks,
    };
  }
  const out = streamed(input, chunks);
  let text = "";
  let usage = ZERO_USAGE;
  let finishReason: FinishReason = "other";
  let answeredBy = model.id;
  for await (const part of model.stream(options)) {
    if (part.type === "text") {
      text += part.text;
      out.push(part.text);
    } else ({ usage, finishReason, model: answeredBy } = part);
  }
  out.end();
  return { ...resolveCitations(text, chunks), model: answeredBy, usage, finishReason, chunks };
};
