import { randomUUID } from "node:crypto";
import {
  activateBuildChunkSet,
  retiredChunkSets,
  chunkHeading,
  documentTitle,
  embeddingInput,
  openBuildChunkSet,
  sectionHeadings,
} from "../chunk-sets/service";
import type { Chunk, ChunkOptions } from "../chunking/types";
import { db } from "../db";
import { getEmbedder, type Embedder } from "../providers/embedding";
import { AppError, errorMessage } from "../errors";
import type { ParsedElement } from "../parsing/types";
import { logger } from "../logger";
import { insertChunks } from "../chunk-sets/insert";
import { writeChunkVectors } from "../chunk-sets/vectors";
import { ensureEmbeddingIndex } from "../retrieval/embedding-index";
import { refreshChunkStatistics } from "../retrieval/keyword-query";
import { runOffThread, yieldToEventLoop } from "../runtime/cpu-thread";
import { progressOf } from "./progress";
import type { WindowResult } from "../chunking/window";
import { deleteChunksOfSet, deleteOlderElements } from "./bounded-deletes";
import { buildDocumentTitle, ELEMENTS_PAGE, readPage, type ElementText } from "./read-elements";

/**
 * Chunking used by the build pipeline (flows bring their own chunking nodes). 2000 characters (about 500 tokens):
 * on SciFact train, documents ranked by their best chunk scored nDCG@10 0.683 (BM25) / 0.684 (hybrid) with
 * 1000-character chunks, 0.693 / 0.691 with 1500 and 0.695 / 0.698 with 2000, where BM25 over whole documents
 * scores 0.695: small chunks cut a passage's evidence in pieces.
 */
export const PIPELINE_CHUNKING = {
  splitter: "title",
  chunkSize: 2000,
  chunkOverlap: 200,
  chunkSeparator: "\n\n",
  elementsToRemove: ["Header", "Footer", "PageNumber"],
} as const;

export const EMBED_BATCH = 64;

/** Chunking is CPU work over the whole document: done in the worker thread, not on the one serving requests. */
export const chunkOffThread = (input: { elements: ParsedElement[]; options: ChunkOptions }) =>
  runOffThread<Chunk[]>("server/chunking/chunk.ts", "chunkElements", [input]);

/** The local embedder is CPU work too (a remote one waits on the network and stays here). */
export const embedTexts = (embedder: Embedder, texts: string[]) =>
  embedder.provider === "local"
    ? runOffThread<number[][]>("server/providers/embedding/local-embedder.ts", "embedTextsLocally", [texts])
    : embedder.embed(texts);

/**
 * First step of an index build (POST /index) in place of parsing: a copy of the parent build's elements, enrichment
 * included, under the same element ids. Parsing is not repeated; the parent's rows go when this build finalizes,
 * as any older build's do.
 */
export const reuseParentElements = async (buildId: string) => {
  const build = await db.build.findUnique({ where: { id: buildId } });
  if (!build) return null;
  const parent = build.parentBuildId ? await db.build.findUnique({ where: { id: build.parentBuildId } }) : null;
  if (!parent) throw new AppError("UNPROCESSABLE", "The build to index no longer exists; reprocess the source");
  const available = await db.element.count({ where: { buildId: parent.id } });
  if (available === 0 && (parent.totalPartitions ?? 0) > 0) {
    throw new AppError("UNPROCESSABLE", "The elements of the build to index were replaced by a newer build");
  }
  await db.$transaction([
    db.build.update({ where: { id: buildId }, data: { step: "partition" } }),
    db.element.deleteMany({ where: { buildId } }),
    db.$executeRaw`
      INSERT INTO elements (id, project_id, source_id, build_id, element_id, position, element_type, text, markdown,
                            html, img_base64, page_number, bounding_box, page_layout, page_annotation, page_keywords,
                            page_topics, metadata)
      SELECT gen_random_uuid(), project_id, source_id, ${buildId}::uuid, element_id, position, element_type, text,
             markdown, html, img_base64, page_number, bounding_box, page_layout, page_annotation, page_keywords,
             page_topics, metadata
      FROM elements WHERE build_id = ${parent.id}::uuid`,
    db.build.update({
      where: { id: buildId },
      data: {
        totalPartitions: parent.totalPartitions,
        totalPages: parent.totalPages,
        warnings: parent.warnings,
        documentAnnotation: parent.documentAnnotation,
        progress: progressOf("partition"),
      },
    }),
  ]);
  return { elements: available, parentBuildId: parent.id };
};
export const CHUNK_INSERT_BATCH = 200;

