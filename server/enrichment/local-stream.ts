import { countPageTerms, extractorFor, type TermFrequencies } from "./local-extractor";
import type { EnrichmentElement, PageAnnotation } from "./local-extractor";

/**
 * The local extractor over a document read in slices (ingestion/steps/enrich.ts), in the CPU thread: the document's term
 * frequencies are counted slice by slice (first pass), then its pages annotated slice by slice (second pass). Only
 * the frequencies stay here between calls, so a 100 MB document's pages are never all in memory. The annotations
 * are those createLocalExtractor makes of the whole document. State is per document id until finished.
 */

const documents = new Map<string, { frequencies: TermFrequencies; extractor?: ReturnType<typeof extractorFor> }>();

const documentOf = (id: string) => {
  let doc = documents.get(id);
  if (!doc) documents.set(id, (doc = { frequencies: { df: new Map(), pages: 0 } }));
  return doc;
};

export const countStreamedPages = (id: string, pages: EnrichmentElement[][]) => {
  const doc = documentOf(id);
  if (doc.extractor) throw new Error("Pages were counted after annotating began");
  countPageTerms(doc.frequencies, pages);
};

export const annotateStreamedPages = (id: string, pages: EnrichmentElement[][]): PageAnnotation[] => {
  const doc = documentOf(id);
  doc.extractor ??= extractorFor(doc.frequencies);
  return pages.map(doc.extractor.annotatePage);
};

/** The document's summary from its pages' summaries; forgets the document. */
export const finishStreamedDocument = (id: string, summaries: (string | null)[] | null) => {
  const doc = documents.get(id);
  documents.delete(id);
  if (!doc || !summaries) return null;
  return (doc.extractor ?? extractorFor(doc.frequencies)).summarizeDocument(summaries);
};
