import { isAllowedExtension } from "../../sources/sources.schema";
import type { WebOrigin } from "../origin";
import type { Robots } from "../robots";
import type { SnapshotDocument } from "../snapshot";
import { urlExtension } from "../sniff";
import { ACQUIRE_PROGRESS, type AcquireContext } from "../types";
import { describeScope, scopeOf, type Scope } from "./scope";

/**
 * What one crawl keeps while it runs, and the small steps that change it: listing a URL, skipping it with its
 * reason, queueing a page's links, publishing the report.
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

/** The build's `acquired` report of a web source, written as pages complete. */
export type CrawlReport = {
  kind: "web";
  url: string;
  crawl: boolean;
  max_pages: number;
  max_depth: number;
  scope: string;
  robots: string | null;
  sitemap: string | null;
  progress: { considered: number; fetched: number; ingested: number; skipped: number; queued: number };
  pages: PageFate[];
  unlisted: number;
};

export type StoredFile = { key: string; size: number; fileType: string; mime: string };

export type Crawl = {
  origin: WebOrigin;
  ctx: AcquireContext;
  start: URL;
  /** Moves once, to where the start URL redirects (https, www., a trailing slash). */
  scope: Scope;
  maxPages: number;
  maxDepth: number;
  report: CrawlReport;
  queue: PageFate[];
  seen: Set<string>;
  /** Text hash of a page, or sha256 of a file → the URL first stored with it. */
  byHash: Map<string, string>;
  documents: SnapshotDocument[];
  totalBytes: number;
  robots: Robots | null;
  /** Set when the start URL is a file: the crawl ends and the source is that file. */
  startFile: StoredFile | null;
  sitemapPending: boolean;
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

export const newCrawl = (origin: WebOrigin, ctx: AcquireContext): Crawl => {
  const start = new URL(origin.url);
  const scope = scopeOf(start);
  const maxPages = origin.crawl ? origin.maxPages : 1;
  const maxDepth = origin.crawl ? origin.maxDepth : 0;
  const pages: PageFate[] = [];
  return {
    origin,
    ctx,
    start,
    scope,
    maxPages,
    maxDepth,
    report: {
      kind: "web",
      url: origin.url,
      crawl: origin.crawl,
      max_pages: maxPages,
      max_depth: maxDepth,
      scope: describeScope(start.protocol, scope),
      robots: null,
      sitemap: null,
      progress: { considered: 0, fetched: 0, ingested: 0, skipped: 0, queued: 0 },
      pages,
      unlisted: 0,
    },
    queue: [],
    seen: new Set(),
    byHash: new Map(),
    documents: [],
    totalBytes: 0,
    robots: null,
    startFile: null,
    sitemapPending: origin.crawl,
  };
};

/** Lists a URL in the report (queued until its fate is known). */
export const consider = (crawl: Crawl, url: string, depth: number): PageFate => {
  crawl.seen.add(url);
  const fate: PageFate = { url, status: "queued", reason_code: null, reason: null, depth };
  crawl.report.progress.considered++;
  if (crawl.report.pages.length < MAX_LISTED) crawl.report.pages.push(fate);
  else crawl.report.unlisted++;
  return fate;
};

export const skip = (crawl: Crawl, fate: PageFate, code: ReasonCode, reason: string) => {
  Object.assign(fate, { status: "skipped", reason_code: code, reason });
  crawl.report.progress.skipped++;
};

export const ingested = (crawl: Crawl, fate: PageFate, pageNumber: number) => {
  Object.assign(fate, { status: "ingested", page_number: pageNumber });
  crawl.report.progress.ingested++;
};

/** Hands the report and the step's progress (pages fetched of those planned) to the build. */
export const publish = (crawl: Crawl) => {
  const { progress } = crawl.report;
  progress.queued = crawl.queue.length;
  const planned = Math.max(1, Math.min(crawl.maxPages, progress.fetched + crawl.queue.length));
  const share = Math.min(1, progress.fetched / planned);
  crawl.ctx.report.update(
    crawl.report,
    ACQUIRE_PROGRESS.start + share * (ACQUIRE_PROGRESS.end - ACQUIRE_PROGRESS.start),
  );
};

/** Links of a stored page: queued when in scope and shallow enough, otherwise listed with the reason. */
export const follow = (crawl: Crawl, links: string[], depth: number) => {
  if (!crawl.origin.crawl) return;
  for (const link of links) {
    if (crawl.seen.has(link)) continue;
    const fate = consider(crawl, link, depth + 1);
    const ext = urlExtension(link);
    if (!crawl.scope.contains(link)) skip(crawl, fate, "out_of_scope", `outside ${crawl.report.scope}`);
    else if (depth + 1 > crawl.maxDepth) skip(crawl, fate, "limit", `deeper than max_depth ${crawl.maxDepth}`);
    else if (NOT_PAGES.has(ext) && !isAllowedExtension(ext)) skip(crawl, fate, "not_html", `not HTML (.${ext})`);
    else crawl.queue.push(fate);
  }
};
