import { randomUUID } from "node:crypto";
import { modelCallRecorder, withModelUsage } from "../providers/usage";
import { db } from "../db";
import { errorMessage } from "../errors";
import { annotateDocument } from "./steps/enrich";
import { ENRICHMENT_WARNING_PREFIX, type EnrichedPage } from "../enrichment/enrich";
import { embeddingInput } from "../chunk-sets/service";
import { logger } from "../logger";
import type { InternalMethod } from "../parsing/methods.schema";
import { partitionIsolatedInBatches } from "../parsing/isolated";
import type { ParsedElement } from "../parsing/types";
import { getEmbedder } from "../providers/embedding";
import { getSpeechModel } from "../providers/speech";
import { getVisionModel } from "../providers/vision";
import { ensureEmbeddingIndex } from "../retrieval/embedding-index";
import { refreshChunkStatistics } from "../retrieval/keyword-query";
import { chunkRows } from "../chunk-sets/rows";
import { chunkOffThread } from "../chunking/off-thread";
import { embedTexts } from "../providers/embedding/embed-texts";
import { PIPELINE_CHUNKING } from "./steps/chunk";
import { EMBED_BATCH } from "./steps/embed";
import { PARSE_LIMITS } from "./limits";
import { CHUNK_INSERT_BATCH, insertChunks } from "../chunk-sets/insert";
import { insertElements, toElementRow, type ElementRow } from "./element-rows";
import type { BuildWithSource } from "./build-context";
import { uploadParseInput } from "./steps/partition";
import { stepReached } from "./step-progress";
import { withinBudget } from "./step-budget";

/**
 * A small upload's whole build (parse, enrich, chunk, embed, index, finalize) inside the job's "load" step. Each job
 * step is an HTTP round trip to the app's own serve route, and each database statement costs about 2 ms of CPU
 * (client and embedded Postgres): for a one-page text those cost more than the document's own work. So the
 * document is parsed, enriched, chunked and embedded in memory, and everything is written in ONE transaction at the
 * end: a crash or a retry before it leaves nothing behind, and the retry (or the resumed run) simply does it all
 * again. Until that transaction the build shows Processing at step "load"; then Completed.
 * Larger documents keep one step per part, each writing its results, so a crash during embedding does not parse a
 * large file again.
 */

/** Parses the stored upload in a parse worker (same limits and isolation as any upload); elements stay in memory. */
export const parseSmallBuild = async (build: BuildWithSource) => {
  const elements: ParsedElement[] = [];
  const meta = await partitionIsolatedInBatches(
    uploadParseInput(build.source, build.method as InternalMethod),
    PARSE_LIMITS,
    async (batch) => {
      elements.push(...batch);
    },
    {
      onRestart: async () => {
        elements.length = 0;
      },
      providers: { vision: getVisionModel(), speech: getSpeechModel() },
      onModelCall: modelCallRecorder({ projectId: build.projectId, cause: "ingestion" }),
    },
  );
  return { elements, meta };
};

export type ParsedSmallBuild = Awaited<ReturnType<typeof parseSmallBuild>>;

/** Page annotations onto the element rows, as the enrich step's UPDATE writes them. */
const applyPages = (rows: ElementRow[], pages: EnrichedPage[]) => {
  for (const page of pages) {
    for (const row of rows.slice(page.first, page.last + 1)) {
      row.pageAnnotation = page.summary;
      row.pageKeywords = page.keywords;
      row.pageTopics = page.topics;
      row.metadata = { ...row.metadata, enrichment_model: page.model };
    }
  }
};

/** Enrichment in memory; never fails the build (a failure becomes a warning, as in the enrich step). */
const enrich = async (build: BuildWithSource, rows: ElementRow[]) => {
  if (build.enrichment !== "full") return { documentAnnotation: undefined, warnings: [] };
  try {
    const result = await annotateDocument({
      fileName: build.source.fileName,
      elements: rows.map((r) => ({
        position: r.position,
        type: r.elementType,
        text: r.text,
        pageNumber: r.pageNumber,
      })),
    });
    applyPages(rows, result.pages);
    return { documentAnnotation: result.documentAnnotation, warnings: result.warnings };
  } catch (error) {
    logger.error({ err: error, buildId: build.id }, "enrichment failed");
    return { documentAnnotation: undefined, warnings: [`${ENRICHMENT_WARNING_PREFIX} failed: ${errorMessage(error)}`] };
  }
};

