import { db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { yieldToEventLoop } from "../concurrency/cpu-thread";

/**
 * Deletes of a large build's rows in slices. The embedded database has one session: one DELETE of a 100 MB build's
 * elements or chunks (every row, every index entry: full text, BM25, HNSW) held it, and every request waited, for
 * as long as it ran. A slice of DELETE_SLICE rows, then the session goes to whoever waits.
 */

export const DELETE_SLICE = 500;

/** Deletes the rows of `table` that `where` picks, DELETE_SLICE at a time; returns how many. */
const deleteInSlices = async (table: "elements" | "chunks" | "chunk_drafts", where: Prisma.Sql) => {
  let deleted = 0;
  for (;;) {
    const n = await db.$executeRaw`
      DELETE FROM ${Prisma.raw(table)} WHERE id IN (SELECT id FROM ${Prisma.raw(table)} WHERE ${where} LIMIT ${DELETE_SLICE})`;
    deleted += n;
    if (n < DELETE_SLICE) return deleted;
    await yieldToEventLoop();
  }
};

/** A chunk set's chunks, and the drafts its embed step had not moved yet (a retried chunk step starts again). */
export const deleteChunksOfSet = async (chunkSetId: string) => {
  const ofSet = Prisma.sql`chunk_set_id = ${chunkSetId}::uuid`;
  return (await deleteInSlices("chunk_drafts", ofSet)) + (await deleteInSlices("chunks", ofSet));
};

/** A build's elements (a parse that starts again). */
export const deleteElementsOfBuild = (buildId: string) =>
  deleteInSlices("elements", Prisma.sql`build_id = ${buildId}::uuid`);

/**
 * The elements of every other build of a source (a finished build replaces them), build by build: a filter on the
 * source alone walked all of the new build's rows too (1.8 s for a 100 MB text, found by QUARRY_DB_SLOW_MS).
 */
export const deleteOlderElements = async ({
  projectId,
  sourceId,
  buildId,
}: {
  projectId: string;
  sourceId: string;
  buildId: string;
}) => {
  const others = await db.build.findMany({
    where: { projectId, sourceId, NOT: { id: buildId } },
    select: { id: true },
  });
  let deleted = 0;
  for (const other of others) deleted += await deleteElementsOfBuild(other.id);
  return deleted;
};
