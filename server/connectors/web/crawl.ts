import { setTimeout as sleep } from "node:timers/promises";
import { errorMessage } from "../../errors";
import { DEFAULT_MAX_BYTES } from "../fetch";
import type { WebOrigin } from "../origin";
import { loadRobots } from "../robots";
import { loadSitemapUrls } from "../sitemap";
import type { SnapshotDocument } from "../snapshot";
import type { AcquireContext, Report } from "../types";
import { keepResource } from "./crawl-pages";
import { consider, MAX_CRAWL_BYTES, newCrawl, publish, skip, type Crawl, type PageFate } from "./crawl-state";
import { fetchResource, type Resource } from "./resource";
import { describeScope, scopeOf } from "./scope";

export type { PageFate } from "./crawl-state";

/**
 * Reads a web page, or crawls from it: same host and path prefix, robots.txt obeyed, the sitemap used, depth and
 * page limits, duplicates (same visible text, same file bytes) skipped. Every URL considered is listed in the
 * build's report with its fate, and the report is written as pages complete. Challenge pages and JavaScript-only
 * shells are never stored. A page that is a file (a linked PDF) is kept and parsed like an upload.
 */

export type CrawlResult =
  /** The start URL is a file: the source is that file (crawling ignored, contract §5.3). */
  | { kind: "file"; key: string; size: number; fileType: string; mime: string; report: Report }
  | { kind: "pages"; documents: SnapshotDocument[]; bytes: number; report: Report };

/** Skips a queued URL that is not to be fetched at all (a limit, robots.txt); true when it did. */
const refused = (crawl: Crawl, fate: PageFate) => {
  if (crawl.report.progress.fetched >= crawl.maxPages) {
    skip(crawl, fate, "limit", `page limit reached (max_pages ${crawl.maxPages})`);
    return true;
  }
  if (crawl.totalBytes >= MAX_CRAWL_BYTES) {
    skip(crawl, fate, "limit", `the crawl's total of ${MAX_CRAWL_BYTES / 1024 / 1024} MB is reached`);
    return true;
  }
  if (crawl.robots && !crawl.robots.isAllowed(fate.url)) {
    skip(crawl, fate, "robots", "disallowed by robots.txt");
    return true;
  }
  return false;
};

/** Follows the redirect of a fetched URL into the scope and hands what it answered to keepResource. */
const settle = async (crawl: Crawl, fate: PageFate, resource: Resource) => {
  const redirected = resource.url !== fate.url;
  if (redirected) fate.final_url = resource.url;
  // Where the start URL lands (https, www., a trailing slash) is what the crawl stays within.
  if (redirected && fate.depth === 0) {
    crawl.scope = scopeOf(new URL(resource.url));
    crawl.report.scope = describeScope(new URL(resource.url).protocol, crawl.scope);
  }
  const drop = () => resource.kind === "file" && resource.stream.destroy();
  if (redirected && !crawl.scope.contains(resource.url)) {
    drop();
    skip(crawl, fate, "out_of_scope", `redirects to ${resource.url}, outside ${crawl.report.scope}`);
  } else if (redirected && crawl.seen.has(resource.url) && fate.depth > 0) {
    drop();
    skip(crawl, fate, "duplicate", `redirects to ${resource.url}, which is considered already`);
  } else {
    if (redirected) crawl.seen.add(resource.url);
    try {
      await keepResource(crawl, resource, fate);
    } catch (error) {
      drop();
      skip(crawl, fate, "fetch_error", errorMessage(error));
    }
  }
};

/** Queues the sitemap's URLs in scope as depth 1, once the start page is read and when links are followed. */
const queueSitemap = async (crawl: Crawl) => {
  if (crawl.maxDepth < 1) return;
  const found = await loadSitemapUrls({
    fetch: crawl.ctx.fetcher,
    sitemaps: crawl.robots?.sitemaps.length ? crawl.robots.sitemaps : [`${crawl.start.origin}/sitemap.xml`],
    sameHost: (u) => URL.canParse(u) && new URL(u).host === crawl.scope.host,
    limit: Math.max(crawl.maxPages * 5, 100),
  });
  crawl.report.sitemap = found.status;
  for (const url of found.urls) {
    if (URL.canParse(url) && !crawl.seen.has(url) && crawl.scope.contains(url))
      crawl.queue.push(consider(crawl, url, 1));
  }
};

/** Fetches and settles one queued URL; the report is published after each. */
const visit = async (crawl: Crawl, fate: PageFate) => {
  if (refused(crawl, fate)) return;
  if (crawl.robots?.delayMs && crawl.report.progress.fetched > 0) await sleep(crawl.robots.delayMs);
  crawl.report.progress.fetched++;
  let resource: Resource;
  try {
    resource = await fetchResource(crawl.ctx.fetcher, fate.url, {
      maxFileBytes: Math.min(DEFAULT_MAX_BYTES, MAX_CRAWL_BYTES - crawl.totalBytes),
    });
  } catch (error) {
    skip(crawl, fate, "fetch_error", errorMessage(error));
    publish(crawl);
    return;
  }
  await settle(crawl, fate, resource);
  // A start URL that is a file ends the crawl: the source is that file.
  if (crawl.startFile) return;
  if (crawl.sitemapPending && fate.depth === 0) {
    crawl.sitemapPending = false;
    await queueSitemap(crawl);
  }
  publish(crawl);
};

export const crawl = async (origin: WebOrigin, ctx: AcquireContext): Promise<CrawlResult> => {
  const state = newCrawl(origin, ctx);
  if (origin.crawl) {
    state.robots = await loadRobots(ctx.fetcher, state.start.origin);
    state.report.robots = state.robots.status;
  }
  state.queue.push(consider(state, state.start.href, 0));
  publish(state);
  while (state.queue.length && !state.startFile) await visit(state, state.queue.shift()!);
  publish(state);

  const { report } = state;
  if (state.startFile) return { kind: "file", ...state.startFile, report };
  return { kind: "pages", documents: state.documents, bytes: state.totalBytes, report };
};
