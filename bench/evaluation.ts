import { createApiToken } from "@/server/auth/api-tokens";
import { db } from "@/server/db";
import { createEvaluationRun } from "@/server/evaluation/runs";
import { runEvaluationInline, type NodeAggregate } from "@/server/evaluation/run-steps";
import { importTestSet } from "@/server/evaluation/testsets";
import type { Graph } from "@/server/flows/graph.schema";
import { saveFlow } from "@/server/flows/service";
import { ensureProject } from "@/server/projects/service";
import { flowCall } from "@/server/testing/flow-client";
import type { QuarryProcess } from "@/server/testing/quarry-process";
import { ingestSciFact, loadSciFact } from "./scifact";
import { fmt, table } from "./stats";

/**
 * Evaluation (`BENCH_ONLY=evaluation`): SciFact train (../shared/eval/scifact) as a test set with gold relevant
 * documents, through three flows over the same corpus, ingested once: plain (hybrid search, top 10), graph-rag and
 * raptor-rag (each behind its own chunking node). Each flow is deployed through the running Quarry (the deploy job
 * builds what it needs) and its revision evaluated with the run-evaluation job's own steps, in this process. Prints
 * nDCG@10 of the retrieved documents and the exact context precision / recall from the gold labels (no judge is
 * configured in the bench). A flow that cannot deploy is reported "not available (<reason>)".
 * BENCH_EVAL_QUERIES caps the queries (default all 809).
 */

const node = (id: string, type: string, name: string, config: Record<string, unknown>, x: number) => ({
  id,
  type,
  position: { x, y: 100 },
  style: { height: 80, width: 240 },
  data: { name, config },
});

const RESPONSE = { model: "gpt-4o-mini", promptId: "default_retrieval_prompt", temperature: 0 };

/** dataset → [chunking →] <retriever> → response; the retriever's topK is 10 for nDCG@10. */
const flowGraph = (fileIds: string[], retriever: "plain" | "graph-rag" | "raptor-rag"): Graph => {
  const dataset = node("dataset-1764000000001", "dataset", "SciFact", { fileIds }, 0);
  const response = node("response-1764000000009", "response", "Answer", RESPONSE, 900);
  if (retriever === "plain") {
    const search = node(
      "retrieval-1764000000002",
      "retrieval",
      "Hybrid search",
      { searchType: "hybrid", topK: 10, scoreThreshold: 0, retrievalQuery: null },
      300,
    );
    return {
      nodes: [dataset, search, response],
      edges: [
        { source: dataset.id, target: search.id },
        { source: search.id, target: response.id },
      ],
    };
  }
  const chunking = node(
    "chunking-1764000000003",
    "chunking",
    "Chunks",
    { chunkingSplitter: "title", chunkSize: 2000, chunkOverlap: 0 },
    300,
  );
  const id = `${retriever}-1764000000004`;
  const rag = node(
    id,
    retriever,
    retriever,
    retriever === "raptor-rag" ? { topK: 10, max_level: 3 } : { topK: 10 },
    600,
  );
  return {
    nodes: [dataset, chunking, rag, response],
    edges: [
      { source: dataset.id, target: chunking.id },
      { source: chunking.id, target: rag.id },
      { source: rag.id, target: response.id },
    ],
  };
};

const detailOf = (text: string) => {
  try {
    return (JSON.parse(text) as { detail?: string }).detail ?? text;
  } catch {
    return text;
  }
};

/** Deploys and waits for it (a deploy answers after 10 minutes while its job goes on); null, or why it failed. */
const deploy = async (quarry: QuarryProcess, token: string, name: string): Promise<string | null> => {
  const res = await flowCall(quarry.url, token, "path", name, "POST", "/deploy", {});
  if (res.status === 200) return null;
  const detail = detailOf(res.text);
  if (!/still running/.test(detail)) return detail;
  for (;;) {
    await new Promise((r) => setTimeout(r, 5_000));
    const summary = JSON.parse((await flowCall(quarry.url, token, "path", name, "GET", "")).text) as {
      status: string;
    };
    if (summary.status === "Deployed") return null;
    if (summary.status === "Failed") return "the deploy failed";
  }
};

export const benchEvaluation = async (quarry: QuarryProcess) => {
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const sf = loadSciFact();
  if (!sf) return "Evaluation: SciFact (../shared/eval/scifact) not found, skipped";
  const limit = Math.max(1, Math.min(sf.queries.length, Number(process.env.BENCH_EVAL_QUERIES ?? sf.queries.length)));
  const queries = sf.queries.slice(0, limit);
  const project = await ensureProject(`bench-evaluation-${Date.now()}`);
  say(`Evaluation: ingesting SciFact train's ${sf.docs.length} documents once…`);
  const { docOfSource, ms: ingestMs } = await ingestSciFact({ projectId: project.id, docs: sf.docs });
  const sourceOfDoc = new Map([...docOfSource].map(([source, doc]) => [doc, source]));
  const fileIds = [...docOfSource.keys()];
  await importTestSet({
    projectId: project.id,
    name: "scifact-train",
    format: "jsonl",
    content: queries
      .map((q) =>
        JSON.stringify({
          question: q.text,
          relevant_file_ids: [...(sf.qrels.get(q.id) ?? [])].flatMap((d) => sourceOfDoc.get(d) ?? []),
        }),
      )
      .join("\n"),
  });
  const { token } = await createApiToken({ projectId: project.id, name: "bench evaluation" });

  const rows: (string | number)[][] = [["flow", "nDCG@10", "context precision", "context recall", "ms / query"]];
  const notes: string[] = [];
  for (const kind of ["plain", "graph-rag", "raptor-rag"] as const) {
    const name = kind === "plain" ? "plain-rag" : kind;
    await saveFlow({ projectId: project.id, name, graph: flowGraph(fileIds, kind), replace: true });
    // Through the running app: the deploy job builds chunk sets (and graphs or trees) as it would for a user.
    const problem = await deploy(quarry, token, name);
    if (problem) {
      notes.push(`${name}: not available (${problem})`);
      continue;
    }
    say(`Evaluation: ${name} deployed, evaluating ${queries.length} queries…`);
    const run = await createEvaluationRun({
      projectId: project.id,
      flowName: name,
      testSet: "scifact-train",
      target: "deployed",
    });
    const started = performance.now();
    const outcome = await runEvaluationInline(run.id);
    const ms = performance.now() - started;
    const done = await db.evaluationRun.findUniqueOrThrow({ where: { id: run.id } });
    const aggregate = (done.aggregates as Record<string, NodeAggregate>)["response-1764000000009"];
    if (outcome.status !== "completed" || !aggregate) {
      notes.push(`${name}: evaluation ${outcome.status} (${done.error ?? "no aggregate"})`);
      continue;
    }
    const m = aggregate.metrics;
    rows.push([
      name,
      fmt(m.ndcg_at_10?.mean ?? NaN, 3),
      fmt(m.contextual_precision?.mean ?? NaN, 3),
      fmt(m.contextual_recall?.mean ?? NaN, 3),
      fmt(ms / queries.length, 0),
    ]);
    if (aggregate.errors) notes.push(`${name}: ${aggregate.errors} of ${aggregate.cases} cases failed`);
  }
  return [
    `Evaluation on SciFact train: ${queries.length} of ${sf.queries.length} queries (BENCH_EVAL_QUERIES), ` +
      `${sf.docs.length} documents ingested once in ${fmt(ingestMs / 1000, 0)} s; precision and recall exact from ` +
      "the gold documents (form gold-file-ids), no judge",
    table(rows),
    ...notes,
  ].join("\n");
};
