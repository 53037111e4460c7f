import robotsParser from "robots-parser";
import { errorMessage } from "../errors";
import { ROBOTS_AGENT, type Fetcher } from "./fetch";

/**
 * robots.txt of a crawled site, read the way RFC 9309 says: a missing file (4xx) allows everything, an unreachable
 * one (5xx, network) disallows everything. robots-parser picks the group for our product token and, as the RFC
 * says, that group replaces the `*` group entirely.
 */

export type Robots = {
  isAllowed: (url: string) => boolean;
  sitemaps: string[];
  /** Crawl-delay in milliseconds, capped (a site asking for minutes would stall the build). */
  delayMs: number;
  /** What was found, for the build report. */
  status: string;
};

const MAX_ROBOTS_BYTES = 512 * 1024;
const MAX_DELAY_MS = 5000;

export const loadRobots = async (fetch: Fetcher, origin: string): Promise<Robots> => {
  const robotsUrl = `${origin}/robots.txt`;
  let response;
  try {
    response = await fetch.fetchBytes(robotsUrl, { maxBytes: MAX_ROBOTS_BYTES, timeoutMs: 20_000 });
  } catch (error) {
    return {
      isAllowed: () => false,
      sitemaps: [],
      delayMs: 0,
      status: `unreachable (${errorMessage(error)}): the site is treated as disallowed (RFC 9309)`,
    };
  }
  if (response.status >= 500) {
    return {
      isAllowed: () => false,
      sitemaps: [],
      delayMs: 0,
      status: `unreachable (HTTP ${response.status}): the site is treated as disallowed (RFC 9309)`,
    };
  }
  if (response.status >= 400) {
    return { isAllowed: () => true, sitemaps: [], delayMs: 0, status: `none (HTTP ${response.status})` };
  }
  const robots = robotsParser(response.url, response.bytes.toString("utf8"));
  const delay = robots.getCrawlDelay(ROBOTS_AGENT);
  return {
    // robots-parser answers undefined for a URL of another host; the crawler only asks about its own host.
    isAllowed: (url) => robots.isAllowed(url, ROBOTS_AGENT) !== false,
    sitemaps: robots.getSitemaps(),
    delayMs: Math.min(MAX_DELAY_MS, Math.max(0, (delay ?? 0) * 1000)),
    status: "found",
  };
};
