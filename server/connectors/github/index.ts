import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import { env } from "../../env";
import { AppError, errorMessage } from "../../errors";
import type { FetchedResponse } from "../fetch";
import type { GithubOrigin } from "../origin";
import { putSnapshotFile, writeManifest, type SnapshotDocument } from "../snapshot";
import { ACQUIRE_PROGRESS, type Acquired, type AcquireContext, type Connector } from "../types";
import { GITHUB_LIMITS, isBinary, judgePath, type GithubLimits } from "./files";

/**
 * The GitHub connector (POST /ingest-github): a public repository, at a branch and sub-path when the URL names
 * them. One metadata call (is it public, which is the default branch), then ONE archive: the API's tarball
 * endpoint redirects to codeload, and the gzipped tar is streamed through gunzip and a tar reader; nothing is
 * fetched file by file, so a repository costs two API calls of the rate limit.
 */

const REPO_URL_RE =
  /^(?:https?:\/\/)?(?:www\.)?github\.com\/([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100}?)(?:\.git)?(?:\/(?:(?:tree|blob)\/(.+?))?)?\/?(?:[?#].*)?$/;

/** owner, repo and what follows /tree/ or /blob/ (a ref and maybe a path), or null for anything else. */
export const parseGithubUrl = (raw: string) => {
  const m = REPO_URL_RE.exec(raw.trim());
  if (!m || m[2] === "." || m[2] === "..") return null;
  return { owner: m[1]!, repo: m[2]!, treePath: m[3] ? decodeURIComponent(m[3]).replace(/\/+$/, "") : null };
};

/** A ref may contain slashes (feature/x): try the shortest first, the rest of the path being the sub-path. */
const refCandidates = (treePath: string | null) => {
  if (!treePath) return [{ ref: null as string | null, path: null as string | null }];
  const parts = treePath.split("/");
  return parts.slice(0, 4).map((_, i) => ({
    ref: parts.slice(0, i + 1).join("/"),
    path: parts.slice(i + 1).join("/") || null,
  }));
};

const apiHeaders = () => ({
  accept: "application/vnd.github+json",
  "x-github-api-version": "2022-11-28",
  ...(env.GITHUB_TOKEN ? { authorization: `Bearer ${env.GITHUB_TOKEN}` } : {}),
});

const readJson = async (response: FetchedResponse): Promise<Record<string, unknown>> => {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** GitHub's own reason for a refusal, in a sentence that says what to do. */
const githubError = async (response: FetchedResponse, what: string) => {
  const body = await readJson(response).catch(() => ({}) as Record<string, unknown>);
  const says = typeof body.message === "string" ? ` ("${body.message}")` : "";
  const remaining = response.headers["x-ratelimit-remaining"];
  if ((response.status === 403 || response.status === 429) && (remaining === "0" || /rate limit/i.test(says))) {
    const reset = Number(response.headers["x-ratelimit-reset"]);
    const when = Number.isFinite(reset) && reset > 0 ? `; it resets at ${new Date(reset * 1000).toISOString()}` : "";
    const hint = env.GITHUB_TOKEN ? "" : ". Set GITHUB_TOKEN to raise the limit";
    return new AppError("UNPROCESSABLE", `GitHub's API rate limit is exhausted${says}${when}${hint}`);
  }
  if (response.status === 404) {
    return new AppError(
      "UNPROCESSABLE",
      `GitHub could not find ${what}${says}: it does not exist or it is private (only public repositories can be ingested)`,
    );
  }
  if (response.status === 401) return new AppError("UNPROCESSABLE", `GitHub refused GITHUB_TOKEN${says}`);
  return new AppError("UNPROCESSABLE", `GitHub answered HTTP ${response.status} for ${what}${says}`);
};

/** Counts bytes after gunzip: past the limit the archive is a bomb or far too large to read. */
const unpackedLimit = (max: number) => {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) {
        done(
          new AppError(
            "UNPROCESSABLE",
            `The repository archive unpacks to more than ${Math.round(max / 1024 / 1024)} MB; it is not read`,
          ),
        );
      } else done(null, chunk);
    },
  });
};

const readEntry = async (entry: AsyncIterable<unknown>, max: number) => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry) {
    size += (chunk as Buffer).length;
    if (size <= max) chunks.push(chunk as Buffer);
  }
  return size > max ? null : Buffer.concat(chunks);
};

