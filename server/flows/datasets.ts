import { db } from "../db";
import { AppError } from "../errors";
import { markChanged } from "./node-state";
import { graphOf, mutateDraft } from "./service";

/**
 * A dataset PATCH names files by source file name (as documented) or by `fileIds` (§11.8); both are stored, aligned:
 * `fileIds[i]` is the source named `files[i]`. Names that match no source, or several, are refused.
 */
export const resolveDatasetFiles = async (projectId: string, patch: Record<string, unknown>) => {
  const names = patch.files as string[] | undefined;
  const ids = patch.fileIds as string[] | undefined;
  if (names === undefined && ids === undefined) return patch;
  if (ids !== undefined) {
    const sources = await db.source.findMany({
      where: { projectId, id: { in: ids } },
      select: { id: true, fileName: true },
    });
    const byId = new Map(sources.map((s) => [s.id, s.fileName]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length)
      throw new AppError(
        "BAD_REQUEST",
        `The following files do not exist as sources in the dataset: ${missing.join(", ")}`,
      );
    const unique = [...new Set(ids)];
    return { ...patch, fileIds: unique, files: unique.map((id) => byId.get(id)!) };
  }
  const wanted = [...new Set(names!)];
  const sources = await db.source.findMany({
    where: { projectId, fileName: { in: wanted } },
    select: { id: true, fileName: true },
  });
  const missing = wanted.filter((n) => !sources.some((s) => s.fileName === n));
  if (missing.length)
    throw new AppError(
      "BAD_REQUEST",
      `The following files do not exist as sources in the dataset: ${missing.join(", ")}`,
    );
  const ambiguous = wanted.filter((n) => sources.filter((s) => s.fileName === n).length > 1);
  if (ambiguous.length)
    throw new AppError(
      "BAD_REQUEST",
      `Several sources are named ${ambiguous.join(", ")}; name them by fileIds instead`,
    );
  return { ...patch, files: wanted, fileIds: wanted.map((n) => sources.find((s) => s.fileName === n)!.id) };
};

/**
 * A deleted source leaves every dataset node that named it (contract §4.4): the dataset and everything downstream
 * are marked outdated. Deployed revisions keep their snapshot; their next run fails the source check until redeploy.
 */
export const forgetSourceInFlows = async (projectId: string, sourceId: string) => {
  const flows = await db.flow.findMany({ where: { projectId }, select: { id: true } });
  for (const { id } of flows) {
    await mutateDraft(id, (flow) => {
      const graph = graphOf(flow);
      const touched = graph.nodes.filter(
        (n) => n.type === "dataset" && ((n.data.config.fileIds as string[] | undefined) ?? []).includes(sourceId),
      );
      if (touched.length === 0) return null;
      let states = (flow.nodeState ?? {}) as Parameters<typeof markChanged>[0];
      for (const node of touched) {
        const ids = (node.data.config.fileIds as string[]) ?? [];
        const names = (node.data.config.files as string[] | undefined) ?? [];
        const keep = ids.map((fid, i) => [fid, names[i]] as const).filter(([fid]) => fid !== sourceId);
        node.data.config = {
          ...node.data.config,
          fileIds: keep.map(([fid]) => fid),
          files: keep.map(([, n]) => n ?? ""),
        };
        states = markChanged(states, graph, node.id);
      }
      return { graph, nodeState: states };
    });
  }
};
