import { db } from "../db";
import { emitWebhookEvent } from "./emit";

/**
 * The events, as the domains emit them: each loads what its body says (snake_case, like the public API) and emits it
 * under a key naming the occurrence. Called after the change is committed; none of them throws (emit.ts).
 */

const timestamp = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** build.completed or build.failed, from the build's stored status. */
export const emitBuildEnded = async (buildId: string) => {
  const build = await db.build
    .findUnique({ where: { id: buildId }, include: { source: { select: { fileName: true } } } })
    .catch(() => null);
  if (!build) return;
  const failed = build.status === "ProcessingFailed";
  await emitWebhookEvent(build.projectId, failed ? "build.failed" : "build.completed", buildId, {
    build_id: build.id,
    file_id: build.sourceId,
    file_name: build.source.fileName,
    status: build.status,
    error: build.error,
    finished_at: timestamp(build.finishedAt),
  });
};

export const emitSourceDeleted = (source: { id: string; projectId: string; fileName: string }) =>
  emitWebhookEvent(source.projectId, "source.deleted", source.id, { file_id: source.id, file_name: source.fileName });

/** flow.deployed or flow.deploy_failed, from the revision's stored status (a cancelled deploy emits nothing). */
export const emitDeployEnded = async (revisionId: string) => {
  const revision = await db.flowRevision
    .findUnique({ where: { id: revisionId }, include: { flow: { select: { name: true } } } })
    .catch(() => null);
  if (!revision || !["ready", "failed"].includes(revision.status)) return;
  const type = revision.status === "ready" ? "flow.deployed" : "flow.deploy_failed";
  await emitWebhookEvent(revision.projectId, type, revisionId, {
    flow_id: revision.flowId,
    flow_name: revision.flow.name,
    revision_id: revision.id,
    revision_number: revision.number,
    status: revision.status === "ready" ? "Deployed" : "Failed",
    error: revision.error,
  });
};

/** evaluation.completed when a run ends, whether completed, cancelled or failed (its `status` says which). */
export const emitEvaluationEnded = async (runId: string) => {
  const run = await db.evaluationRun
    .findUnique({ where: { id: runId }, include: { flow: { select: { name: true } } } })
    .catch(() => null);
  if (!run) return;
  await emitWebhookEvent(run.projectId, "evaluation.completed", runId, {
    run_id: run.id,
    flow_id: run.flowId,
    flow_name: run.flow.name,
    test_set_id: run.testSetId,
    target: run.target,
    revision_number: run.revisionNumber,
    status: run.status,
    total_cases: run.totalCases,
    done_cases: run.doneCases,
    error: run.error,
    finished_at: timestamp(run.finishedAt),
  });
};