/** The repository's metadata (one API call): private ones are refused; the default branch when the URL names none. */
const readRepository = async (origin: GithubOrigin, ctx: AcquireContext, repoUrl: string, slug: string) => {
  const meta = await ctx.fetcher.open(repoUrl, { headers: apiHeaders(), maxBytes: 1024 * 1024, timeoutMs: 60_000 });
  if (meta.status !== 200) throw await githubError(meta, `the repository ${slug}`);
  const info = await readJson(meta);
  if (info.private === true) {
    throw new AppError("UNPROCESSABLE", `The repository ${slug} is private: only public repositories can be ingested`);
  }
  const defaultBranch = typeof info.default_branch === "string" ? info.default_branch : null;
  return { defaultBranch, rateLimitRemaining: meta.headers["x-ratelimit-remaining"] ?? null };
};

type Chosen = { ref: string | null; path: string | null };

/** The archive of the first ref the URL's tree path can name (the second API call), and the sub-path left over. */
const openArchive = async (
  {
    origin,
    ctx,
    repoUrl,
    slug,
    limits,
  }: Pick<Unpacking, "ctx" | "slug" | "limits"> & {
    origin: GithubOrigin;
    repoUrl: string;
  },
  defaultBranch: string | null,
): Promise<{ archive: FetchedResponse; chosen: Chosen }> => {
  for (const candidate of refCandidates(origin.treePath)) {
    const ref = candidate.ref ?? defaultBranch;
    const url = `${repoUrl}/tarball${ref ? `/${ref.split("/").map(encodeURIComponent).join("/")}` : ""}`;
    const response = await ctx.fetcher.open(url, {
      headers: apiHeaders(),
      maxBytes: limits.archiveBytes,
      timeoutMs: 30 * 60_000,
    });
    if (response.status === 200) return { archive: response, chosen: { ref, path: candidate.path } };
    if (response.status !== 404) throw await githubError(response, `the archive of ${slug}`);
    response.body.destroy();
  }
  throw new AppError(
    "UNPROCESSABLE",
    `GitHub has no branch, tag or commit named in ${origin.url} ("Not Found"); check the branch name`,
  );
};

type GithubReport = {
  kind: "github";
  repository: string;
  ref: string | null;
  commit: string | null;
  sub_path: string | null;
  files: number;
  bytes: number;
  skipped: Record<string, number>;
  truncated: string | null;
  rate_limit_remaining: string | null;
};

/** What reading the archive's entries keeps. */
type Unpacking = {
  ctx: AcquireContext;
  limits: GithubLimits;
  slug: string;
  chosen: Chosen;
  report: GithubReport;
  documents: SnapshotDocument[];
};

type ArchiveEntry = AsyncIterable<unknown> & {
  header: { name: string; type: string; size?: number };
  resume: () => unknown;
};

const skip = (report: GithubReport, why: string) => (report.skipped[why] = (report.skipped[why] ?? 0) + 1);

/** One entry of the archive: stored as a document, or passed over (counted by reason); "stop" at a limit. */
const takeEntry = async (u: Unpacking, entry: ArchiveEntry): Promise<"next" | "stop"> => {
  const { ctx, limits, slug, chosen, report, documents } = u;
  const { name, type, size } = entry.header;
  const slash = name.indexOf("/");
  // Top folder "owner-repo-<sha>": the commit the archive was made from.
  if (report.commit === null)
    report.commit = /-([0-9a-f]{7,40})(?:\/|$)/.exec(name.slice(0, slash + 1 || undefined))?.[1] ?? null;
  const path = slash >= 0 ? name.slice(slash + 1) : "";
  const inScope = !chosen.path || path === chosen.path || path.startsWith(`${chosen.path}/`);
  if (type !== "file" || !path || !inScope) {
    entry.resume();
    return "next";
  }
  const verdict = judgePath(path);
  if ("skip" in verdict) {
    skip(report, verdict.skip);
    entry.resume();
    return "next";
  }
  if ((size ?? 0) > limits.fileBytes) {
    skip(report, "larger than 1 MB");
    entry.resume();
    return "next";
  }
  if (documents.length >= limits.files || report.bytes + (size ?? 0) > limits.totalTextBytes) {
    report.truncated = `stopped after ${documents.length} files (${Math.round(report.bytes / 1024 / 1024)} MB of text): the rest of the repository was not read`;
    entry.resume();
    return "stop";
  }
  const bytes = await readEntry(entry, limits.fileBytes);
  if (!bytes || bytes.length === 0 || isBinary(bytes)) {
    skip(report, bytes && bytes.length ? "binary content" : "empty");
    return "next";
  }
  const n = documents.length + 1;
  const file = `file-${String(n).padStart(5, "0")}.txt`;
  await putSnapshotFile(ctx.folder, file, bytes);
  const blob = `https://github.com/${slug}/blob/${chosen.ref ?? report.commit ?? "HEAD"}/${path}`;
  documents.push({
    file,
    size: bytes.length,
    name: path,
    type: verdict.read.type,
    language: verdict.read.language,
    title: path,
    pageNumber: n,
    metadata: { path, repository: slug, ref: chosen.ref, url: blob },
  });
  report.files = n;
  report.bytes += bytes.length;
  ctx.report.update(
    report,
    ACQUIRE_PROGRESS.start + Math.min(1, n / 500) * (ACQUIRE_PROGRESS.end - ACQUIRE_PROGRESS.start),
  );
  return "next";
};

