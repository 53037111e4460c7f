import type { Build, Element, Project, Source } from "@/server/generated/prisma/client";
import { publicBuildStatus } from "@/server/ingestion/builds";
import { internalToV2, isInternalMethod, reportedPartitionMethod } from "@/server/parsing/methods.schema";
import { BUILD_STATUS_MESSAGE, SOURCE_STATUS_MESSAGE } from "@/server/sources/sources.schema";

/** One mapper per public object: camelCase rows in, the contract's snake_case shapes out. */

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

const v2Name = (method: string | null) => (method && isInternalMethod(method) ? internalToV2[method] : null);

/** `failure`: the last build's error (sources/service `failureReasons`), reported only while the source is Failed. */
export const toSourceDto = (source: Source, project: Pick<Project, "id" | "name">, failure?: string | null) => ({
  file_id: source.id,
  file_name: source.fileName,
  file_type: source.fileType,
  file_size: Number(source.fileSize),
  file_source: source.fileSource,
  status: source.status,
  message: SOURCE_STATUS_MESSAGE[source.status],
  project_id: project.id,
  project_name: project.name,
  method: v2Name(source.method) ?? source.method,
  partition_method: reportedPartitionMethod(source.method),
  // Quarry's own (clients ignore unknown fields): why a Failed source failed; `message` keeps the contract's text.
  error: source.status === "Failed" ? (failure ?? null) : null,
});

export const toElementDto = (
  element: Omit<Element, "imgBase64"> & { imgBase64?: string | null },
  source: Pick<Source, "id" | "fileName">,
) => ({
  element_id: element.elementId,
  element_type: element.elementType,
  text: element.text,
  markdown: element.markdown,
  html: element.html,
  img_base64: element.imgBase64 ?? null,
  position: element.position,
  page_number: element.pageNumber,
  bounding_box: element.boundingBox ?? null,
  page_layout: element.pageLayout ?? null,
  page_annotation: element.pageAnnotation,
  page_keywords: element.pageKeywords.length ? element.pageKeywords : null,
  page_topics: element.pageTopics.length ? element.pageTopics : null,
  metadata: {
    ...(element.metadata as Record<string, unknown>),
    file_id: source.id,
    file_name: source.fileName,
    page_number: element.pageNumber,
  },
});

export const notFoundBuildDto = (buildId: string) => ({
  build_id: buildId,
  status: "not_found" as const,
  success: false,
  message: BUILD_STATUS_MESSAGE.not_found,
  error: null,
  file_id: null,
  file_name: null,
  method: null,
  total_partitions: null,
  total_pages: null,
  created_at: null,
  updated_at: null,
  document_annotation: null,
  enrichment_model: null,
  failed_batches_count: null,
  has_failed_batches: false,
  elements: null,
  total_elements: null,
  page: null,
  page_size: null,
  total_pages_elements: null,
  pages: null,
  acquired: null,
});

export const toBuildStatusDto = (
  build: Build & { source: Pick<Source, "fileName">; enrichmentModel?: string | null },
) => {
  const status = publicBuildStatus(build.status);
  const success = build.status === "Completed" || build.status === "CompletedWithErrors";
  const { pages = null, ...acquired } = (build.acquired as Record<string, unknown> | null) ?? {};
  return {
    build_id: build.id,
    status,
    success,
    message: BUILD_STATUS_MESSAGE[status],
    error: build.error,
    file_id: build.sourceId,
    file_name: build.source.fileName,
    method: v2Name(build.method),
    total_partitions: success ? build.totalPartitions : null,
    total_pages: build.totalPages,
    created_at: iso(build.createdAt),
    updated_at: iso(build.updatedAt),
    document_annotation: build.documentAnnotation,
    // Quarry's own: who wrote page_annotation/page_keywords/page_topics and document_annotation (a model name, or
    // quarry-local-extractor-v1), null without enrichment.
    enrichment_model: build.enrichmentModel ?? null,
    failed_batches_count: build.status === "CompletedWithErrors" ? build.failedBatchesCount : null,
    has_failed_batches: (build.failedBatchesCount ?? 0) > 0,
    // Quarry's own fields (clients ignore unknown fields): progress for long builds, and what a person should
    // know about a finished one (e.g. pages without a text layer, which fast parsing never OCRs).
    step: build.step,
    progress: build.progress,
    warnings: build.warnings,
    /** Page number → method that read it (`auto` routes page by page); null for formats without pages. */
    page_methods: (build.pageMethods as Record<string, string> | null) ?? null,
    /**
     * URL, GitHub and YouTube sources: every URL a crawl considered with its fate ({url, status, reason_code,
     * reason, depth, page_number}), written as pages complete; and what was fetched (progress counts, robots and
     * sitemap, repository and commit, video title and channel). Null for uploads.
     */
    pages,
    acquired: build.acquired ? acquired : null,
  };
};
