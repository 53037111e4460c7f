import { db } from "../db";

/** Sizes shown in dataset and chunking node results (contract §2.10). */

/** Documents of a dataset and the chunks their own (source build) chunk sets hold. */
export const datasetCounts = async (projectId: string, fileIds: string[]) => ({
  total_documents: fileIds.length,
  total_chunks: await db.chunk.count({
    where: {
      projectId,
      sourceId: { in: fileIds },
      nodeIndexId: null,
      chunkSet: { ownerKind: "source_build", status: "ready" },
    },
  }),
});

export const chunkSetsSize = async (projectId: string, chunkSetIds: string[]) => {
  const sets = await db.chunkSet.findMany({
    where: { projectId, id: { in: chunkSetIds } },
    select: { chunkCount: true },
  });
  return sets.reduce((sum, s) => sum + s.chunkCount, 0);
};
