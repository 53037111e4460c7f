/**
 * Where the parse worker's entry lives (server/parsing/worker-pool.ts starts it), as source and as the bundle that
 * next-build.ts writes beside the app's production build. Paths relative to the app's root.
 */
export const PARSE_WORKER_SOURCE = "server/parsing/worker/main.ts";
export const PARSE_WORKER_BUNDLE = ".next/quarry-parse-worker/main.mjs";
