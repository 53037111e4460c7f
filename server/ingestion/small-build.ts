import { randomUUID } from "node:crypto";
import { CHUNK_INSERT_BATCH, insertChunks } from "../chunk-sets/insert";
import { db } from "../db";
import { withModelUsage } from "../providers/usage";
import type { InternalMethod } from "../parsing/methods.schema";
import type { ParsedElement } from "../parsing/types";
import { refreshChunkStatistics } from "../retrieval/keyword-query";
import type { BuildWithSource } from "./build-context";
import { insertElements, toElementRow, type ElementRow } from "./element-rows";
import { withinBudget } from "./step-budget";
import { chunkWindowRows, pipelineChunking } from "./steps/chunk";
import { embeddingTarget, embedInBatches } from "./steps/embed";
import { enrichRows } from "./steps/enrich";
import { finalizeWrites } from "./steps/finalize";
import { indexedBuildOf } from "./steps/index";
import { parseDocument, partitionedBuild } from "./steps/partition";
import { emitBuildEnded } from "../webhooks/events";

/**
 * A small upload's whole build (parse, enrich, chunk, embed, index, finalize) inside the job's "load" step. Each job
 * step is an HTTP round trip to the app's own serve route, and each database statement costs about 2 ms of CPU
 * (client and embedded Postgres): for a one-page text those cost more than the document's own work. So the steps'
 * own work (the functions of `steps/` that the durable steps run too) is chained in memory, and everything is
 * written in ONE transaction at the end: a crash or a retry before it leaves nothing behind, and the retry (or the
 * resumed run) simply does it all again. Until that transaction the build shows Processing at step "load"; then
 * Completed. Larger documents keep one step per part, each writing its results, so a crash during embedding does
 * not parse a large file again.
 */

/** The partition step's parse, its elements kept in memory. */
export const parseSmallBuild = async (build: BuildWithSource) => {
  const elements: ParsedElement[] = [];
  const meta = await parseDocument(
    build.source,
    build.method as InternalMethod,
    {
      store: async (batch) => {
        elements.push(...batch);
      },
      clear: async () => {
        elements.length = 0;
      },
    },
    build.projectId,
  );
  return { elements, meta };
};

export type ParsedSmallBuild = Awaited<ReturnType<typeof parseSmallBuild>>;

/** The chunk step on the whole document as one window, then the embed step's batches, vectors kept by chunk id. */
const chunkAndEmbed = async (build: BuildWithSource, rows: ElementRow[]) => {
  const chunkSetId = randomUUID();
  const { data: chunks } = await chunkWindowRows(build, chunkSetId, rows, { last: true });
  const { embedder, index } = await embeddingTarget(build.projectId);
  const vectors = new Map<string, number[]>();
  const failedBatches = await embedInBatches({
    buildId: build.id,
    embedder,
    count: chunks.length,
    batch: (from, to) => chunks.slice(from, to),
    store: async (batch, embedded) => {
      batch.forEach((chunk, j) => vectors.set(chunk.id, embedded[j]!));
    },
  });
  return { chunkSetId, chunks, vectors, failedBatches, indexId: index.id };
};

type Chunked = Awaited<ReturnType<typeof chunkAndEmbed>>;

/** The chunk set, ready (the index step's status), with its chunks and their vectors. */
const chunkWrites = (build: BuildWithSource, chunked: Chunked) => [
  db.chunkSet.create({
    data: {
      id: chunked.chunkSetId,
      projectId: build.projectId,
      sourceId: build.sourceId,
      buildId: build.id,
      ownerKind: "source_build",
      config: pipelineChunking(),
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
];

/** What an earlier attempt of this build, or an older build, wrote (a source's first build, fresh, has none). */
const clearWrites = (build: BuildWithSource) =>
  build.fresh
    ? []
    : [
        // This build's elements from an earlier attempt, and older builds' (as finalizing drops them).
        db.element.deleteMany({ where: { sourceId: build.sourceId } }),
        // Every source-build chunk set of the source (an earlier attempt's, the searchable one of an older build).
        db.chunkSet.deleteMany({ where: { sourceId: build.sourceId, ownerKind: "source_build" } }),
      ];

/**
 * Enriches, chunks and embeds the parsed document, then writes it all in one transaction: the elements (enriched),
 * the chunk set (ready) with its chunks and vectors, the source's other chunk sets and older elements dropped, the
 * source and build Completed. A retry writes the same again in place of what an earlier attempt committed.
 */
export const finishSmallBuild = async (build: BuildWithSource, parsed: ParsedSmallBuild) => {
  const rows: ElementRow[] = parsed.elements.map(toElementRow(build.id));
  const usage = (cause: "enrichment" | "ingestion") => ({ projectId: build.projectId, cause });
  const enriched = await withinBudget("enrich", () =>
    withModelUsage(usage("enrichment"), () => enrichRows(build, rows)),
  );
  const indexedBuildId = indexedBuildOf(build);
  const chunked = indexedBuildId
    ? await withinBudget("embed", () => withModelUsage(usage("ingestion"), () => chunkAndEmbed(build, rows)))
    : null;
  const finalized = finalizeWrites({ method: build.method, failedBatchesCount: chunked?.failedBatches ?? 0 });
  const partitioned = partitionedBuild(parsed.meta);
  await db.$transaction([
    ...clearWrites(build),
    insertElements({ projectId: build.projectId, sourceId: build.sourceId, buildId: build.id }, rows),
    ...(chunked ? chunkWrites(build, chunked) : []),
    db.source.update({ where: { id: build.sourceId }, data: { ...finalized.source, indexedBuildId } }),
    db.build.update({
      where: { id: build.id },
      data: {
        ...partitioned,
        ...enriched,
        warnings: [...partitioned.warnings, ...enriched.warnings],
        ...(chunked ? { failedBatchesCount: chunked.failedBatches, embeddingIndexId: chunked.indexId } : {}),
        ...finalized.build,
      },
    }),
  ]);
  await refreshChunkStatistics(chunked?.chunks.length ?? 0);
  await emitBuildEnded(build.id);
  return { status: finalized.status };
};
