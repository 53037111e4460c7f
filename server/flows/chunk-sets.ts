import { createHash } from "node:crypto";
import { withModelUsage } from "../providers/usage";
import { latestSuccessfulBuild } from "../ingestion/builds";
import { embeddingInput } from "../chunk-sets/service";
import { writeChunkVectors } from "../chunk-sets/vectors";
import { db } from "../db";
import { env } from "../env";
import { resolveEmbedder } from "../model-providers/resolve";
import { AppError } from "../errors";
import { CHUNK_INSERT_BATCH } from "../chunk-sets/insert";
import { chunkRows } from "../chunk-sets/rows";
import { chunkOffThread } from "../chunking/off-thread";
import { embedTexts } from "../providers/embedding/embed-texts";
import { readBuildElements } from "../ingestion/read-elements";
import type { ParsedElement } from "../parsing/types";
import { ensureEmbeddingIndex } from "../retrieval/embedding-index";
import { refreshChunkStatistics } from "../retrieval/keyword-query";
import { yieldToEventLoop } from "../concurrency/cpu-thread";
import type { ChunkingConfig } from "./node-kinds";

/**
 * Chunk sets of flow chunking nodes (ChunkSet ownerKind "flow_chunking"): one per (source build, chunking settings,
 * embedding model), so a configuration already built for a document is reused by every flow and revision that asks
 * for it, and only new documents or new settings cost a split and an embedding. Project-wide searches never see
 * these sets (server/retrieval/vector-search.ts); a flow searches them by id.
 */

const EMBED_BATCH = 64;

const splitterOptions = (config: ChunkingConfig) => ({
  splitter: config.chunkingSplitter,
  chunkSize: config.chunkSize,
  chunkOverlap: config.chunkOverlap,
  chunkSeparator: config.chunkSeparator,
  elementsToRemove: [...config.elementsToRemove],
});

/**
 * The chunk set of one document under one chunking configuration: reused when ready, awaited while another live
 * attempt builds it, else (re)built: split, stored, embedded, then marked ready. Idempotent: a retried call after a
 * crash starts the unfinished set again once its builder's lease ran out. Embedding calls are recorded as the
 * project's `flow_build`.
 */
export const ensureFlowChunkSet = (input: { projectId: string; sourceId: string; config: ChunkingConfig }) =>
  withModelUsage({ projectId: input.projectId, cause: "flow_build" }, () => buildFlowChunkSet(input));

const buildFlowChunkSet = async ({
  projectId,
  sourceId,
  config,
}: {
  projectId: string;
  sourceId: string;
  config: ChunkingConfig;
}) => {
  const source = await db.source.findFirst({ where: { id: sourceId, projectId }, select: { fileName: true } });
  const build = source ? await latestSuccessfulBuild({ projectId, sourceId }) : null;
  if (!source || !build) throw new AppError("BAD_REQUEST", `Source ${sourceId} has no completed build to chunk`);
  const embedder = await resolveEmbedder(projectId);
  const index = await ensureEmbeddingIndex(embedder);
  const options = splitterOptions(config);
  const key = createHash("sha256")
    .update(JSON.stringify({ options, buildId: build.id, index: index.id }))
    .digest("hex");
  const found = await findOrStartSet({ projectId, sourceId, key, options, build, embeddingModel: embedder.model });
  const chunkSet = found.created || found.set.status === "ready" ? found.set : await claimOrAwait(found.set.id);
  if (chunkSet?.status === "ready") return chunkSet;
  // Deleted while we waited (a failed deploy tidied it up): start over.
  if (!chunkSet) return buildFlowChunkSet({ projectId, sourceId, config });
  const heartbeat = setInterval(() => void beat(chunkSet.id), env.QUARRY_JOB_LEASE_MS / 3);
  try {
    return await fillChunkSet({ chunkSet, build, source, options, embedder, index, projectId, sourceId });
  } finally {
    clearInterval(heartbeat);
  }
};

/**
 * The set of this key, or a new one marked `building` (`created`: the caller builds it). Under a transaction lock on
 * the key, so two first callers at the same instant (two flows deploying, two replicas) find one set, not one each.
 */
const findOrStartSet = ({
  projectId,
  sourceId,
  key,
  options,
  build,
  embeddingModel,
}: {
  projectId: string;
  sourceId: string;
  key: string;
  options: ReturnType<typeof splitterOptions>;
  build: { id: string };
  embeddingModel: string;
}) =>
  db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
    const existing = await tx.chunkSet.findFirst({
      where: { projectId, sourceId, ownerKind: "flow_chunking", config: { path: ["key"], equals: key } },
    });
    if (existing) return { set: existing, created: false };
    const set = await tx.chunkSet.create({
      data: {
        projectId,
        sourceId,
        ownerKind: "flow_chunking",
        config: { ...options, key, sourceBuildId: build.id, embeddingModel },
        status: "building",
      },
    });
    return { set, created: true };
  });