/**
 * Chunk rows of one document: each chunk carries its document's title and its section's heading for keyword search
 * and embedding. Shared by source builds and flow chunking nodes. A document chunked a window at a time passes its
 * title, the heading in force before the window's first element and the position of its first chunk.
 */
export const chunkRows = <Base extends object>({
  rows,
  chunks,
  fileName,
  base,
  title = documentTitle(rows, fileName),
  headingBefore = "",
  firstPosition = 0,
}: {
  rows: Pick<ElementText, "elementId" | "elementType" | "text">[];
  chunks: Chunk[];
  fileName: string;
  base: Base;
  title?: string;
  headingBefore?: string;
  firstPosition?: number;
}) => {
  const headings = sectionHeadings(rows, headingBefore);
  return chunks.map((chunk, i) => {
    const firstIndex = chunk.elementIndexes[0] ?? -1;
    const first = rows[firstIndex];
    const section = typeof chunk.metadata.section_title === "string" ? chunk.metadata.section_title : undefined;
    return {
      ...base,
      position: firstPosition + i,
      text: chunk.text,
      title,
      heading: chunkHeading(section ?? headings[firstIndex], title),
      pageNumber: chunk.pageNumber,
      elementIds: chunk.elementIndexes.map((j) => rows[j]?.elementId).filter((id): id is string => Boolean(id)),
      metadata: { ...chunk.metadata, element_type: first?.elementType ?? null },
    };
  });
};

type ChunkingBuild = { id: string; projectId: string; sourceId: string; source: { fileName: string } };

/** The build with its file name, marked as in `step`; null when it was deleted meanwhile. */
export const enterBuildStep = async (buildId: string, step: string) => {
  const build = await db.build.findUnique({
    where: { id: buildId },
    include: { source: { select: { fileName: true } } },
  });
  if (!build) return null;
  await db.build.update({ where: { id: buildId }, data: { step } });
  return build;
};

const asParsed = (r: ElementText): ParsedElement => ({
  type: r.elementType as ParsedElement["type"],
  text: r.text,
  html: r.html,
  pageNumber: r.pageNumber,
});

/**
 * Splits the build's elements into chunks and writes them (no vectors yet) into the build's chunk set, in place of
 * any an earlier attempt wrote. Each chunk carries its document's title and its section's heading for keyword
 * search and embedding. Elements are read, chunked (chunkWindow, in the CPU thread) and written a window at a time:
 * a 100 MB document's elements and chunks never sit in memory whole, and no statement writes more than
 * CHUNK_INSERT_BATCH chunks.
 */
