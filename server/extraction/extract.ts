import { contextBlock, fitContext } from "../answers/prompt";
import { retrieveForLevel, type ThinkingLevel } from "../answers/retrieval-plan";
import { db } from "../db";
import { requireChatModel } from "../model-providers/resolve";
import type { ChatModel } from "../providers/chat";
import { withModelUsage } from "../providers/usage";
import type { RetrievedChunk } from "../retrieval/types";
import { resolveSourceScope } from "../retrieval/service";
import { checkOutputSchema } from "../answers/output-schema";
import { generateStructured } from "../providers/chat/structured";

/**
 * POST /run-extraction (contract §5.14): the named sources' text, given whole when it fits the model's window and
 * otherwise the passages retrieval finds for the instruction, turned into one JSON object against the caller's
 * schema. There is no model-free extraction: without a chat model the request is refused, never answered with an
 * invented object.
 */

const SYSTEM =
  "You extract information from documents into one JSON object that follows the given JSON Schema. Use only what " +
  "the numbered document passages say. Where they say nothing for a field, use null if the field allows it, " +
  "otherwise an empty value of its type.";

/** Chunks read whole before falling back to retrieval (more than any listed model's window holds anyway). */
const MAX_WHOLE_CHUNKS = 400;

type ChunkRow = {
  id: string;
  chunkSetId: string;
  sourceId: string;
  text: string;
  title: string;
  heading: string;
  pageNumber: number | null;
  position: number;
  elementIds: string[];
  metadata: unknown;
  source: { fileName: string };
};

const toChunk = (row: ChunkRow): RetrievedChunk => ({
  chunkId: row.id,
  chunkSetId: row.chunkSetId,
  sourceId: row.sourceId,
  fileName: row.source.fileName,
  text: row.text,
  title: row.title,
  heading: row.heading,
  pageNumber: row.pageNumber,
  position: row.position,
  elementIds: row.elementIds,
  metadata: (row.metadata ?? {}) as Record<string, unknown>,
  score: 1,
  scores: { similarity: null, keyword: null, rerank: null },
});

/** The sources' searchable chunks in reading order, or null when there are more than fit whole. */
const wholeText = async (projectId: string, sourceIds: string[], model: ChatModel) => {
  const rows = await db.chunk.findMany({
    where: {
      projectId,
      sourceId: { in: sourceIds },
      nodeIndexId: null,
      chunkSet: { status: "ready", ownerKind: "source_build" },
    },
    orderBy: [{ sourceId: "asc" }, { position: "asc" }],
    take: MAX_WHOLE_CHUNKS + 1,
    include: { source: { select: { fileName: true } } },
  });
  const order = new Map(sourceIds.map((id, i) => [id, i]));
  const chunks = rows
    .map(toChunk)
    .sort((a, b) => order.get(a.sourceId)! - order.get(b.sourceId)! || a.position - b.position);
  if (chunks.length > MAX_WHOLE_CHUNKS) return null;
  return fitContext(chunks, model.contextTokens).length === chunks.length ? chunks : null;
};

const schemaTerms = (schema: Record<string, unknown>): string[] => {
  const out: string[] = [];
  const walk = (node: Record<string, unknown>, name?: string) => {
    if (name) out.push(name.replace(/[_-]+/g, " "));
    if (typeof node.description === "string") out.push(node.description);
    for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>))
      walk(child, key);
    if (node.items) walk(node.items as Record<string, unknown>);
  };
  walk(schema);
  return out;
};

/** What an extraction found; POST /run-extraction's snake_case answer is public-api/v1/answers/mappers.ts's. */
export type Extraction = Awaited<ReturnType<typeof extract>>;

type ExtractionInput = Parameters<typeof extract>[0];

/** Every model call an extraction makes is recorded as the project's `extraction`. */
export const runExtraction = (input: ExtractionInput) =>
  withModelUsage({ projectId: input.projectId, cause: "extraction" }, () => extract(input));

const extract = async (input: {
  projectId: string;
  fileIds?: string[];
  fileNames?: string[];
  userInstruction: string;
  outputSchema: unknown;
  thinkingLevel?: ThinkingLevel;
  signal?: AbortSignal;
}) => {
  const schema = checkOutputSchema(input.outputSchema);
  const model = await requireChatModel(input.projectId, "Extraction");
  const sourceIds = (await resolveSourceScope(input))!;
  const sources = await db.source.findMany({
    where: { projectId: input.projectId, id: { in: sourceIds } },
    select: { id: true, fileName: true },
  });

  let chunks = await wholeText(input.projectId, sourceIds, model);
  if (!chunks) {
    const query = [input.userInstruction, ...schemaTerms(schema)].join(" ");
    const found = await retrieveForLevel({
      level: input.thinkingLevel ?? "accurate",
      model: null, // the instruction plus the schema's field names already say what to look for
      projectId: input.projectId,
      query,
      sourceIds,
      signal: input.signal,
    });
    chunks = fitContext(found.chunks, model.contextTokens);
  }
  const result = await generateStructured({
    model,
    schema,
    signal: input.signal,
    messages: [
      { role: "system", content: SYSTEM },
      {
        role: "user",
        content: `Instruction: ${input.userInstruction}\n\nDocument passages:\n\n${contextBlock(chunks)}`,
      },
    ],
  });
  const byId = new Map(sources.map((s) => [s.id, s.fileName]));
  return {
    sourceIds,
    fileNames: sourceIds.map((id) => byId.get(id)!),
    structuredOutput: result.output,
    rawJson: result.rawJson,
    model: result.model,
    usage: result.usage,
  };
};