/**
 * A set still `building` is another attempt's (a second flow with the same settings deploying, a simulation, another
 * replica) while its builder keeps it fresh: waited for, not rebuilt, since rebuilding deletes that attempt's chunks
 * and the first to finish would mark ready a set whose chunks the other had not embedded yet. A set nobody has
 * touched for a job lease lost its builder (a crash) and is taken over, once, by whoever claims it first. Null when
 * the set was deleted meanwhile (a failed deploy tidied it up): the caller starts a new one.
 */
const claimOrAwait = async (id: string) => {
  for (let delay = 100; ; delay = Math.min(1000, delay * 2)) {
    const set = await db.chunkSet.findUnique({ where: { id } });
    if (!set || set.status === "ready") return set;
    const stale = new Date(Date.now() - env.QUARRY_JOB_LEASE_MS);
    const { count } = await db.chunkSet.updateMany({
      where: { id, status: "building", updatedAt: { lt: stale } },
      data: { updatedAt: new Date() },
    });
    if (count === 1) return set;
    await new Promise((r) => setTimeout(r, delay));
  }
};

/** The builder's sign of life on its set (see claimOrAwait). */
const beat = (id: string) =>
  db.chunkSet.updateMany({ where: { id, status: "building" }, data: { updatedAt: new Date() } }).catch(() => undefined);

/** Splits the build's elements into the set, embeds them, and marks the set ready. */
const fillChunkSet = async ({
  chunkSet,
  build,
  source,
  options,
  embedder,
  index,
  projectId,
  sourceId,
}: {
  chunkSet: { id: string };
  build: { id: string };
  source: { fileName: string };
  options: ReturnType<typeof splitterOptions>;
  embedder: Awaited<ReturnType<typeof resolveEmbedder>>;
  index: { id: string };
  projectId: string;
  sourceId: string;
}) => {
  const rows = await readBuildElements(build.id);
  const elements: ParsedElement[] = rows.map((r) => ({
    type: r.elementType as ParsedElement["type"],
    text: r.text,
    html: r.html,
    pageNumber: r.pageNumber,
  }));
  const chunks = await chunkOffThread({ elements, options });
  await db.chunk.deleteMany({ where: { chunkSetId: chunkSet.id } });
  const data = chunkRows({
    rows,
    chunks,
    fileName: source.fileName,
    base: { projectId, sourceId, chunkSetId: chunkSet.id, buildId: null },
  });
  for (let i = 0; i < data.length; i += CHUNK_INSERT_BATCH) {
    await db.chunk.createMany({ data: data.slice(i, i + CHUNK_INSERT_BATCH) });
    await yieldToEventLoop();
  }
  const pending = await db.chunk.findMany({
    where: { chunkSetId: chunkSet.id, nodeIndexId: null },
    select: { id: true, text: true, title: true, heading: true },
    orderBy: { position: "asc" },
  });
  for (let i = 0; i < pending.length; i += EMBED_BATCH) {
    const batch = pending.slice(i, i + EMBED_BATCH);
    const vectors = await embedTexts(embedder, batch.map(embeddingInput));
    await writeChunkVectors({ indexId: index.id, ids: batch.map((c) => c.id), vectors });
    await yieldToEventLoop();
  }
  const ready = await db.chunkSet.update({
    where: { id: chunkSet.id },
    data: { status: "ready", chunkCount: data.length, embeddingIndexId: index.id },
  });
  await refreshChunkStatistics();
  return ready;
};

/**
 * Chunk sets a failed deploy left half-built are deleted with their chunks, unless another deploy of the project is
 * still building (it may be writing one of them; its own failure or success tidies up after it).
 */
export const releaseUnfinishedFlowChunkSets = async (projectId: string) => {
  const deploying = await db.flowRevision.count({ where: { projectId, status: "building" } });
  if (deploying > 0) return;
  await db.chunkSet.deleteMany({ where: { projectId, ownerKind: "flow_chunking", status: "building" } });
};

/** Flow chunk sets that no kept revision of any flow of the project names any more are deleted with their chunks. */
export const releaseUnusedFlowChunkSets = async (projectId: string) => {
  const revisions = await db.flowRevision.findMany({ where: { projectId }, select: { chunkSets: true } });
  const used = new Set(revisions.flatMap((r) => Object.values((r.chunkSets ?? {}) as Record<string, string[]>).flat()));
  await db.chunkSet.deleteMany({
    where: { projectId, ownerKind: "flow_chunking", id: { notIn: [...used] }, status: "ready" },
  });
};
