import { db } from "../db";
import { getEmbedder } from "../embedding";
import { AppError } from "../errors";
import { isUuid } from "../ids";
import { logger } from "../logger";
import { ensureEmbeddingIndex } from "./embedding-index";
import { hybridCandidates, loadChunks, type Candidate } from "./vector-search";

export const MAX_RETRIEVED_CHUNKS = 10;
export const UNINDEXED_MESSAGE = "No indexed sources in scope; run POST /index or reprocess with indexing=full";
const staleModelMessage = (count: number, model: string) =>
  `${count} source(s) in scope were embedded with another model than ${model}; they are matched by full text ` +
  "only until you reprocess them";

/** Weight of vector similarity against full-text rank when both found something. */
const VECTOR_WEIGHT = 0.5;

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * Fuses both signals into one score in [0, 1]: cosine similarity (clamped) and the full-text rank relative to the
 * best full-text hit of this query. With no full-text hit at all, the vector similarity alone is the score.
 */
export const fuseScores = (candidates: Candidate[]): Map<string, number> => {
  const maxKeyword = Math.max(0, ...candidates.map((c) => c.keyword));
  return new Map(
    candidates.map((c) => [
      c.id,
      maxKeyword > 0
        ? VECTOR_WEIGHT * clamp01(c.similarity) + (1 - VECTOR_WEIGHT) * clamp01(c.keyword / maxKeyword)
        : clamp01(c.similarity),
    ]),
  );
};

/** Resolves file_ids / file_names to source ids of the project; an unknown one is a 404 (contract §5.15). */
const resolveScope = async ({
  projectId,
  fileIds,
  fileNames,
}: {
  projectId: string;
  fileIds?: string[];
  fileNames?: string[];
}): Promise<string[] | undefined> => {
  if (!fileIds?.length && !fileNames?.length) return undefined;
  const ids = new Set<string>();
  if (fileIds?.length) {
    const wanted = [...new Set(fileIds)];
    if (!wanted.every(isUuid)) throw new AppError("NOT_FOUND", "Source not found");
    const found = await db.source.findMany({ where: { projectId, id: { in: wanted } }, select: { id: true } });
    if (found.length !== wanted.length) throw new AppError("NOT_FOUND", "Source not found");
    found.forEach((s) => ids.add(s.id));
  }
  if (fileNames?.length) {
    const wanted = [...new Set(fileNames)];
    const found = await db.source.findMany({
      where: { projectId, fileName: { in: wanted } },
      select: { id: true, fileName: true },
    });
    if (new Set(found.map((s) => s.fileName)).size !== wanted.length)
      throw new AppError("NOT_FOUND", "Source not found");
    found.forEach((s) => ids.add(s.id));
  }
  return [...ids];
};

export const retrieveChunks = async ({
  projectId,
  query,
  fileIds,
  fileNames,
  limit = MAX_RETRIEVED_CHUNKS,
}: {
  projectId: string;
  query: string;
  fileIds?: string[];
  fileNames?: string[];
  limit?: number;
}) => {
  const sourceIds = await resolveScope({ projectId, fileIds, fileNames });
  const embedder = getEmbedder();
  const index = await ensureEmbeddingIndex(embedder);

  const indexed = await db.source.findMany({
    where: { projectId, indexedBuildId: { not: null }, ...(sourceIds ? { id: { in: sourceIds } } : {}) },
    select: { indexedBuildId: true },
  });
  const indexedBuilds = await db.build.findMany({
    where: { projectId, id: { in: indexed.map((s) => s.indexedBuildId!) } },
    select: { id: true, embeddingIndexId: true },
  });
  if (indexedBuilds.length === 0) return { chunks: [], total: 0, message: UNINDEXED_MESSAGE };
  // Vectors of another model are never compared with this one's: such sources are found by full-text only, and
  // the answer says so.
  const stale = indexedBuilds.filter((b) => b.embeddingIndexId !== index.id).length;
  if (stale > 0) logger.warn({ projectId, stale, model: embedder.model }, "sources embedded with another model");
  const message = stale > 0 ? staleModelMessage(stale, embedder.model) : undefined;

  const [vector] = await embedder.embed([query]);
  const buildIds = indexedBuilds.map((b) => b.id);
  const candidates = await hybridCandidates({ projectId, buildIds, index, vector: vector!, query });
  const scores = fuseScores(candidates);
  const rows = await loadChunks({ projectId, ids: [...scores.keys()] });
  const ranked = rows
    .map((row) => ({ row, score: scores.get(row.id) ?? 0 }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.row.source.fileName.localeCompare(b.row.source.fileName) ||
        a.row.position - b.row.position,
    )
    .slice(0, limit);

  const chunks = ranked.map(({ row, score }) => ({
    text: row.text,
    file_id: row.sourceId,
    file_name: row.source.fileName,
    page_number: row.pageNumber,
    score: Math.round(score * 1e6) / 1e6,
    metadata: {
      ...(row.metadata as Record<string, unknown>),
      file_id: row.sourceId,
      file_name: row.source.fileName,
      page_number: row.pageNumber,
      element_id: row.elementIds[0] ?? null,
    },
  }));
  return { chunks, total: chunks.length, ...(message ? { message } : {}) };
};
