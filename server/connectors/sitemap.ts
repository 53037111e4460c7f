import { gunzipSync } from "node:zlib";
import { XMLParser } from "fast-xml-parser";
import { errorMessage } from "../errors";
import type { Fetcher } from "./fetch";

/**
 * Page URLs from a site's sitemaps (the ones robots.txt names, else /sitemap.xml), through the same guarded
 * fetcher as everything else. A sitemap index is followed one level down. Sizes are capped, gzip included.
 */

const MAX_SITEMAP_BYTES = 10 * 1024 * 1024;
const MAX_UNZIPPED_BYTES = 50 * 1024 * 1024;
const MAX_SITEMAPS = 10;

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

type Parsed = {
  urlset?: { url?: { loc?: unknown } | { loc?: unknown }[] };
  sitemapindex?: { sitemap?: { loc?: unknown } | { loc?: unknown }[] };
};

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

const locs = (items: { loc?: unknown }[]) =>
  items
    .map((item) => (typeof item.loc === "string" ? item.loc.trim() : ""))
    .map((loc) => loc.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!))
    .filter(Boolean);

export type SitemapResult = { urls: string[]; status: string };

export const loadSitemapUrls = async ({
  fetch,
  sitemaps,
  sameHost,
  limit,
}: {
  fetch: Fetcher;
  /** Candidate sitemap URLs, in order. */
  sitemaps: string[];
  sameHost: (url: string) => boolean;
  limit: number;
}): Promise<SitemapResult> => {
  // Entities are decoded by hand: a sitemap's DOCTYPE must not get to define (and multiply) any.
  const parser = new XMLParser({ ignoreAttributes: true, processEntities: false });
  const queue = sitemaps.filter(sameHost);
  const done = new Set<string>();
  const urls: string[] = [];
  const notes: string[] = [];
  while (queue.length && done.size < MAX_SITEMAPS && urls.length < limit) {
    const sitemapUrl = queue.shift()!;
    if (done.has(sitemapUrl)) continue;
    done.add(sitemapUrl);
    try {
      const response = await fetch.fetchBytes(sitemapUrl, { maxBytes: MAX_SITEMAP_BYTES, timeoutMs: 30_000 });
      if (response.status >= 400) {
        notes.push(`${sitemapUrl}: HTTP ${response.status}`);
        continue;
      }
      let bytes = response.bytes;
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes, { maxOutputLength: MAX_UNZIPPED_BYTES });
      const parsed = parser.parse(bytes.toString("utf8")) as Parsed;
      for (const loc of locs(asArray(parsed.sitemapindex?.sitemap))) if (sameHost(loc)) queue.push(loc);
      const found = locs(asArray(parsed.urlset?.url));
      urls.push(...found.slice(0, limit - urls.length));
      notes.push(`${sitemapUrl}: ${found.length} URLs`);
    } catch (error) {
      notes.push(`${sitemapUrl}: ${errorMessage(error)}`);
    }
  }
  return { urls, status: notes.length ? notes.join("; ") : "none" };
};
