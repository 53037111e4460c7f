import { db } from "../../db";
import { withModelUsage } from "../../providers/usage";
import { errorMessage } from "../../errors";
import type { ChatTarget } from "../../providers/chat";
import { resolveChatTarget } from "../../model-providers/resolve";
import { enterStep, stepDone } from "../step-progress";
import { logger } from "../../logger";
import type { ElementRow } from "../element-rows";
import { readBuildElements } from "../read-elements";
import { runOffThread, yieldToEventLoop } from "../../concurrency/cpu-thread";
import { enrichBuildLocally } from "../../enrichment/streamed";
import { modelNames } from "../builds";
import {
  enrichDocument,
  ENRICHMENT_WARNING_PREFIX,
  type EnrichedPage,
  type EnrichmentInputElement,
  type EnrichmentResult,
} from "../../enrichment/enrich";

/**
 * The "enrich" step of a build (after partition, before chunk): page annotations, keywords and topics onto the
 * build's elements, with `metadata.enrichment_model` naming who wrote them, and the document summary onto the build.
 * Idempotent (a retry overwrites) and never fatal: whatever goes wrong becomes a build warning.
 */

/**
 * Elements updated per statement (a page group larger than this is one statement of its own). With 500, a 100 MiB
 * .txt's enrichment wrote 640 statements that each held the embedded database 2.5-4.5 s on busy cores (logged with
 * QUARRY_DB_SLOW_MS): every request waited that long. A fifth of that is a fifth of the wait, for the same work.
 */
const UPDATE_BATCH = 100;

/**
 * Page groups in batches of at most UPDATE_BATCH elements: one UPDATE of a whole large document held the embedded
 * database (which every request waits for) for seconds.
 */
const batchesOf = (pages: EnrichedPage[]): EnrichedPage[][] => {
  const batches: EnrichedPage[][] = [];
  let current: EnrichedPage[] = [];
  let size = 0;
  for (const page of pages) {
    const rows = page.last - page.first + 1;
    if (current.length > 0 && size + rows > UPDATE_BATCH) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(page);
    size += rows;
  }
  if (current.length > 0) batches.push(current);
  return batches;
};

const writePages = async (buildId: string, pages: EnrichedPage[]) => {
  for (const batch of batchesOf(pages)) {
    await db.$executeRaw`
      UPDATE elements AS e SET
        page_annotation = v.annotation,
        page_keywords = ARRAY(SELECT jsonb_array_elements_text(v.keywords::jsonb)),
        page_topics = ARRAY(SELECT jsonb_array_elements_text(v.topics::jsonb)),
        metadata = e.metadata || jsonb_build_object('enrichment_model', v.model)
      FROM (
        SELECT unnest(${batch.map((p) => p.first)}::int[]) AS first,
               unnest(${batch.map((p) => p.last)}::int[]) AS last,
               unnest(${batch.map((p) => p.summary)}::text[]) AS annotation,
               unnest(${batch.map((p) => JSON.stringify(p.keywords))}::text[]) AS keywords,
               unnest(${batch.map((p) => JSON.stringify(p.topics))}::text[]) AS topics,
               unnest(${batch.map((p) => p.model)}::text[]) AS model
      ) AS v
      WHERE e.build_id = ${buildId}::uuid AND e.position BETWEEN v.first AND v.last`;
    await yieldToEventLoop();
  }
};

type DocumentToAnnotate = { fileName: string; elements: EnrichmentInputElement[] };

/**
 * Page annotations, keywords, topics and the document summary, by the project's chat model (`llm`, from
 * resolveChatTarget) when one answers, else locally.
 */
export const annotateDocument = (input: DocumentToAnnotate, llm: ChatTarget | null) => {
  // Without a chat model it is all local CPU work (TF-IDF, RAKE, TextRank): off the thread that serves requests.
  return llm
    ? enrichDocument({ ...input, llm })
    : runOffThread<EnrichmentResult>("server/enrichment/enrich.ts", "enrichDocument", [{ ...input, llm: null }]);
};

type RowToAnnotate = { position: number; elementType: string; text: string; pageNumber: number | null };