const unreadable = (slug: string, error: unknown) =>
  error instanceof AppError
    ? error
    : new AppError("UNPROCESSABLE", `The archive of ${slug} could not be read: ${errorMessage(error)}`);

/** Streams the gzipped tar through gunzip and a tar reader, taking its entries one by one. */
const unpack = async (u: Unpacking, archive: FetchedResponse) => {
  const extract = tar.extract();
  // Settles to the error (or null) so a failure while the loop below is busy is never an unhandled rejection.
  const flowing = pipeline(archive.body, createGunzip(), unpackedLimit(u.limits.unpackedBytes), extract).then(
    () => null,
    (error: unknown) => error,
  );
  let stopped = false;
  try {
    for await (const entry of extract) {
      if ((await takeEntry(u, entry)) === "stop") {
        stopped = true;
        break;
      }
    }
  } catch (error) {
    archive.body.destroy();
    throw unreadable(u.slug, error);
  }
  if (stopped) archive.body.destroy();
  const failed = await flowing;
  if (failed && !stopped) throw unreadable(u.slug, failed);
};

export const acquireGithub = async (
  origin: GithubOrigin,
  ctx: AcquireContext,
  /** The limits of files.ts; tests pass smaller ones. */
  limits: GithubLimits = GITHUB_LIMITS,
): Promise<Acquired> => {
  const api = env.GITHUB_API_BASE_URL.replace(/\/+$/, "");
  const slug = `${origin.owner}/${origin.repo}`;
  const repoUrl = `${api}/repos/${encodeURIComponent(origin.owner)}/${encodeURIComponent(origin.repo)}`;
  const { defaultBranch, rateLimitRemaining } = await readRepository(origin, ctx, repoUrl, slug);
  const { archive, chosen } = await openArchive({ origin, ctx, repoUrl, slug, limits }, defaultBranch);

  const report: GithubReport = {
    kind: "github",
    repository: slug,
    ref: chosen.ref,
    commit: null,
    sub_path: chosen.path,
    files: 0,
    bytes: 0,
    skipped: {},
    truncated: null,
    rate_limit_remaining: rateLimitRemaining,
  };
  const documents: SnapshotDocument[] = [];
  await unpack({ ctx, limits, slug, chosen, report, documents }, archive);
  ctx.report.update(report);
  if (documents.length === 0) {
    const skipped = Object.entries(report.skipped)
      .map(([why, n]) => `${n} ${why}`)
      .join(", ");
    throw new AppError(
      "UNPROCESSABLE",
      `Nothing could be read from ${origin.url}: no text files${chosen.path ? ` under ${chosen.path}` : ""}${skipped ? ` (skipped: ${skipped})` : ""}`,
    );
  }
  const key = await writeManifest(ctx.folder, {
    version: 1,
    buildId: ctx.buildId,
    acquiredAt: new Date().toISOString(),
    documents,
  });
  return { storageKey: key, fileType: "", fileSize: report.bytes, mimeType: null, report };
};

export const githubConnector: Connector<"github"> = { kind: "github", acquire: acquireGithub };
