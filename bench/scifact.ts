import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * SciFact (BEIR, train split only: ../shared/eval/scifact) for the retrieval bench: loading, ingesting each document
 * once through the build pipeline's own steps, and the metrics.
 *
 * Each document becomes one Markdown source, `# <title>` over its abstract, parsed by Quarry's Markdown parser (the
 * code the parse worker runs), then chunked, embedded and indexed by the pipeline's chunk/embed/index/finalize steps,
 * so what is measured is what a real build writes: chunk sets, titles and headings, BM25 and HNSW indexes. Only the
 * upload and the job runner are skipped (through the HTTP API the 5,183 documents take hours).
 */

export const SCIFACT_DIR = path.resolve(import.meta.dirname, "../../shared/eval/scifact");

export type SciFact = {
  docs: { id: string; title: string; text: string }[];
  queries: { id: string; text: string }[];
  qrels: Map<string, Set<string>>;
};

export const loadSciFact = (): SciFact | null => {
  if (!existsSync(path.join(SCIFACT_DIR, "qrels", "train.tsv"))) return null;
  const lines = (f: string) => readFileSync(path.join(SCIFACT_DIR, f), "utf8").split("\n").filter(Boolean);
  const docs = lines("corpus.jsonl").map((l) => {
    const d = JSON.parse(l) as { _id: string; title: string; text: string };
    return { id: d._id, title: d.title, text: d.text };
  });
  const qrels = new Map<string, Set<string>>();
  for (const row of lines("qrels/train.tsv").slice(1)) {
    const [q, d] = row.split("\t");
    if (!q || !d) continue;
    if (!qrels.has(q)) qrels.set(q, new Set());
    qrels.get(q)!.add(d);
  }
  const queries = lines("queries.jsonl")
    .map((l) => JSON.parse(l) as { _id: string; text: string })
    .filter((q) => qrels.has(q._id))
    .map((q) => ({ id: q._id, text: q.text }));
  return { docs, queries, qrels };
};

export const ndcgAt10 = (ranked: string[], relevant: Set<string>) => {
  const dcg = ranked.slice(0, 10).reduce((s, id, i) => s + (relevant.has(id) ? 1 / Math.log2(i + 2) : 0), 0);
  const ideal = Array.from({ length: Math.min(10, relevant.size) }, (_, i) => 1 / Math.log2(i + 2)).reduce(
    (a, b) => a + b,
    0,
  );
  return ideal ? dcg / ideal : 0;
};

export const recallAt = (k: number, ranked: string[], relevant: Set<string>) =>
  relevant.size ? ranked.slice(0, k).filter((id) => relevant.has(id)).length / relevant.size : 0;

/** Ranked document ids from ranked chunk results: first occurrence wins (duplicates collapse). */
export const distinctIds = (ids: string[]) => [...new Set(ids)];

/**
 * Ingests every document once into `projectId` through the pipeline's steps (server/testing/index-documents.ts).
 * Returns source id → document id and the time taken.
 */
export const ingestSciFact = async ({ projectId, docs }: { projectId: string; docs: SciFact["docs"] }) => {
  const { indexDocuments } = await import("@/server/testing/index-documents");
  const started = performance.now();
  const indexed = await indexDocuments({
    projectId,
    documents: docs.map((doc) => ({ fileName: `scifact-${doc.id}.md`, content: `# ${doc.title}\n\n${doc.text}\n` })),
  });
  const docOfSource = new Map(indexed.map((s, i) => [s.sourceId, docs[i]!.id]));
  return { docOfSource, ms: performance.now() - started };
};
