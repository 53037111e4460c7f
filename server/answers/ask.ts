import { logger } from "../logger";
import { requireChatModel, resolveChatModel } from "../model-providers/resolve";
import { addUsage } from "../providers/chat";
import { withModelUsage } from "../providers/usage";
import { resolveSourceScope } from "../retrieval/service";
import { pageScreenshot } from "../sources/screenshot";
import { generateStructured } from "../providers/chat/structured";
import { checkOutputSchema } from "./output-schema";
import { resolveCitations } from "./citations";
import { conversationHistory, openConversation, recordTurn } from "./conversations";
import type { Answer, AnswerProgress, Citation } from "./events.schema";
import { generateAnswer } from "./generate";
import { standaloneQuery } from "./planning";
import { answerMessages } from "./prompt";
import { retrieveForLevel, type ThinkingLevel } from "./retrieval-plan";

/**
 * POST /ask-sources (contract §5.13) as a plain function: the REST route, streaming or not, and the dashboard call
 * it. It answers with an Answer (./events.schema.ts); the wire's snake_case response is built by
 * public-api/v1/answers/mappers.ts.
 */

export type { Answer };

export type AskInput = {
  projectId: string;
  question: string;
  conversationId?: string | null;
  reset?: boolean;
  fileIds?: string[];
  fileNames?: string[];
  outputSchema?: unknown;
  thinkingLevel?: ThinkingLevel;
  includeCitationImages?: boolean;
  includeCitationMarkup?: boolean;
  /** Streaming: tokens and citations as they come (the caller sends `done`/`error`). */
  onEvent?: (event: AnswerProgress) => void;
  signal?: AbortSignal;
};

export const STRUCTURED_ANSWER = "Structured output generated";
const STRUCTURED_INSTRUCTION =
  "Answer the question from the numbered context passages as one JSON object that follows the schema. Use only " +
  "what the passages say; use null where they say nothing.";

/** The page image of a citation, when its source has pages to draw (PDF, images, Office); null otherwise. */
const citationImage = async (projectId: string, citation: Citation) => {
  if (!citation.fileId || citation.pageNumber === null) return null;
  try {
    const shot = await pageScreenshot({ projectId, fileId: citation.fileId, pageNumber: citation.pageNumber });
    return Buffer.from(shot.png).toString("base64");
  } catch (error) {
    logger.debug({ err: error, fileId: citation.fileId }, "no page image for citation");
    return null;
  }
};

/**
 * Everything that can refuse the request (schema rules, a missing model, sources not in the project) runs here,
 * before an answer starts; a streamed answer can then still fail with a status instead of an `error` event.
 */
export const prepareAsk = async (input: AskInput) => {
  const started = performance.now();
  const schema = input.outputSchema == null ? null : checkOutputSchema(input.outputSchema);
  // Only a structured answer needs a model; a plain one has the local answerer.
  const model = schema
    ? await requireChatModel(input.projectId, "output_schema")
    : await resolveChatModel(input.projectId);
  const sourceIds = await resolveSourceScope({
    projectId: input.projectId,
    fileIds: input.fileIds,
    fileNames: input.fileNames,
  });
  const conversation = await openConversation({
    projectId: input.projectId,
    conversationId: input.conversationId,
    reset: input.reset,
  });
  return { input, started, schema, model, sourceIds, conversation };
};

export type PreparedAsk = Awaited<ReturnType<typeof prepareAsk>>;

/** The answer, with every model call it makes (rewriting, retrieval, the answer) recorded as the project's `ask`. */
export const runAsk = (
  prepared: PreparedAsk,
  events?: { onEvent?: (event: AnswerProgress) => void; signal?: AbortSignal },
) => withModelUsage({ projectId: prepared.input.projectId, cause: "ask" }, () => answerQuestion(prepared, events));

const answerQuestion = async (
  { input: request, started, schema, model, sourceIds, conversation }: PreparedAsk,
  events?: { onEvent?: (event: AnswerProgress) => void; signal?: AbortSignal },
): Promise<Answer> => {
  const input = { ...request, ...events };
  const history = await conversationHistory({ projectId: input.projectId, conversationRowId: conversation.id });

  const standalone = await standaloneQuery(model, input.question, history, input.signal);
  const retrieved = await retrieveForLevel({
    level: input.thinkingLevel ?? "accurate",
    model,
    projectId: input.projectId,
    query: standalone.value,
    sourceIds,
    signal: input.signal,
  });

  let answer: string;
  let citations: Citation[] = [];
  let structured: Record<string, unknown> | null = null;
  let rawJson: string | null = null;
  let usage = retrieved.usage;
  let answeredBy: string;
  /** What the conversation remembers: plain `[N]` markers, or the structured JSON. */
  let remembered: string;
  if (schema && model) {
    const messages = answerMessages({
      question: input.question,
      chunks: retrieved.chunks,
      history,
      systemPrompt: STRUCTURED_INSTRUCTION,
    });
    const result = await generateStructured({ model, schema, messages, signal: input.signal });
    ({ output: structured, rawJson } = result);
    usage = addUsage(usage, result.usage);
    answeredBy = result.model;
    answer = STRUCTURED_ANSWER;
    remembered = rawJson;
  } else {
    const result = await generateAnswer({
      question: input.question,
      projectId: input.projectId,
      chunks: retrieved.chunks,
      history,
      signal: input.signal,
      onToken: input.onEvent ? (text) => input.onEvent!({ type: "token", text }) : undefined,
      onCitation: input.onEvent ? (citation) => input.onEvent!({ type: "citation", citation }) : undefined,
    });
    usage = addUsage(usage, result.usage);
    answeredBy = result.model;
    const final = resolveCitations(result.answer, result.chunks, { markup: input.includeCitationMarkup });
    answer = final.answer;
    remembered = result.answer;
    citations = final.citations;
  }
  if (input.includeCitationImages) {
    citations = await Promise.all(
      citations.map(async (c) => ({ ...c, imageBase64: await citationImage(input.projectId, c) })),
    );
  }

  await recordTurn({
    projectId: input.projectId,
    conversationRowId: conversation.id,
    question: input.question,
    answer: remembered,
    query: retrieved.searches.join(" | "),
    model: answeredBy,
    citations,
  });

  return {
    answer,
    conversationId: conversation.externalId,
    citations,
    structuredOutput: schema ? structured : null,
    rawJson: schema ? rawJson : null,
    elapsedSeconds: Math.round((performance.now() - started) / 10) / 100,
    usage,
    memoryUsage: standalone.usage,
    model: answeredBy,
  };
};

export const askSources = async (input: AskInput): Promise<Answer> =>
  runAsk(await prepareAsk(input), { onEvent: input.onEvent, signal: input.signal });