/** Chunks and their vectors in memory; a batch the provider refuses is counted, not fatal, unless all are. */
const chunkAndEmbed = async (build: BuildWithSource, rows: ElementRow[], chunkSetId: string) => {
  const options = { ...PIPELINE_CHUNKING, elementsToRemove: [...PIPELINE_CHUNKING.elementsToRemove] };
  const chunks = await chunkOffThread({
    elements: rows.map((r) => ({
      type: r.elementType as ParsedElement["type"],
      text: r.text,
      html: r.html,
      pageNumber: r.pageNumber,
    })),
    options,
  });
  const base = { projectId: build.projectId, sourceId: build.sourceId, chunkSetId, buildId: build.id };
  const data = chunkRows({ rows, chunks, fileName: build.source.fileName, base }).map((row) => ({
    ...row,
    id: randomUUID(),
  }));
  const embedder = getEmbedder();
  const index = await ensureEmbeddingIndex(embedder);
  const vectors = new Map<string, number[]>();
  let failedBatches = 0;
  let lastError = "";
  for (let i = 0; i < data.length; i += EMBED_BATCH) {
    const batch = data.slice(i, i + EMBED_BATCH);
    try {
      const embedded = await embedTexts(embedder, batch.map(embeddingInput));
      batch.forEach((chunk, j) => vectors.set(chunk.id, embedded[j]!));
    } catch (error) {
      failedBatches += 1;
      lastError = errorMessage(error);
      logger.warn({ buildId: build.id, batch: i / EMBED_BATCH, err: error }, "embedding batch failed");
    }
  }
  if (data.length > 0 && vectors.size === 0) throw new Error(`Embedding failed for every batch: ${lastError}`);
  return { options, chunks: data, vectors, failedBatches, indexId: index.id };
};

/**
 * Enriches, chunks and embeds the parsed document, then writes it all in one transaction: the elements (enriched),
 * the chunk set (ready) with its chunks and vectors, the source's other chunk sets and older elements dropped, the
 * source and build Completed. A retry writes the same again in place of what an earlier attempt committed.
 */
export const finishSmallBuild = async (build: BuildWithSource, parsed: ParsedSmallBuild) => {
  const rows: ElementRow[] = parsed.elements.map(toElementRow(build.id));
  const scope = { projectId: build.projectId, sourceId: build.sourceId, buildId: build.id };
  const usage = (cause: "enrichment" | "ingestion") => ({ projectId: build.projectId, cause });
  const enriched = await withinBudget("enrich", () => withModelUsage(usage("enrichment"), () => enrich(build, rows)));
  const indexed = build.indexing !== "none";
  const chunkSetId = randomUUID();
  const chunked = indexed ? await withinBudget("embed", () =>
        withModelUsage(usage("ingestion"), () => chunkAndEmbed(build, rows, chunkSetId)),
      ) : null;
  const status = (chunked?.failedBatches ?? 0) > 0 ? "CompletedWithErrors" : "Completed";
  const chunkWrites = chunked
    ? [
        db.chunkSet.create({
          data: {
            id: chunkSetId,
            projectId: build.projectId,
            sourceId: build.sourceId,
            buildId: build.id,
            ownerKind: "source_build",
            config: chunked.options,
            status: "ready",
            chunkCount: chunked.chunks.length,
            embeddingIndexId: chunked.indexId,
          },
        }),
        ...Array.from({ length: Math.ceil(chunked.chunks.length / CHUNK_INSERT_BATCH) }, (_, i) =>
          insertChunks(chunked.chunks.slice(i * CHUNK_INSERT_BATCH, (i + 1) * CHUNK_INSERT_BATCH), {
            indexId: chunked.indexId,
            byId: chunked.vectors,
          }),
        ),
      ]
    : [];
  // What an earlier attempt of this build, or an older build, wrote (a source's first build, fresh, has none).
  const clear = build.fresh
    ? []
    : [
        // This build's elements from an earlier attempt, and older builds' (as finalizing drops them).
        db.element.deleteMany({ where: { sourceId: build.sourceId } }),
        // Every source-build chunk set of the source (an earlier attempt's, the searchable one of an older build).
        db.chunkSet.deleteMany({ where: { sourceId: build.sourceId, ownerKind: "source_build" } }),
      ];
  await db.$transaction([
    ...clear,
    insertElements(scope, rows),
    ...chunkWrites,
    db.source.update({
      where: { id: build.sourceId },
      data: { status: "Completed", method: build.method, indexedBuildId: indexed ? build.id : null },
    }),
    db.build.update({
      where: { id: build.id },
      data: {
        totalPartitions: rows.length,
        totalPages: parsed.meta.totalPages,
        pageMethods: parsed.meta.pageMethods ?? undefined,
        warnings: [...parsed.meta.warnings, ...enriched.warnings],
        documentAnnotation: enriched.documentAnnotation,
        ...(chunked ? { failedBatchesCount: chunked.failedBatches, embeddingIndexId: chunked.indexId } : {}),
        status,
        ...stepReached("finalize"),
        finishedAt: new Date(),
        error: null,
      },
    }),
  ]);
  await refreshChunkStatistics(chunked?.chunks.length ?? 0);
  return { status };
};
