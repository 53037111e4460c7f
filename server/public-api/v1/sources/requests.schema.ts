import { z } from "zod";
import { isV2Method, V2_METHODS } from "@/server/parsing/methods.schema";
import { SEARCH_TYPES } from "@/server/retrieval/search-type.schema";
import { ENRICHMENT_OPTIONS, INDEXING_OPTIONS } from "@/server/sources/sources.schema";
import { PAGE, PAGE_SIZE, queryArray, queryBool, requiredString } from "../query";

/** Public request shapes of the sources API (contract §5), snake_case as on the wire, with the contract's texts. */

const option = <T extends readonly string[]>(name: string, values: T) =>
  z
    .unknown()
    .optional()
    .superRefine((v, ctx) => {
      if (v !== undefined && !(typeof v === "string" && values.includes(v))) {
        ctx.addIssue({ code: "custom", message: `Invalid ${name} '${String(v)}'. Valid values: ${values.join(", ")}` });
      }
    })
    .transform((v) => v as T[number] | undefined);

export const METHOD = z
  .unknown()
  .optional()
  .superRefine((v, ctx) => {
    if (v !== undefined && !(typeof v === "string" && isV2Method(v))) {
      ctx.addIssue({
        code: "custom",
        message: `Invalid method '${String(v)}'. Valid values: ${V2_METHODS.join(", ")}`,
      });
    }
  })
  .transform((v) => v as (typeof V2_METHODS)[number] | undefined);

/** `method` wins over its older alias `partition_method`. */
const buildOptions = {
  method: METHOD,
  partition_method: METHOD,
  enrichment: option("enrichment", ENRICHMENT_OPTIONS),
  indexing: option("indexing", INDEXING_OPTIONS),
};

export const IngestFileFields = z.object(buildOptions);

export const ReprocessInput = z.object({
  file_id: requiredString("Invalid input: file_id is required"),
  ...buildOptions,
  /** URL, GitHub and YouTube sources: fetch again instead of re-parsing the stored snapshot. */
  refresh: queryBool("refresh"),
});

export const GetBuildInput = z.object({
  build_id: z.string(),
  suppress_elements: queryBool("suppress_elements"),
  suppress_img_base64: queryBool("suppress_img_base64"),
  page: PAGE,
  page_size: PAGE_SIZE,
});

export const ListSourcesInput = z.object({ file_ids: queryArray(z.string()) });

export const GetElementsInput = z.object({
  file_id: requiredString("Invalid input: file_id is required"),
  page: PAGE,
  page_size: PAGE_SIZE,
  suppress_img_base64: queryBool("suppress_img_base64"),
  type: z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.string().optional()),
  page_numbers: queryArray(
    z.coerce.number({ error: "page_numbers must be integers" }).int({ error: "page_numbers must be integers" }),
  ),
  element_ids: queryArray(z.string()),
  elementsToRemove: queryArray(z.string()),
});

export const DeleteSourceInput = z
  .object({ file_id: z.string().optional(), file_name: z.string().optional() })
  .refine((v) => Boolean(v.file_id?.trim() || v.file_name?.trim()), { message: "Invalid input: file_id is required" });

const stringList = (name: string) =>
  z.array(z.string({ error: `${name} must be a list of strings` }), { error: `${name} must be a list of strings` });

export const PrebuiltRagInput = z.object({
  query: requiredString("Invalid input: query is required"),
  file_ids: stringList("file_ids").nullish(),
  file_names: stringList("file_names").nullish(),
  search_type: z.preprocess((v) => (v === null ? undefined : v), option("search_type", SEARCH_TYPES)),
});

/** A non-blank string, else absent (so a number or "" counts as not given). */
const optionalId = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === "string" && v.trim() ? v.trim() : undefined));

/** POST /index: `build_id` wins when both are given. */
export const IndexBuildInput = z
  .object({ build_id: optionalId, file_id: optionalId })
  .refine((v) => Boolean(v.build_id || v.file_id), { message: "Invalid input: build_id or file_id is required" });
