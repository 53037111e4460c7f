import { processSourceBuild } from "./functions/process-source-build";

/** Every function Quarry serves at /api/inngest. */
export const functions = [processSourceBuild];
