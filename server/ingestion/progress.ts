import type { PipelineStep } from "../sources/sources.schema";

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
