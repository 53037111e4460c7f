import { env } from "../env";
import type { IsolationLimits } from "../parsing/isolated";

/** Per-document bounds of the parse worker: a parse past them fails its build and the server keeps serving. */
export const PARSE_LIMITS: IsolationLimits = {
  get timeoutMs() {
    return env.QUARRY_PARSE_TIMEOUT_S * 1000;
  },
  get maxRssMb() {
    return env.QUARRY_PARSE_MAX_MEMORY_MB;
  },
  get pageTimeoutMs() {
    return env.QUARRY_PARSE_PAGE_TIMEOUT_S * 1000;
  },
  get workers() {
    return env.QUARRY_PARSE_WORKERS;
  },
};

/**
 * Uploads up to this size run their whole build as one job step (small-build.ts): a retry parses them again, which
 * costs less than the round trips of separate steps.
 */
export const SMALL_BUILD_BYTES = 256 * 1024;
