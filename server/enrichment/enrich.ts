import { errorMessage } from "../errors";
import type { ChatTarget } from "../providers/chat/complete";
import { logger } from "../logger";
import { annotatePageWithLlm, summarizeDocumentWithLlm } from "./llm-annotator";
import {
  createLocalExtractor,
  LOCAL_ENRICHMENT_MODEL,
  type EnrichmentElement,
  type PageAnnotation,
} from "./local-extractor";

/**
 * Enrichment of one document: each page (or, for formats without pages, each run of GROUP_SIZE elements) gets a
 * summary, keywords and topics, and the document a summary. With a chat model configured the model writes them,
 * within bounds (pages, time, failures); every page it does not annotate, for whatever reason, gets the local
 * extractor's annotation and the reason becomes a warning. Enrichment never fails a build.
 */

/** The local extractor over a document read in slices; its functions run in the CPU thread (step.ts). */
export { annotateStreamedPages, countStreamedPages, finishStreamedDocument } from "./local-stream";

/** Every enrichment warning starts so, which lets a retried step replace its own warnings. */
export const ENRICHMENT_WARNING_PREFIX = "Enrichment";

/** Elements per group for formats without pages. */
export const GROUP_SIZE = 30;
/** Model calls per document; later pages use the local extractor. */
export const MAX_LLM_PAGES = 200;
const LLM_CONCURRENCY = 4;
/** Wall time for all model calls of a document. */
const LLM_BUDGET_MS = 8 * 60 * 1000;
/** After this many failures in a row the model is not asked again for this document. */
const MAX_CONSECUTIVE_FAILURES = 3;

export type EnrichmentInputElement = EnrichmentElement & { position: number; pageNumber: number | null };

export type PageGroup = {
  /** Positions of the group's first and last element (groups are contiguous). */
  first: number;
  last: number;
  pageNumber: number | null;
  elements: EnrichmentElement[];
};

export type EnrichedPage = PageAnnotation & { first: number; last: number; model: string };

export type EnrichmentResult = {
  pages: EnrichedPage[];
  documentAnnotation: string | null;
  /** Models that wrote annotations, primary first. */
  models: string[];
  warnings: string[];
  llmPages: number;
};

/** Elements in position order into pages; a format without pages into runs of GROUP_SIZE elements. */
export const groupPages = (elements: EnrichmentInputElement[]): PageGroup[] => {
  const groups: PageGroup[] = [];
  for (const el of elements) {
    const current = groups[groups.length - 1];
    const samePage =
      current !== undefined &&
      (el.pageNumber === null || current.pageNumber === null
        ? el.pageNumber === current.pageNumber && current.elements.length < GROUP_SIZE
        : el.pageNumber === current.pageNumber);
    if (current && samePage) {
      current.last = el.position;
      current.elements.push({ type: el.type, text: el.text });
    } else {
      groups.push({
        first: el.position,
        last: el.position,
        pageNumber: el.pageNumber,
        elements: [{ type: el.type, text: el.text }],
      });
    }
  }
  return groups;
};

const pageText = (group: PageGroup) =>
  group.elements
    .map((e) => e.text.trim())
    .filter(Boolean)
    .join("\n");

/** Runs `work` over items with at most `limit` in flight. */
const forEachLimited = async <T>(items: T[], limit: number, work: (item: T) => Promise<void>) => {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
};

export const enrichDocument = async ({
  fileName,
  elements,
  llm,
}: {
  fileName: string;
  elements: EnrichmentInputElement[];
  llm: ChatTarget | null;
}): Promise<EnrichmentResult> => {
  const groups = groupPages(elements);
  const local = createLocalExtractor(groups.map((g) => g.elements));
  const paged = groups.some((g) => g.pageNumber !== null);
  const label = (g: PageGroup, i: number) =>
    paged && g.pageNumber !== null ? `Page ${g.pageNumber}` : `Part ${i + 1} of ${groups.length}`;

  const byLlm = new Map<number, PageAnnotation>();
  const warnings: string[] = [];
  if (llm) {
    const asked = groups.map((g, i) => ({ g, i })).filter(({ g }) => pageText(g).length > 0);
    const wanted = asked.slice(0, MAX_LLM_PAGES);
    const deadline = Date.now() + LLM_BUDGET_MS;
    let failures = 0;
    let consecutive = 0;
    let lastError = "";
    let skipped = 0;
    await forEachLimited(wanted, LLM_CONCURRENCY, async ({ g, i }) => {
      if (consecutive >= MAX_CONSECUTIVE_FAILURES || Date.now() > deadline) {
        skipped += 1;
        return;
      }
      try {
        byLlm.set(i, await annotatePageWithLlm(llm, { fileName, label: label(g, i), text: pageText(g) }));
        consecutive = 0;
      } catch (error) {
        failures += 1;
        consecutive += 1;
        lastError = errorMessage(error);
        logger.debug({ err: error, page: i }, "page enrichment by the model failed");
      }
    });
    const unit = paged ? "pages" : "parts";
    if (failures > 0)
      logger.warn({ model: llm.model, failures, lastError }, "enrichment by the model failed for some pages");
    if (failures + skipped > 0) {
      warnings.push(
        `Enrichment used the local extractor for ${failures + skipped} of ${wanted.length} ${unit}` +
          (failures > 0 ? `: the model ${llm.model} failed (${lastError})` : `: the model ${llm.model} took too long`),
      );
    }
    if (asked.length > wanted.length) {
      warnings.push(
        `Enrichment by ${llm.model} is limited to ${MAX_LLM_PAGES} ${unit} per document; ` +
          `the other ${asked.length - wanted.length} used the local extractor`,
      );
    }
  }

  // Pages without text have nothing to annotate; they carry the document's main model.
  const primary = llm && byLlm.size > 0 ? llm.model : LOCAL_ENRICHMENT_MODEL;
  const pages: EnrichedPage[] = groups.map((g, i) => {
    const fromLlm = byLlm.get(i);
    const annotation = fromLlm ?? local.annotate(i);
    const model = fromLlm ? (llm as ChatTarget).model : pageText(g) ? LOCAL_ENRICHMENT_MODEL : primary;
    return { ...annotation, first: g.first, last: g.last, model };
  });

  let documentAnnotation: string | null = null;
  const summaries = pages.map((p) => p.summary);
  if (llm && byLlm.size > 0) {
    try {
      documentAnnotation = await summarizeDocumentWithLlm(llm, {
        fileName,
        pageSummaries: summaries.filter((s): s is string => Boolean(s)),
      });
    } catch (error) {
      warnings.push(
        `Enrichment: the document summary is the local extractor's; the model ${llm.model} failed (${errorMessage(error)})`,
      );
    }
  }
  documentAnnotation ??= local.summarizeDocument(summaries);

  const models = [...new Set([primary, ...pages.map((p) => p.model)])];
  return { pages, documentAnnotation, models, warnings, llmPages: byLlm.size };
};
