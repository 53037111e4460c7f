import { createHash } from "node:crypto";
import { Transform, type Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { errorMessage } from "../../errors";
import { isAllowedExtension } from "../../sources/sources.schema";
import { DEFAULT_MAX_BYTES } from "../fetch";
import type { WebOrigin } from "../origin";
import { lookAtPage } from "../page-checks";
import { fetchResource, httpStatusText, type Resource } from "./resource";
import { loadRobots, type Robots } from "../robots";
import { loadSitemapUrls } from "../sitemap";
import { putSnapshotFile, type SnapshotDocument } from "../snapshot";
import { urlExtension } from "../sniff";
import { ACQUIRE_PROGRESS, type AcquireContext, type Report } from "../types";

/**
 * Reads a web page, or crawls from it: same host and path prefix, robots.txt obeyed, the sitemap used, depth and
 * page limits, duplicates (same visible text, same file bytes) skipped. Every URL considered is listed in the
 * build's report with its fate, and the report is written as pages complete. Challenge pages and JavaScript-only
 * shells are never stored. A page that is a file (a linked PDF) is kept and parsed like an upload.
 */

export type ReasonCode =
  "robots" | "out_of_scope" | "duplicate" | "limit" | "not_html" | "fetch_error" | "challenge" | "javascript_only";

export type PageFate = {
  url: string;
  status: "queued" | "ingested" | "skipped";
  reason_code: ReasonCode | null;
  reason: string | null;
  depth: number;
  /** Page of the source this URL's elements carry (ingested pages only). */
  page_number?: number;
  final_url?: string;
  title?: string | null;
};

/** All a crawl stores (pages and linked files): the snapshot is parsed in one worker, so it must stay bounded. */
export const MAX_CRAWL_BYTES = 200 * 1024 * 1024;

/** Fates listed in the report; a page with thousands of outside links lists the first ones and counts the rest. */
const MAX_LISTED = 1000;

/** Links to these are not pages and not documents we read: skipped without a request. */
const NOT_PAGES = new Set([
  "css",
  "js",
  "mjs",
  "json",
  "xml",
  "rss",
  "atom",
  "ico",
  "gif",
  "svg",
  "webp",
  "avif",
  "woff",
  "woff2",
  "ttf",
  "eot",
  "zip",
  "gz",
  "tgz",
  "rar",
  "7z",
  "exe",
  "dmg",
  "iso",
  "apk",
  "msi",
  "bin",
]);

export type CrawlResult =
  /** The start URL is a file: the source is that file (crawling ignored, contract §5.3). */
  | { kind: "file"; key: string; size: number; fileType: string; mime: string; report: Report }
  | { kind: "pages"; documents: SnapshotDocument[]; bytes: number; report: Report };

/** The start URL's folder: /docs/intro.html → /docs/; /docs (no extension) → /docs/ and /docs itself. */
export const scopeOf = (start: URL) => {
  const path = start.pathname;
  const last = path.split("/").pop() ?? "";
  const prefix = path.endsWith("/") ? path : last.includes(".") ? path.slice(0, path.lastIndexOf("/") + 1) : `${path}/`;
  return {
    host: start.host,
    prefix,
    contains: (raw: string) => {
      const url = new URL(raw);
      return url.host === start.host && (url.pathname.startsWith(prefix) || url.pathname === path);
    },
  };
};

/** Streams a file into the snapshot while hashing it. */
const storeHashed = async (folder: string, file: string, stream: Readable) => {
  const hash = createHash("sha256");
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const { key, size } = await putSnapshotFile(folder, file, stream.pipe(tap));
  return { key, size, sha256: hash.digest("hex") };
};

const pageFile = (n: number, ext: string) => `page-${String(n).padStart(4, "0")}.${ext}`;

export const crawl = async (origin: WebOrigin, ctx: AcquireContext): Promise<CrawlResult> => {
  const start = new URL(origin.url);
  let scope = scopeOf(start);
  const maxPages = origin.crawl ? origin.maxPages : 1;
  const maxDepth = origin.crawl ? origin.maxDepth : 0;
  const pages: PageFate[] = [];
  const report = {
    kind: "web",
    url: origin.url,
    crawl: origin.crawl,
    max_pages: maxPages,
    max_depth: maxDepth,
    scope: `${start.protocol}//${scope.host}${scope.prefix}`,
    robots: null as string | null,
    sitemap: null as string | null,
    progress: { considered: 0, fetched: 0, ingested: 0, skipped: 0, queued: 0 },
    pages,
    unlisted: 0,
  };
  const queue: PageFate[] = [];
  const seen = new Set<string>();
  const byHash = new Map<string, string>();
  const documents: SnapshotDocument[] = [];
  let totalBytes = 0;

  const consider = (url: string, depth: number): PageFate => {
    seen.add(url);
    const fate: PageFate = { url, status: "queued", reason_code: null, reason: null, depth };
    report.progress.considered++;
    if (pages.length < MAX_LISTED) pages.push(fate);
    else report.unlisted++;
    return fate;
  };
  const skip = (fate: PageFate, code: ReasonCode, reason: string) => {
    Object.assign(fate, { status: "skipped", reason_code: code, reason });
    report.progress.skipped++;
  };
  const publish = () => {
    report.progress.queued = queue.length;
    const planned = Math.max(1, Math.min(maxPages, report.progress.fetched + queue.length));
    const share = Math.min(1, report.progress.fetched / planned);
    ctx.report.update(report, ACQUIRE_PROGRESS.start + share * (ACQUIRE_PROGRESS.end - ACQUIRE_PROGRESS.start));
  };

  let robots: Robots | null = null;
  if (origin.crawl) {
    robots = await loadRobots(ctx.fetcher, start.origin);
    report.robots = robots.status;
  }
  queue.push(consider(start.href, 0));
  publish();

  /** Links of a stored page: queued when in scope and shallow enough, otherwise listed with the reason. */
  const follow = (links: string[], depth: number) => {
    if (!origin.crawl) return;
    for (const link of links) {
      if (seen.has(link)) continue;
      const fate = consider(link, depth + 1);
      const ext = urlExtension(link);
      if (!scope.contains(link)) skip(fate, "out_of_scope", `outside ${report.scope}`);
      else if (depth + 1 > maxDepth) skip(fate, "limit", `deeper than max_depth ${maxDepth}`);
      else if (NOT_PAGES.has(ext) && !isAllowedExtension(ext)) skip(fate, "not_html", `not HTML (.${ext})`);
      else queue.push(fate);
    }
  };

  type StoredFile = { key: string; size: number; fileType: string; mime: string };
  // Set inside `handle`, a closure: a holder keeps TypeScript from narrowing it to its initial null.
  const startFileOf: { value: StoredFile | null } = { value: null };

  /** Decides the fate of one fetched URL and stores what is worth keeping. */
  const handle = async (resource: Resource, fate: PageFate) => {
    switch (resource.kind) {
      case "http-error": {
        const look = lookAtPage({
          bytes: resource.bytes,
          url: resource.url,
          headers: resource.headers,
          charset: resource.charset,
        });
        if (look.challenge)
          skip(fate, "challenge", `bot-challenge page (${look.challenge}), ${httpStatusText(resource.status)}`);
        else skip(fate, "fetch_error", httpStatusText(resource.status));
        return;
      }
      case "unsupported":
        skip(fate, "not_html", `not HTML and not a supported file type (${resource.what})`);
        return;
      case "file": {
        if (fate.depth === 0) {
          // The start URL is a file: it is the source, parsed like an upload.
          const stored = await storeHashed(ctx.folder, `original.${resource.fileType}`, resource.stream);
          startFileOf.value = { key: stored.key, size: stored.size, fileType: resource.fileType, mime: resource.mime };
          Object.assign(fate, { status: "ingested", page_number: 1 });
          report.progress.ingested++;
          return;
        }
        const n = documents.length + 1;
        const file = pageFile(n, resource.fileType);
        const stored = await storeHashed(ctx.folder, file, resource.stream);
        const twin = byHash.get(stored.sha256);
        if (twin) {
          skip(fate, "duplicate", `same file as ${twin}`);
          return;
        }
        byHash.set(stored.sha256, fate.url);
        documents.push({
          file,
          size: stored.size,
          name: fate.url,
          type: resource.fileType,
          pageNumber: n,
          metadata: { url: resource.url },
        });
        totalBytes += stored.size;
        Object.assign(fate, { status: "ingested", page_number: n });
        report.progress.ingested++;
        return;
      }
      case "html": {
        const look = lookAtPage({
          bytes: resource.bytes,
          url: resource.url,
          headers: resource.headers,
          charset: resource.charset,
        });
        fate.title = look.title;
        if (look.challenge) return skip(fate, "challenge", `bot-challenge page (${look.challenge})`);
        if (look.javascriptOnly) return skip(fate, "javascript_only", `JavaScript-only page: ${look.javascriptOnly}`);
        const twin = byHash.get(look.textHash);
        if (twin) return skip(fate, "duplicate", `same text as ${twin}`);
        byHash.set(look.textHash, fate.url);
        const n = documents.length + 1;
        const file = pageFile(n, "html");
        const { size } = await putSnapshotFile(ctx.folder, file, resource.bytes);
        documents.push({
          file,
          size,
          name: resource.url,
          type: "webpage",
          url: resource.url,
          charset: resource.charset,
          pageNumber: n,
          metadata: { url: resource.url },
        });
        totalBytes += size;
        Object.assign(fate, { status: "ingested", page_number: n });
        report.progress.ingested++;
        follow(look.links, fate.depth);
      }
    }
  };

  let sitemapDone = !origin.crawl;
  while (queue.length) {
    const fate = queue.shift()!;
    if (report.progress.fetched >= maxPages) {
      skip(fate, "limit", `page limit reached (max_pages ${maxPages})`);
      continue;
    }
    if (totalBytes >= MAX_CRAWL_BYTES) {
      skip(fate, "limit", `the crawl's total of ${MAX_CRAWL_BYTES / 1024 / 1024} MB is reached`);
      continue;
    }
    if (robots && !robots.isAllowed(fate.url)) {
      skip(fate, "robots", "disallowed by robots.txt");
      continue;
    }
    if (robots?.delayMs && report.progress.fetched > 0) await sleep(robots.delayMs);
    report.progress.fetched++;
    let resource: Resource;
    try {
      resource = await fetchResource(ctx.fetcher, fate.url, {
        maxFileBytes: Math.min(DEFAULT_MAX_BYTES, MAX_CRAWL_BYTES - totalBytes),
      });
    } catch (error) {
      skip(fate, "fetch_error", errorMessage(error));
      publish();
      continue;
    }
    const redirected = resource.url !== fate.url;
    if (redirected) fate.final_url = resource.url;
    // Where the start URL lands (https, www., a trailing slash) is what the crawl stays within.
    if (redirected && fate.depth === 0) {
      scope = scopeOf(new URL(resource.url));
      report.scope = `${new URL(resource.url).protocol}//${scope.host}${scope.prefix}`;
    }
    const drop = () => resource.kind === "file" && resource.stream.destroy();
    if (redirected && !scope.contains(resource.url)) {
      drop();
      skip(fate, "out_of_scope", `redirects to ${resource.url}, outside ${report.scope}`);
    } else if (redirected && seen.has(resource.url) && fate.depth > 0) {
      drop();
      skip(fate, "duplicate", `redirects to ${resource.url}, which is considered already`);
    } else {
      if (redirected) seen.add(resource.url);
      try {
        await handle(resource, fate);
      } catch (error) {
        drop();
        skip(fate, "fetch_error", errorMessage(error));
      }
      if (startFileOf.value) break;
    }
    if (!sitemapDone && fate.depth === 0) {
      sitemapDone = true;
      if (maxDepth >= 1) {
        const found = await loadSitemapUrls({
          fetch: ctx.fetcher,
          sitemaps: robots?.sitemaps.length ? robots.sitemaps : [`${start.origin}/sitemap.xml`],
          sameHost: (u) => URL.canParse(u) && new URL(u).host === scope.host,
          limit: Math.max(maxPages * 5, 100),
        });
        report.sitemap = found.status;
        for (const url of found.urls) {
          if (URL.canParse(url) && !seen.has(url) && scope.contains(url)) queue.push(consider(url, 1));
        }
      }
    }
    publish();
  }
  publish();

  if (startFileOf.value) return { kind: "file", ...startFileOf.value, report };
  return { kind: "pages", documents, bytes: totalBytes, report };
};
