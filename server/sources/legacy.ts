import { setTimeout as sleep } from "node:timers/promises";
import { ACTIVE_BUILD_STATUSES, latestSuccessfulBuild } from "../ingestion/builds";
import { db } from "../db";
import { AppError } from "../errors";
import type { BuildStatus } from "../generated/prisma/enums";
import type { InternalMethod } from "../parsing/methods.schema";
import type { BuildOptions } from "../ingestion/build-options";
import { listElements, type ElementFilters, type Pagination } from "../ingestion/elements";
import { findSource, findSourceByName, reprocessSource, type StoredUpload } from "./service";
import { ingestStoredUpload } from "./upload";

/**
 * The earlier (legacy) endpoints of contract §6: thin wrappers over the same pipeline that wait for the build
 * instead of answering with a build id.
 */

/**
 * The method a legacy call stores and runs: its own name (contract §3 "Reporting": `partition_method` is the stored
 * internal name, `mai` stays `mai`). The parsers run a legacy-only name as the method that does its job: `mai`
 * (text-first reading of manuscripts) as agentic with a vision model, else as balanced, with a build warning;
 * `ocr` and `yolox` as balanced; `advanced` as accurate (parsing/partition.ts).
 */
export const buildMethodFor = (method: InternalMethod | undefined): InternalMethod => method ?? "basic"; // the legacy default (contract §3)

/** Legacy calls run the legacy default method (`basic`) unless they name one (contract §3). */
export const legacyBuildOptions = (method?: InternalMethod): BuildOptions => ({
  method: buildMethodFor(method),
  enrichment: "full",
  indexing: "full",
});

/** Legacy calls wait this long for their build (contract §11.18); the build itself carries on afterwards. */
export const LEGACY_WAIT_MS = 10 * 60 * 1000;

export const TIMED_OUT = "Processing timed out; poll GET /";

/**
 * Polls until `status()` reports a final build status: quickly at first (small files finish in a second or two),
 * then every couple of seconds. Throws the contract's 504 past `timeoutMs`. Stops when `signal` aborts: the client
 * has gone and nobody reads the answer, so that is an ordinary request error rather than a failure to log.
 */
export const waitUntilFinal = async ({
  status,
  timeoutMs,
  signal,
  firstDelayMs = 200,
  maxDelayMs = 2000,
}: {
  status: () => Promise<BuildStatus | null>;
  timeoutMs: number;
  signal?: AbortSignal;
  firstDelayMs?: number;
  maxDelayMs?: number;
}): Promise<BuildStatus | null> => {
  const deadline = Date.now() + timeoutMs;
  let delay = firstDelayMs;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const current = await status();
      if (current === null || !ACTIVE_BUILD_STATUSES.includes(current)) return current;
      const left = deadline - Date.now();
      if (left <= 0) throw new AppError("TIMEOUT", TIMED_OUT);
      await sleep(Math.min(delay, left), undefined, { signal });
      delay = Math.min(delay * 1.5, maxDelayMs);
    }
  } catch (error) {
    if (signal?.aborted) throw new AppError("BAD_REQUEST", "The request was cancelled", { cause: error });
    throw error;
  }
};

/** Waits for the build, then returns its source as it stands (Completed or Failed). */
export const finishedSource = async ({
  projectId,
  sourceId,
  buildId,
  signal,
}: {
  projectId: string;
  sourceId: string;
  buildId: string;
  signal?: AbortSignal;
}) => {
  await waitUntilFinal({
    status: async () =>
      (await db.build.findFirst({ where: { id: buildId, projectId }, select: { status: true } }))?.status ?? null,
    timeoutMs: LEGACY_WAIT_MS,
    signal,
  });
  const source = await findSource({ projectId, fileId: sourceId });
  // Deleted while it was being built.
  if (!source) throw new AppError("NOT_FOUND", "Source not found");
  return source;
};

/**
 * POST /upload: a stored upload becomes a source, is built, and comes back in its final state. `method` is read
 * once the file is stored (see ingestStoredUpload).
 */
export const uploadAndWait = async ({
  projectId,
  upload,
  method,
  signal,
}: {
  projectId: string;
  upload: StoredUpload;
  method: () => InternalMethod | undefined;
  signal?: AbortSignal;
}) => {
  const { buildId } = await ingestStoredUpload({ projectId, upload, options: () => legacyBuildOptions(method()) });
  return finishedSource({ projectId, sourceId: upload.sourceId, buildId, signal });
};

/** The source a legacy call names: by id when given (preferred), else by its unique name. */
export const resolveLegacySource = async ({
  projectId,
  fileId,
  fileName,
  notFound,
}: {
  projectId: string;
  fileId?: string | null;
  fileName?: string | null;
  notFound: string;
}) => {
  const source = fileId?.trim()
    ? await findSource({ projectId, fileId: fileId.trim() })
    : await findSourceByName({ projectId, fileName: fileName?.trim() ?? "" });
  if (!source) throw new AppError("NOT_FOUND", notFound);
  return source;
};

/** POST /process: rebuilds a source with the given method and returns it in its final state. */
export const processAndWait = async ({
  projectId,
  fileId,
  fileName,
  method,
  signal,
}: {
  projectId: string;
  fileId?: string | null;
  fileName?: string | null;
  method?: InternalMethod;
  signal?: AbortSignal;
}) => {
  const source = await resolveLegacySource({ projectId, fileId, fileName, notFound: "Source node not found" });
  const { buildId } = await reprocessSource({ projectId, fileId: source.id, options: legacyBuildOptions(method) });
  return finishedSource({ projectId, sourceId: source.id, buildId, signal });
};

/** POST /elements: the elements of a source's current build, filtered and optionally paged. */
export const legacyElements = async ({
  projectId,
  fileId,
  fileName,
  filters,
  pagination,
}: {
  projectId: string;
  fileId?: string | null;
  fileName?: string | null;
  filters: ElementFilters;
  pagination: Pagination;
}) => {
  const source = await resolveLegacySource({ projectId, fileId, fileName, notFound: "Source not found" });
  const build = await latestSuccessfulBuild({ projectId, sourceId: source.id });
  const page = build
    ? await listElements({ projectId, buildId: build.id, filters, pagination, withImages: false })
    : { items: [], total: 0, totalPages: pagination ? 0 : null };
  return { source, ...page };
};
