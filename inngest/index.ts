import { deleteProject } from "./functions/delete-project";
import { deliverWebhook } from "./functions/deliver-webhook";
import { deployFlow } from "./functions/deploy-flow";
import { processSourceBuild } from "./functions/process-source-build";
import { reembedChunkSets } from "./functions/reembed-chunk-sets";
import { runEvaluation } from "./functions/run-evaluation";

/** Every function Quarry serves at /api/inngest. */
export const functions = [
  processSourceBuild,
  reembedChunkSets,
  deployFlow,
  runEvaluation,
  deliverWebhook,
  deleteProject,
];
