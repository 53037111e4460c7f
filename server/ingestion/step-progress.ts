import { db } from "../db";
import type { PipelineStep } from "../sources/sources.schema";

/**
 * The one place a build's step name and progress are written. A step marks itself with `enterStep` when it starts
 * and spreads `stepDone(step)` into the write that stores its results, so the progress moves with them.
 */

/** Progress (0-100) reached when a step is done; the dashboard shows it while a build runs. */
const DONE_AT: Record<PipelineStep, number> = {
  load: 5,
  acquire: 25,
  partition: 40,
  enrich: 45,
  chunk: 50,
  embed: 85,
  index: 95,
  finalize: 100,
};

export const progressOf = (step: PipelineStep) => DONE_AT[step];

/** Shows the build in `step` while it runs. */
export const enterStep = (buildId: string, step: PipelineStep, data: { progress?: number } = {}) =>
  db.build.update({ where: { id: buildId }, data: { step, ...data } });

/** The progress a step's closing write stores beside its results. */
export const stepDone = (step: PipelineStep) => ({ progress: progressOf(step) });

/** A step that starts and ends in one write (index, finalize): its name and its progress. */
export const stepReached = (step: PipelineStep) => ({ step, progress: progressOf(step) });