export const writeBuildChunks = async (build: ChunkingBuild) => {
  const options = { ...PIPELINE_CHUNKING, elementsToRemove: [...PIPELINE_CHUNKING.elementsToRemove] };
  const chunkSet = await openBuildChunkSet({
    projectId: build.projectId,
    sourceId: build.sourceId,
    buildId: build.id,
    config: options,
  });
  await deleteChunksOfSet(chunkSet.id);
  const base = { projectId: build.projectId, sourceId: build.sourceId, chunkSetId: chunkSet.id, buildId: build.id };
  const title = await buildDocumentTitle(build.id, build.source.fileName);
  let carried: ElementText[] = [];
  let sectionBefore: string | null = null;
  let headingBefore = "";
  let written = 0;
  for (let after = -1; ;) {
    // Not the image bytes: chunks are text, and a scanned document's images would only fill memory.
    const page = await readPage(build.id, after);
    const last = page.length < ELEMENTS_PAGE;
    const rows = carried.concat(page);
    const window: WindowResult = await runOffThread<WindowResult>("server/chunking/chunk.ts", "chunkWindow", [
      { elements: rows.map(asParsed), options, sectionBefore, last },
    ]);
    // Ids chosen here, so a caller can write the vectors without reading the chunks back.
    const data = chunkRows({
      rows,
      chunks: window.chunks,
      fileName: build.source.fileName,
      base,
      title,
      headingBefore,
      firstPosition: written,
    }).map((row) => ({ ...row, id: randomUUID() }));
    for (let i = 0; i < data.length; i += CHUNK_INSERT_BATCH) {
      await insertChunks(data.slice(i, i + CHUNK_INSERT_BATCH));
      await yieldToEventLoop();
    }
    written += data.length;
    if (last) break;
    headingBefore = sectionHeadings(rows.slice(0, window.carryFrom), headingBefore).at(-1) ?? headingBefore;
    carried = rows.slice(window.carryFrom);
    sectionBefore = window.section;
    after = page.at(-1)!.position;
  }
  return { chunkSetId: chunkSet.id, chunks: written };
};

/** Splits the build's elements into chunks (no vectors yet), in the build's chunk set. */
export const chunkBuild = async (buildId: string) => {
  const build = await enterBuildStep(buildId, "chunk");
  if (!build) return null;
  const { chunkSetId, chunks } = await writeBuildChunks(build);
  await db.$transaction([
    db.chunkSet.update({ where: { id: chunkSetId }, data: { chunkCount: chunks } }),
    db.build.update({ where: { id: buildId }, data: { progress: progressOf("chunk") } }),
  ]);
  return { chunks };
};

type ChunkToEmbed = { id: string; text: string; title: string; heading: string };

/** The texts of chunks to embed, by id, in the order given. */
const chunkTexts = async (ids: string[]) => {
  const rows = await db.$queryRaw<ChunkToEmbed[]>`
    SELECT id::text, text, title, heading FROM chunks WHERE id = ANY(${ids}::uuid[])`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((c): c is ChunkToEmbed => c !== undefined);
};

/**
 * Embeds chunks batch by batch and writes their vectors; returns how many batches failed. A batch the provider keeps
 * refusing is counted, not fatal, unless every batch fails. Each batch's texts are read when it is embedded: a
 * 100 MB document's chunk texts are never all in memory, nor in one answer of the database.
 */
export const embedChunks = async ({
  buildId,
  embedder,
  indexId,
  ids,
}: {
  buildId: string;
  embedder: Embedder;
  indexId: string;
  ids: string[];
}) => {
  let failedBatches = 0;
  let lastError: string | null = null;
  for (let i = 0; i < ids.length; i += EMBED_BATCH) {
    try {
      const batch = await chunkTexts(ids.slice(i, i + EMBED_BATCH));
      const vectors = await embedTexts(embedder, batch.map(embeddingInput));
      await writeChunkVectors({ indexId, ids: batch.map((c) => c.id), vectors });
      await yieldToEventLoop();
    } catch (error) {
      failedBatches += 1;
      lastError = errorMessage(error);
      logger.warn({ buildId, batch: i / EMBED_BATCH, err: error }, "embedding batch failed");
    }
  }
  const batches = Math.ceil(ids.length / EMBED_BATCH);
  if (batches > 0 && failedBatches === batches) {
    throw new Error(`Embedding failed for every batch: ${lastError}`);
  }
  return failedBatches;
};

/**
 * Embeds the build's chunks that have no vector yet, batch by batch, so a retried step resumes where it stopped.
 * A batch the provider keeps refusing is counted, not fatal: the build ends "Completed with errors".
 */
