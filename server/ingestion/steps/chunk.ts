import { randomUUID } from "node:crypto";
import { withModelUsage } from "../../providers/usage";
import { insertChunkDrafts } from "../../chunk-sets/drafts";
import { CHUNK_INSERT_BATCH } from "../../chunk-sets/insert";
import { chunkRows } from "../../chunk-sets/rows";
import { openBuildChunkSet, sectionHeadings } from "../../chunk-sets/service";
import type { WindowResult } from "../../chunking/window";
import { db } from "../../db";
import type { ParsedElement } from "../../parsing/types";
import { runOffThread, yieldToEventLoop } from "../../concurrency/cpu-thread";
import { deleteChunksOfSet } from "../bounded-deletes";
import { buildInStep } from "../build-context";
import { buildDocumentTitle, ELEMENTS_PAGE, readPage, type ElementText } from "../read-elements";
import { stepDone } from "../step-progress";

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

type ChunkingBuild = { id: string; projectId: string; sourceId: string; source: { fileName: string } };

/** The options the build pipeline chunks with (a copy: the chunk set stores them as its config). */
export const pipelineChunking = () => ({
  ...PIPELINE_CHUNKING,
  elementsToRemove: [...PIPELINE_CHUNKING.elementsToRemove],
});

type WindowRow = {
  elementId: string;
  elementType: string;
  text: string;
  html: string | null;
  pageNumber: number | null;
};

const asParsed = (r: WindowRow): ParsedElement => ({
  type: r.elementType as ParsedElement["type"],
  text: r.text,
  html: r.html,
  pageNumber: r.pageNumber,
});

/** Where a window sits in its document (the first window's defaults: `last` for a document chunked whole). */
type WindowPlace = {
  title?: string;
  sectionBefore?: string | null;
  headingBefore?: string;
  firstPosition?: number;
  last: boolean;
};

/**
 * The chunk step's work on one window of elements: chunked in the CPU thread (chunkWindow; a window that is the
 * whole document gives chunkElements' chunks), then made chunk rows of the build's chunk set with their ids chosen
 * here, so their vectors can be written without reading the chunks back. A small build's document is one window.
 */
export const chunkWindowRows = async (
  build: ChunkingBuild,
  chunkSetId: string,
  rows: WindowRow[],
  { title, sectionBefore = null, headingBefore = "", firstPosition = 0, last }: WindowPlace,
) => {
  const window: WindowResult = await runOffThread<WindowResult>("server/chunking/thread.ts", "chunkWindow", [
    { elements: rows.map(asParsed), options: pipelineChunking(), sectionBefore, last },
  ]);
  const base = { projectId: build.projectId, sourceId: build.sourceId, chunkSetId, buildId: build.id };
  const data = chunkRows({
    rows,
    chunks: window.chunks,
    fileName: build.source.fileName,
    base,
    title,
    headingBefore,
    firstPosition,
  }).map((row) => ({ ...row, id: randomUUID() }));
  return { window, data };
};

/**
 * Splits the build's elements into chunks and writes them as drafts of the build's chunk set (chunk-sets/drafts.ts:
 * the embed step moves them into `chunks` with their vectors), in place of any an earlier attempt wrote. Each chunk carries its document's title and its section's heading for keyword
 * search and embedding. Elements are read, chunked and written a window at a time: a 100 MB document's elements and
 * chunks never sit in memory whole, and no statement writes more than CHUNK_INSERT_BATCH chunks.
 */
export const writeBuildChunks = async (build: ChunkingBuild) => {
  const chunkSet = await openBuildChunkSet({
    projectId: build.projectId,
    sourceId: build.sourceId,
    buildId: build.id,
    config: pipelineChunking(),
  });
  await deleteChunksOfSet(chunkSet.id);
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
    const place = { title, sectionBefore, headingBefore, firstPosition: written, last };
    const { window, data } = await chunkWindowRows(build, chunkSet.id, rows, place);
    for (let i = 0; i < data.length; i += CHUNK_INSERT_BATCH) {
      await insertChunkDrafts(data.slice(i, i + CHUNK_INSERT_BATCH));
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

/** Splits the build's elements into chunk drafts (no vectors yet) of the build's chunk set. */
export const chunkBuild = async (buildId: string) => {
  const build = await buildInStep(buildId, "chunk");
  if (!build) return null;
  // Semantic chunking embeds sentences.
  const { chunkSetId, chunks } = await withModelUsage({ projectId: build.projectId, cause: "ingestion" }, () =>
    writeBuildChunks(build),
  );
  await db.$transaction([
    db.chunkSet.update({ where: { id: chunkSetId }, data: { chunkCount: chunks } }),
    db.build.update({ where: { id: buildId }, data: stepDone("chunk") }),
  ]);
  return { chunks };
};
