import { randomUUID } from "node:crypto";
import type { Prisma } from "../generated/prisma/client";
import { requestBuild } from "../ingestion/schedule";
import { db } from "../db";
import { AppError } from "../errors";
import { assertMethodAvailable, type BuildOptions } from "../ingestion/build-options";
import { fetcher as defaultFetcher, tooLarge, DEFAULT_MAX_BYTES, type Fetcher } from "./fetch";
import { parseGithubUrl } from "./github";
import { CRAWL_DEFAULTS, type Origin } from "./origin";
import { judgeUrlPath, sniffBody } from "./sniff";
import { parseYoutubeUrl } from "./youtube";

/**
 * The request side of the connectors: what can be known when the request arrives is checked then (a malformed
 * URL, a refused destination, a file type we don't read, a file over 100 MB) and answered with 400/413; the rest
 * is fetched by the build's acquire step, whose failures end the build with the reason.
 */

export const UNSUPPORTED_FROM_URL = "Unsupported file type detected from URL";

const PROBE_TIMEOUT_MS = 15_000;

type Probe = { kind: "page" } | { kind: "file"; fileType: string };

/**
 * Looks at the start of what the URL answers (redirects followed and checked) to tell a page from a file. A
 * network failure or an HTTP error is not decided here: the build will fetch again and report it.
 */
const probeUrl = async (fetch: Fetcher, url: URL): Promise<Probe> => {
  const fromPath = judgeUrlPath(url);
  if (fromPath?.kind === "unsupported") throw new AppError("BAD_REQUEST", UNSUPPORTED_FROM_URL);
  const guess: Probe = fromPath?.kind === "file" ? fromPath : { kind: "page" };
  let response;
  try {
    response = await fetch.open(url.href, { timeoutMs: PROBE_TIMEOUT_MS, maxBytes: DEFAULT_MAX_BYTES });
  } catch (error) {
    if (error instanceof AppError && (error.code === "BAD_REQUEST" || error.code === "PAYLOAD_TOO_LARGE")) throw error;
    return guess;
  }
  try {
    if (response.status >= 400) return guess;
    const head: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      head.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= 8192) break;
    }
    const sniffed = sniffBody(Buffer.concat(head), response.headers["content-type"], response.url);
    if (sniffed.kind === "unsupported") throw new AppError("BAD_REQUEST", `${UNSUPPORTED_FROM_URL} (${sniffed.what})`);
    if (sniffed.kind === "html") return { kind: "page" };
    if ((response.contentLength ?? 0) > DEFAULT_MAX_BYTES) throw tooLarge(DEFAULT_MAX_BYTES);
    return sniffed;
  } catch (error) {
    if (error instanceof AppError) throw error;
    return guess;
  } finally {
    response.body.destroy();
  }
};

/** A new connector source (status Processing: its first build is queued) and that build, then schedules it. */
const createConnectorSource = async ({
  projectId,
  fileName,
  fileType,
  fileSource,
  origin,
  options,
}: {
  projectId: string;
  fileName: string;
  fileType: string;
  fileSource: "url" | "github" | "youtube";
  origin: Origin;
  options: BuildOptions;
}) => {
  await assertMethodAvailable(projectId, options.method);
  const sourceId = randomUUID();
  const buildId = randomUUID();
  await db.source.create({
    data: {
      id: sourceId,
      projectId,
      fileName,
      fileType,
      fileSize: 0,
      fileSource,
      origin: origin as Prisma.InputJsonValue,
      status: "Processing",
      method: options.method,
      lastBuildId: buildId,
      builds: { create: { id: buildId, projectId, kind: "ingest", ...options } },
    },
  });
  await requestBuild({ buildId, projectId, sourceId });
  return { buildId, sourceId };
};

export const ingestUrl = async ({
  projectId,
  url,
  crawl,
  maxPages,
  maxDepth,
  options,
  fetch = defaultFetcher(),
}: {
  projectId: string;
  url: string;
  crawl: boolean;
  maxPages?: number;
  maxDepth?: number;
  options: BuildOptions;
  fetch?: Fetcher;
}) => {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new AppError("BAD_REQUEST", "Invalid URL");
  // A refusal is final now; a host that does not resolve (yet) is left to the build, which reports it.
  const target = await fetch.check(url).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "UNPROCESSABLE") return new URL(url);
    throw error;
  });
  const probe = await probeUrl(fetch, target);
  return createConnectorSource({
    projectId,
    fileName: target.href,
    fileType: probe.kind === "file" ? probe.fileType : "html",
    fileSource: "url",
    origin: {
      kind: "web",
      url: target.href,
      // A file URL is read as that file whatever crawlUrls says (contract §5.3).
      crawl: probe.kind === "page" && crawl,
      maxPages: maxPages ?? CRAWL_DEFAULTS.maxPages,
      maxDepth: maxDepth ?? CRAWL_DEFAULTS.maxDepth,
    },
    options,
  });
};

export const ingestGithub = async ({
  projectId,
  url,
  options,
}: {
  projectId: string;
  url: string;
  options: BuildOptions;
}) => {
  const parsed = parseGithubUrl(url);
  if (!parsed) throw new AppError("BAD_REQUEST", "Invalid GitHub repository URL");
  const canonical = `https://github.com/${parsed.owner}/${parsed.repo}${parsed.treePath ? `/tree/${parsed.treePath}` : ""}`;
  return createConnectorSource({
    projectId,
    fileName: canonical,
    fileType: "",
    fileSource: "github",
    origin: { kind: "github", url: canonical, ...parsed },
    options,
  });
};

export const ingestYoutube = async ({
  projectId,
  url,
  language,
  options,
}: {
  projectId: string;
  url: string;
  language?: string;
  options: BuildOptions;
}) => {
  const videoId = parseYoutubeUrl(url);
  if (!videoId) throw new AppError("BAD_REQUEST", "Invalid YouTube URL");
  return createConnectorSource({
    projectId,
    fileName: url.trim(),
    fileType: "",
    fileSource: "youtube",
    origin: { kind: "youtube", url: url.trim(), videoId, language: language ?? null },
    options,
  });
};