const annotateRows = (fileName: string, rows: RowToAnnotate[], llm: ChatTarget | null) =>
  annotateDocument(
    {
      fileName,
      elements: rows.map((r) => ({
        position: r.position,
        type: r.elementType,
        text: r.text,
        pageNumber: r.pageNumber,
      })),
    },
    llm,
  );

/** The warning a failed enrichment leaves on its build (enrichment never fails a build). */
const failureWarning = (buildId: string, error: unknown) => {
  logger.error({ err: error, buildId }, "enrichment failed");
  return `${ENRICHMENT_WARNING_PREFIX} failed: ${errorMessage(error)}`;
};

/** With a chat model: the whole document at once (the model annotates at most MAX_LLM_PAGES pages of it). */
const enrichWhole = async (
  buildId: string,
  fileName: string,
  llm: ChatTarget,
  write: (pages: EnrichedPage[]) => Promise<void>,
) => {
  const result = await annotateRows(fileName, await readBuildElements(buildId), llm);
  await write(result.pages);
  return { ...result, pages: result.pages.length };
};

/** Page annotations onto element rows held in memory, as writePages writes them. */
const applyPages = (rows: ElementRow[], pages: EnrichedPage[]) => {
  for (const page of pages) {
    for (const row of rows.slice(page.first, page.last + 1)) {
      row.pageAnnotation = page.summary;
      row.pageKeywords = page.keywords;
      row.pageTopics = page.topics;
      row.metadata = { ...row.metadata, enrichment_model: page.model };
    }
  }
};

type EnrichingBuild = { id: string; projectId: string; enrichment: string; source: { fileName: string } };

/**
 * The enrich step over a small build's rows in memory (the whole document at once, with or without a chat model):
 * the pages go onto the rows, the rest (as the durable step writes it) is returned for the build. Never throws: a
 * failure is a warning.
 */
export const enrichRows = async (build: EnrichingBuild, rows: ElementRow[]) => {
  if (build.enrichment !== "full") return { warnings: [] };
  try {
    const result = await annotateRows(build.source.fileName, rows, await resolveChatTarget(build.projectId));
    applyPages(rows, result.pages);
    return {
      enrichmentModel: modelNames(new Set(result.pages.map((p) => p.model))),
      documentAnnotation: result.documentAnnotation,
      warnings: result.warnings,
    };
  } catch (error) {
    return { warnings: [failureWarning(build.id, error)] };
  }
};

export const enrichBuild = async (buildId: string) => {
  const build = await db.build.findUnique({
    where: { id: buildId },
    include: { source: { select: { fileName: true } } },
  });
  if (!build) return null;
  if (build.enrichment !== "full") return { enriched: false };
  const started = performance.now();
  const earlier = build.warnings.filter((w) => !w.startsWith(ENRICHMENT_WARNING_PREFIX));
  try {
    await enterStep(buildId, "enrich");
    // Who wrote the pages, kept on the build: GET /builds reported it by scanning every element (2.2 s at 100 MiB).
    const written = new Set<string>();
    const write = async (pages: EnrichedPage[]) => {
      for (const page of pages) written.add(page.model);
      await writePages(buildId, pages);
    };
    const llm = await resolveChatTarget(build.projectId);
    const result = llm
      ? await withModelUsage({ projectId: build.projectId, cause: "enrichment" }, () =>
          enrichWhole(buildId, build.source.fileName, llm, write),
        )
      : await enrichBuildLocally(buildId, write);
    await db.build.update({
      where: { id: buildId },
      data: {
        enrichmentModel: modelNames(written),
        documentAnnotation: result.documentAnnotation,
        warnings: [...earlier, ...result.warnings],
        ...stepDone("enrich"),
      },
    });
    const ms = Math.round(performance.now() - started);
    logger.info({ buildId, pages: result.pages, llmPages: result.llmPages, ms }, "build enriched");
    return { enriched: true, pages: result.pages, llmPages: result.llmPages, models: result.models, ms };
  } catch (error) {
    await db.build
      .update({ where: { id: buildId }, data: { warnings: [...earlier, failureWarning(buildId, error)] } })
      .catch(() => undefined);
    return { enriched: false, error: errorMessage(error) };
  }
};
