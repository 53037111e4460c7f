import { isManifestKey } from "../../connectors/snapshot";
import { db } from "../../db";
import type { BuildWithSource, LoadedBuild } from "../build-context";
import { isSmallUpload } from "../limits";
import { progressOf } from "../step-progress";

type StartedRow = Omit<BuildWithSource, "source"> &
  BuildWithSource["source"] & { fileSize: number; fromOrigin: boolean; priorStatus: string };

/**
 * Marks the build and its source Processing and reads what the job needs, in one statement (it was six round trips:
 * two reads, BEGIN, two updates, COMMIT); null when the build (or its source) was deleted meanwhile, or its project is
 * being deleted (the build was cancelled).
 */
export const startBuild = async (buildId: string) => {
  const [row] = await db.$queryRaw<StartedRow[]>`
    WITH prior AS (SELECT status FROM builds WHERE id = ${buildId}::uuid),
    build AS (
      UPDATE builds SET status = 'Processing', step = 'load', progress = ${progressOf("load")}::int,
                        started_at = COALESCE(started_at, now()), updated_at = now()
       WHERE id = ${buildId}::uuid
         AND NOT EXISTS (SELECT 1 FROM projects WHERE projects.id = builds.project_id AND deleting_at IS NOT NULL)
      RETURNING id, project_id, source_id, method, enrichment, indexing, kind),
    source AS (
      UPDATE sources SET status = 'Processing', updated_at = now() FROM build WHERE sources.id = build.source_id
      RETURNING sources.id, file_name, file_type, storage_key, file_size, origin)
    SELECT build.id::text, build.project_id::text AS "projectId", build.source_id::text AS "sourceId", build.method,
           build.enrichment, build.indexing, build.kind, source.file_name AS "fileName",
           source.file_type AS "fileType", source.storage_key AS "storageKey", source.file_size::float8 AS "fileSize",
           (source.origin IS NOT NULL AND source.origin <> 'null'::jsonb) AS "fromOrigin",
           prior.status::text AS "priorStatus"
      FROM build JOIN source ON source.id = build.source_id, prior`;
  if (!row) return null;
  const { fileName, fileType, storageKey, fileSize, fromOrigin, priorStatus, ...rest } = row;
  const fresh = rest.kind === "ingest" && priorStatus === "Pending";
  const build: BuildWithSource = { ...rest, source: { fileName, fileType, storageKey }, fresh };
  const small =
    build.kind !== "index" &&
    !fromOrigin &&
    storageKey !== null &&
    !isManifestKey(storageKey) &&
    isSmallUpload(fileSize, fileType);
  const loaded: LoadedBuild = {
    buildId,
    projectId: build.projectId,
    sourceId: build.sourceId,
    indexing: build.indexing,
    kind: build.kind,
    small,
  };
  return { loaded, build };
};
