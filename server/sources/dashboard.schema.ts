import { z } from "zod";
import { V2_METHODS } from "../parsing/methods.schema";
import { ENRICHMENT_OPTIONS, INDEXING_OPTIONS } from "./sources.schema";

/** Inputs of the dashboard's source procedures (isomorphic: the table and forms build them from the same schemas). */

export const SOURCE_SORTS = ["createdAt", "fileName", "fileSize", "status"] as const;
export const SOURCE_STATUSES = ["New", "Processing", "Completed", "Failed"] as const;

export const ListSourcesPageInput = z.object({
  projectId: z.uuid(),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(5).max(100).default(25),
  sort: z.enum(SOURCE_SORTS).default("createdAt"),
  direction: z.enum(["asc", "desc"]).default("desc"),
  status: z.enum(SOURCE_STATUSES).optional(),
  /** Only sources with a completed build (elements to show, chunks to search), whatever their newest build does. */
  built: z.boolean().optional(),
  fileType: z.string().trim().max(10).optional(),
  query: z.string().trim().max(200).optional(),
});
export type ListSourcesPageInput = z.infer<typeof ListSourcesPageInput>;

export const BuildOptionsInput = z.object({
  method: z.enum(V2_METHODS).default("auto"),
  enrichment: z.enum(ENRICHMENT_OPTIONS).default("full"),
  indexing: z.enum(INDEXING_OPTIONS).default("full"),
});

export const SourceInput = z.object({ projectId: z.uuid(), sourceId: z.uuid() });

export const ViewerElementsInput = SourceInput.extend({
  pageNumber: z.number().int().min(1).optional(),
  type: z.string().max(40).optional(),
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(200).default(100),
});
