import { z } from "zod";
import { CRAWL_LIMITS } from "@/server/connectors/origin";
import { ENRICHMENT_OPTIONS, INDEXING_OPTIONS } from "@/server/sources/sources.schema";
import { LEGACY_METHOD } from "../legacy/requests.schema";
import { queryBool, queryInt, requiredString } from "../query";
import { METHOD } from "../sources/requests.schema";

/**
 * Request shapes of the connector endpoints (contract §5.3–5.5 and their legacy forms in §6), snake_case as on the
 * wire plus the aliases the official clients send: `crawlUrls` (TypeScript client, MCP server) and `crawl_urls`;
 * `method` or `partition_method`. The clients send `null` for options they leave unset, which counts as absent.
 */

const nullAsAbsent = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === null ? undefined : v), schema);

const option = <T extends readonly string[]>(name: string, values: T) =>
  nullAsAbsent(
    z
      .unknown()
      .optional()
      .superRefine((v, ctx) => {
        if (v !== undefined && !(typeof v === "string" && values.includes(v))) {
          ctx.addIssue({
            code: "custom",
            message: `Invalid ${name} '${String(v)}'. Valid values: ${values.join(", ")}`,
          });
        }
      })
      .transform((v) => v as T[number] | undefined),
  );

const buildOptions = {
  method: nullAsAbsent(METHOD),
  partition_method: nullAsAbsent(METHOD),
  enrichment: option("enrichment", ENRICHMENT_OPTIONS),
  indexing: option("indexing", INDEXING_OPTIONS),
};

const crawlFields = {
  crawlUrls: nullAsAbsent(queryBool("crawlUrls")),
  crawl_urls: nullAsAbsent(queryBool("crawl_urls")),
  max_pages: queryInt("max_pages", {
    min: 1,
    max: CRAWL_LIMITS.maxPages,
    message: `max_pages must be between 1 and ${CRAWL_LIMITS.maxPages}`,
  }),
  max_depth: queryInt("max_depth", {
    min: 0,
    max: CRAWL_LIMITS.maxDepth,
    message: `max_depth must be between 0 and ${CRAWL_LIMITS.maxDepth}`,
  }),
};

const url = requiredString("Invalid input: url is required");

export const IngestUrlInput = z.object({ url, ...crawlFields, ...buildOptions });

export const IngestGithubInput = z.object({ url, ...buildOptions });

/** `language`: captions in this language when the video has them (or can translate to it), else the original. */
export const IngestYoutubeInput = z.object({
  url,
  language: nullAsAbsent(
    z
      .string({ error: "language must be a language code such as 'en'" })
      .trim()
      .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})?$/, { error: "language must be a language code such as 'en'" })
      .optional(),
  ),
  ...buildOptions,
});

export const LegacyUploadUrlInput = z.object({ url, ...crawlFields, partition_method: LEGACY_METHOD });

export const LegacyConnectorInput = z.object({
  url,
  signal: z.custom<AbortSignal>((v) => v instanceof AbortSignal).optional(),
});
