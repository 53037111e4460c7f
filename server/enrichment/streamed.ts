import { randomUUID } from "node:crypto";
import { ELEMENTS_PAGE, readPage } from "../ingestion/read-elements";
import { runOffThread, yieldToEventLoop } from "../concurrency/cpu-thread";
import { groupPages, type EnrichedPage, type EnrichmentInputElement, type PageGroup } from "./enrich";
import { LOCAL_ENRICHMENT_MODEL, type PageAnnotation } from "./local-extractor";

/**
 * Local enrichment of a build read a slice of elements at a time (no chat model configured): two passes over the
 * elements, the first counting the document's term frequencies, the second annotating each slice's pages and
 * writing them (`write`). A 100 MB document's elements, page statistics and annotations were all held at once
 * (about 2 GB); now one slice and the frequencies are. The result is the one enrichDocument gives for the whole.
 */

const THREAD_MODULE = "server/enrichment/enrich.ts";

/** The build's page groups (enrich.ts groupPages), a slice at a time; a group is never cut between slices. */
async function* pageGroupsOf(buildId: string): AsyncGenerator<PageGroup[]> {
  let carried: EnrichmentInputElement[] = [];
  for (let after = -1; ;) {
    const page = await readPage(buildId, after);
    const last = page.length < ELEMENTS_PAGE;
    const elements = carried.concat(
      page.map((r) => ({ position: r.position, type: r.elementType, text: r.text, pageNumber: r.pageNumber })),
    );
    const groups = groupPages(elements);
    // The last group may go on in the next slice: grouped again with it.
    const open = last ? undefined : groups.pop();
    carried = open ? elements.filter((e) => e.position >= open.first) : [];
    if (groups.length > 0) yield groups;
    if (last) return;
    after = page.at(-1)!.position;
    await yieldToEventLoop();
  }
}

export const enrichBuildLocally = async (buildId: string, write: (pages: EnrichedPage[]) => Promise<void>) => {
  const id = `${buildId}/${randomUUID()}`;
  let finished = false;
  try {
    for await (const groups of pageGroupsOf(buildId)) {
      await runOffThread(THREAD_MODULE, "countStreamedPages", [id, groups.map((g) => g.elements)]);
    }
    const summaries: (string | null)[] = [];
    for await (const groups of pageGroupsOf(buildId)) {
      const annotations = await runOffThread<PageAnnotation[]>(THREAD_MODULE, "annotateStreamedPages", [
        id,
        groups.map((g) => g.elements),
      ]);
      await write(
        groups.map((g, i) => ({ ...annotations[i]!, first: g.first, last: g.last, model: LOCAL_ENRICHMENT_MODEL })),
      );
      summaries.push(...annotations.map((a) => a.summary));
    }
    const documentAnnotation = await runOffThread<string | null>(THREAD_MODULE, "finishStreamedDocument", [
      id,
      summaries,
    ]);
    finished = true;
    return {
      pages: summaries.length,
      documentAnnotation,
      models: [LOCAL_ENRICHMENT_MODEL],
      warnings: [] as string[],
      llmPages: 0,
    };
  } finally {
    // The thread forgets a document that failed halfway.
    if (!finished) await runOffThread(THREAD_MODULE, "finishStreamedDocument", [id, null]).catch(() => undefined);
  }
};
