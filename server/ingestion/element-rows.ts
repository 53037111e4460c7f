import { db } from "../db";
import { elementIdFor } from "../ids";
import type { ParsedElement } from "../parsing/types";

/** A parsed element as its build stores it. */
export type ElementRow = {
  position: number;
  elementId: string;
  elementType: string;
  text: string;
  markdown: string | null;
  html: string | null;
  imgBase64: string | null;
  pageNumber: number | null;
  boundingBox?: object;
  pageLayout?: object;
  metadata: object;
  pageAnnotation?: string | null;
  pageKeywords?: string[];
  pageTopics?: string[];
};

export type BuildScope = { projectId: string; sourceId: string; buildId: string };

export const toElementRow =
  (buildId: string) =>
  (el: ParsedElement, position: number): ElementRow => ({
    position,
    elementId: elementIdFor(buildId, position),
    elementType: el.type,
    text: el.text,
    markdown: el.markdown ?? null,
    html: el.html ?? null,
    imgBase64: el.imgBase64 ?? null,
    pageNumber: el.pageNumber,
    boundingBox: el.boundingBox ?? undefined,
    pageLayout: el.pageLayout ?? undefined,
    metadata: (el.metadata ?? {}) as object,
  });

const json = (value: object | undefined) => (value === undefined ? null : JSON.stringify(value));

/**
 * One INSERT of a build's elements, column by column through `unnest` (for a transaction, or awaited). Prisma's
 * createMany compiled a query plan for every batch and mapped every value: about a third of the app's CPU time on
 * an ingest of 30 PDFs. Arrays per row (keywords, topics) travel as JSON, as `unnest` would flatten arrays of arrays.
 */
export const insertElements = (scope: BuildScope, rows: readonly ElementRow[]) => db.$executeRaw`
  INSERT INTO elements (id, project_id, source_id, build_id, position, element_id, element_type, text, markdown, html,
    img_base64, page_number, bounding_box, page_layout, metadata, page_annotation, page_keywords, page_topics)
  SELECT gen_random_uuid(), ${scope.projectId}::uuid, ${scope.sourceId}::uuid, ${scope.buildId}::uuid, v.position,
    v.element_id, v.element_type, v.text, v.markdown, v.html, v.img_base64, v.page_number, v.bounding_box::jsonb,
    v.page_layout::jsonb, v.metadata::jsonb, v.page_annotation,
    ARRAY(SELECT jsonb_array_elements_text(v.keywords::jsonb)), ARRAY(SELECT jsonb_array_elements_text(v.topics::jsonb))
  FROM unnest(
    ${rows.map((r) => r.position)}::int[], ${rows.map((r) => r.elementId)}::text[],
    ${rows.map((r) => r.elementType)}::text[], ${rows.map((r) => r.text)}::text[],
    ${rows.map((r) => r.markdown)}::text[], ${rows.map((r) => r.html)}::text[],
    ${rows.map((r) => r.imgBase64)}::text[], ${rows.map((r) => r.pageNumber)}::int[],
    ${rows.map((r) => json(r.boundingBox))}::text[], ${rows.map((r) => json(r.pageLayout))}::text[],
    ${rows.map((r) => JSON.stringify(r.metadata))}::text[], ${rows.map((r) => r.pageAnnotation ?? null)}::text[],
    ${rows.map((r) => JSON.stringify(r.pageKeywords ?? []))}::text[],
    ${rows.map((r) => JSON.stringify(r.pageTopics ?? []))}::text[]
  ) AS v(position, element_id, element_type, text, markdown, html, img_base64, page_number, bounding_box, page_layout,
    metadata, page_annotation, keywords, topics)`;