export const embedBuild = async (buildId: string) => {
  const build = await db.build.findUnique({ where: { id: buildId } });
  if (!build) return null;
  await db.build.update({ where: { id: buildId }, data: { step: "embed" } });
  const embedder = getEmbedder();
  const index = await ensureEmbeddingIndex(embedder);
  // Also chunks a resumed build embedded with an earlier model: a chunk set's vectors are all of one model. Ids
  // only (a few MB for a 100 MB document); the texts are read batch by batch.
  const pending = await db.$queryRaw<{ id: string }[]>`
    SELECT c.id::text FROM chunks c JOIN chunk_sets cs ON cs.id = c.chunk_set_id
    WHERE cs.build_id = ${buildId}::uuid AND c.node_index_id IS NULL AND (c.embedding IS NULL OR c.embedding_index_id IS DISTINCT FROM ${index.id}::uuid)
    ORDER BY c.position`;
  const ids = pending.map((r) => r.id);
  const failedBatches = await embedChunks({ buildId, embedder, indexId: index.id, ids });
  await db.$transaction([
    db.chunkSet.updateMany({ where: { buildId }, data: { embeddingIndexId: index.id } }),
    db.build.update({
      where: { id: buildId },
      data: { failedBatchesCount: failedBatches, embeddingIndexId: index.id, progress: progressOf("embed") },
    }),
  ]);
  return { embedded: ids.length, failedBatches };
};

/**
 * Makes this build's chunk set the source's searchable one (or, with indexing "none", makes the source unsearchable)
 * and takes every other chunk set of the source out of search, in one transaction; then deletes them in slices.
 */
export const indexBuild = async (buildId: string) => {
  const build = await db.build.findUnique({ where: { id: buildId } });
  if (!build) return null;
  const indexed = build.indexing !== "none";
  await db.$transaction([
    db.source.update({ where: { id: build.sourceId }, data: { indexedBuildId: indexed ? buildId : null } }),
    ...activateBuildChunkSet({ sourceId: build.sourceId, buildId, indexed }),
    db.build.update({ where: { id: buildId }, data: { step: "index", progress: progressOf("index") } }),
  ]);
  // Out of search already; their chunks go in slices, then the sets.
  for (const set of await retiredChunkSets({ sourceId: build.sourceId, buildId, indexed })) {
    await deleteChunksOfSet(set.id);
    await db.chunkSet.deleteMany({ where: { id: set.id } });
  }
  await refreshChunkStatistics();
  return { indexed };
};

type FinishingBuild = { id: string; sourceId: string; method: string; failedBatchesCount: number | null };

/** What finalizing writes: older builds' elements go, the build's and the source's statuses. */
export const finalizeWrites = (build: FinishingBuild) => {
  const status = (build.failedBatchesCount ?? 0) > 0 ? "CompletedWithErrors" : "Completed";
  return {
    status,
    dropOlderElements: db.element.deleteMany({ where: { sourceId: build.sourceId, buildId: { not: build.id } } }),
    build: { status, step: "finalize", progress: progressOf("finalize"), finishedAt: new Date(), error: null },
    source: { status: "Completed", method: build.method },
  } as const;
};

/**
 * The build is done: statuses are written, then older builds' elements go, in slices (a reprocessed 100 MB source's
 * old elements in one DELETE held the database for everyone). The source shows its newest successful build, so the
 * old rows are out of sight from the first write; a crash in between leaves rows the next finalize deletes.
 */
export const finalizeBuild = async (buildId: string) => {
  const build = await db.build.findUnique({ where: { id: buildId } });
  if (!build) return null;
  const writes = finalizeWrites(build);
  await db.$transaction([
    db.build.update({ where: { id: buildId }, data: writes.build }),
    db.source.update({ where: { id: build.sourceId }, data: writes.source }),
  ]);
  await deleteOlderElements({ projectId: build.projectId, sourceId: build.sourceId, buildId });
  return { status: writes.status };
};
