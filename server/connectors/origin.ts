import { z } from "zod";

/**
 * Where a connector source comes from, stored on the source (`sources.origin`) so that a refresh fetches the same
 * thing again. Uploads have none.
 */

/** Contract §5.3: "same host, one level, max 20 pages" unless the request asks for more. */
export const CRAWL_DEFAULTS = { maxPages: 20, maxDepth: 1 } as const;
export const CRAWL_LIMITS = { maxPages: 500, maxDepth: 5 } as const;

export const WebOrigin = z.object({
  kind: z.literal("web"),
  url: z.string(),
  crawl: z.boolean(),
  maxPages: z.number().int(),
  maxDepth: z.number().int(),
});

export const GithubOrigin = z.object({
  kind: z.literal("github"),
  url: z.string(),
  owner: z.string(),
  repo: z.string(),
  /** Everything after /tree/ or /blob/: a ref, possibly followed by a path (a ref may itself contain slashes). */
  treePath: z.string().nullable(),
});

export const YoutubeOrigin = z.object({
  kind: z.literal("youtube"),
  url: z.string(),
  videoId: z.string(),
  /** Caption language asked for; null = the video's original language. */
  language: z.string().nullable(),
});

export const Origin = z.discriminatedUnion("kind", [WebOrigin, GithubOrigin, YoutubeOrigin]);
export type Origin = z.infer<typeof Origin>;
export type WebOrigin = z.infer<typeof WebOrigin>;
export type GithubOrigin = z.infer<typeof GithubOrigin>;
export type YoutubeOrigin = z.infer<typeof YoutubeOrigin>;

/** The origin of a source row, or null for an upload (or a row written by a newer version). */
export const originOf = (value: unknown): Origin | null => {
  const parsed = Origin.safeParse(value);
  return parsed.success ? parsed.data : null;
};
