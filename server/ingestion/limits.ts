import { env } from "../env";
import type { IsolationLimits } from "../parsing/isolated";

/** Per-document bounds of the parse worker: a parse past them fails its build and the server keeps serving. */
export const PARSE_LIMITS: IsolationLimits = {
  get timeoutMs() {
    return env.QUARRY_PARSE_TIMEOUT_S * 1000;
  },
  timeoutSetting: "QUARRY_PARSE_TIMEOUT_S",
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
 * costs less than the round trips of separate steps. PDF and Office files carry fonts and pictures besides their text
 * (a 13-page paper of 380 KB has 64 KB of text), so theirs is larger: one step instead of seven took a third of the
 * app's CPU time off an ingest of 30 papers.
 */
const SMALL_BUILD_BYTES = 256 * 1024;
const SMALL_PAGED_BUILD_BYTES = 2 * 1024 * 1024;
const PAGED_FORMATS = new Set(["pdf", "doc", "docx", "odt", "rtf", "ppt", "pptx", "odp", "xls", "xlsx", "ods", "epub"]);

export const isSmallUpload = (size: number, fileType: string) =>
  size <= (PAGED_FORMATS.has(fileType.toLowerCase()) ? SMALL_PAGED_BUILD_BYTES : SMALL_BUILD_BYTES);
