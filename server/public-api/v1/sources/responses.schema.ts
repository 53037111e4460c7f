import { z } from "zod";
import { jsonColumn } from "../../checked";

/** Response shapes of the sources endpoints (contract §2, §5), as the mappers build them, key for key. */

/** §2.1, also answered by the legacy upload and process calls and the legacy connector calls. */
export const SourceResponse = z.strictObject({
  file_id: z.string(),
  file_name: z.string(),
  file_type: z.string(),
  file_size: z.number(),
  file_source: z.string(),
  status: z.string(),
  message: z.string(),
  project_id: z.string(),
  project_name: z.string(),
  method: z.string().nullable(),
  partition_method: z.string().nullable(),
  error: z.string().nullable(),
});

/** §2.2: ingest-*, reprocess and index. */
export const IngestResponse = z.strictObject({ build_id: z.string(), success: z.boolean(), error: z.null() });

const BoundingBox = z.strictObject({ left: z.number(), top: z.number(), width: z.number(), height: z.number() });
const PageLayout = z.strictObject({ width: z.number(), height: z.number() });

/** §2.4. `metadata` is open: the parser's own keys, then the element's file and page. */
export const ElementResponse = z.strictObject({
  element_id: z.string(),
  element_type: z.string(),
  text: z.string(),
  markdown: z.string().nullable(),
  html: z.string().nullable(),
  img_base64: z.string().nullable(),
  position: z.number(),
  page_number: z.number().nullable(),
  bounding_box: jsonColumn(BoundingBox.nullable()),
  page_layout: jsonColumn(PageLayout.nullable()),
  page_annotation: z.string().nullable(),
  page_keywords: z.array(z.string()).nullable(),
  page_topics: z.array(z.string()).nullable(),
  metadata: z.looseObject({ file_id: z.string(), file_name: z.string(), page_number: z.number().nullable() }),
});

/** §2.3, GET /builds/{id} with suppress_elements. */
export const BuildStatusResponse = z.strictObject({
  build_id: z.string(),
  status: z.string(),
  success: z.boolean(),
  message: z.string(),
  error: z.string().nullable(),
  file_id: z.string(),
  file_name: z.string(),
  method: z.string().nullable(),
  total_partitions: z.number().nullable(),
  total_pages: z.number().nullable(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  document_annotation: z.string().nullable(),
  enrichment_model: z.string().nullable(),
  failed_batches_count: z.number().nullable(),
  has_failed_batches: z.boolean(),
  step: z.string().nullable(),
  progress: z.number(),
  warnings: z.array(z.string()),
  page_methods: z.record(z.string(), z.string()).nullable(),
  // A connector build's report, open by design (crawl pages with their fates, repository, video facts).
  pages: z.unknown(),
  acquired: z.record(z.string(), z.unknown()).nullable(),
});

const ElementPage = {
  elements: z.array(ElementResponse).nullable(),
  total_elements: z.number().nullable(),
  page: z.number().nullable(),
  page_size: z.number().nullable(),
  total_pages_elements: z.number().nullable(),
};

/** A build id nobody knows: 200 with status `not_found` and every other field null (§5.1). */
const NotFoundBuildResponse = z.strictObject({
  build_id: z.string(),
  status: z.literal("not_found"),
  success: z.boolean(),
  message: z.string(),
  error: z.null(),
  file_id: z.null(),
  file_name: z.null(),
  method: z.null(),
  total_partitions: z.null(),
  total_pages: z.null(),
  created_at: z.null(),
  updated_at: z.null(),
  document_annotation: z.null(),
  enrichment_model: z.null(),
  failed_batches_count: z.null(),
  has_failed_batches: z.boolean(),
  elements: z.null(),
  total_elements: z.null(),
  page: z.null(),
  page_size: z.null(),
  total_pages_elements: z.null(),
  pages: z.null(),
  acquired: z.null(),
});

export const GetBuildResponse = z.union([
  NotFoundBuildResponse,
  BuildStatusResponse,
  BuildStatusResponse.extend(ElementPage),
]);

/** §5.10. */
export const GetElementsResponse = z.strictObject({
  items: z.array(ElementResponse),
  total: z.number(),
  page: z.number().nullable(),
  page_size: z.number().nullable(),
  total_pages: z.number().nullable(),
});

/** §5.8, plus Quarry's own `unavailable_features`. */
export const ConfigResponse = z.strictObject({
  indexing_options: z.array(z.string()),
  enrichment_options: z.array(z.string()),
  methods: z.array(z.string()),
  default_method: z.string(),
  max_file_size_bytes: z.number(),
  allowed_extensions: z.array(z.string()),
  search_types: z.array(z.string()),
  keyword_engine: z.string(),
  embedding_model: z.string(),
  reranker: z.string().nullable(),
  reembedding: z.strictObject({ status: z.string(), done_chunks: z.number(), total_chunks: z.number() }).nullable(),
  unavailable_features: z.array(
    z.strictObject({ feature: z.string(), tool: z.string(), package: z.string(), formats: z.array(z.string()) }),
  ),
});

export const ListSourcesResponse = z.array(SourceResponse);

/** §5.12. */
export const DeleteSourceResponse = z.strictObject({
  status: z.string(),
  message: z.string(),
  file_id: z.string(),
  file_name: z.string(),
  project_id: z.string(),
  project_name: z.string(),
});

/** §2.6. `metadata` is open: the chunk's own keys, then its file, page, element and chunk. */
const RetrievedChunk = z.strictObject({
  text: z.string(),
  file_id: z.string(),
  file_name: z.string(),
  page_number: z.number().nullable(),
  score: z.number(),
  metadata: z.looseObject({
    file_id: z.string(),
    file_name: z.string(),
    page_number: z.number().nullable(),
    element_id: z.string().nullable(),
    chunk_id: z.string(),
    chunk_set_id: z.string(),
    document_title: z.string().optional(),
    section_heading: z.string().optional(),
  }),
});

/** §5.15: `message` and `reranker` only when there is one. */
export const PrebuiltRagResponse = z.strictObject({
  query: z.string(),
  chunks: z.array(RetrievedChunk),
  total: z.number(),
  message: z.string().optional(),
  search_type: z.string(),
  keyword_engine: z.string(),
  embedding_model: z.string().nullable(),
  reranker: z.string().optional(),
});
