import path from "node:path";
import { readFileSync } from "node:fs";
import { db } from "@/server/db";
import { FlowFile } from "@/server/flows/flow-file";
import { saveFlow } from "@/server/flows/service";
import { apiClient, type QuarryProcess } from "@/server/testing/quarry-process";
import { flowCall } from "@/server/testing/flow-client";
import { fmt, percentile, table } from "./stats";

/**
 * Flow run latency (`BENCH_ONLY=flows`): the two example flows, deployed over the same generated documents, each run
 * BENCH_FLOW_RUNS times (default 50) next to a direct `POST /prebuilt-rag` with the same retrieval (hybrid). The
 * flows' response node answers with the local extractive answerer (no chat model is configured in the bench), so
 * the gap to prebuilt-rag is the flow engine, the answerer and, for reranked-rag, the reranker.
 */

const DOCS = 20;
const QUERIES = [
  "How are granite blocks cut?",
  "What is basalt crushed for?",
  "Which saws cut marble?",
  "Where is limestone burned?",
  "How heavy are the blocks?",
];
const STONES = ["granite", "basalt", "marble", "limestone", "slate"];

const docText = (n: number) =>
  Array.from({ length: 40 }, (_, i) => {
    const stone = STONES[(n + i) % STONES.length]!;
    return `Section ${i} of report ${n}. The ${stone} at pit ${n} is cut with wire saws; blocks weigh ${(i % 9) + 4} tonnes and the ${stone} dust is crushed for road gravel or burned for lime.`;
  }).join("\n\n");

export const benchFlows = async (quarry: QuarryProcess) => {
  const runs = Number(process.env.BENCH_FLOW_RUNS ?? 50);
  const api = apiClient(quarry);
  const names: string[] = [];
  for (let n = 0; n < DOCS; n++) {
    const name = `flow-bench-${n}.txt`;
    const { build_id } = (await (await api.upload(name, docText(n))).json()) as { build_id: string };
    await api.waitForBuild(build_id);
    names.push(name);
  }
  const root = path.resolve(import.meta.dirname, "..");
  const flows = [
    { name: "plain-rag", dataset: "dataset-1764000000001" },
    { name: "reranked-rag", dataset: "dataset-1764000000011" },
  ];
  const deployMs: Record<string, number> = {};
  const projectId = (await db.project.findFirstOrThrow({ where: { name: "default" } })).id;
  for (const flow of flows) {
    // In process, not through the CLI: this process serves the database, so a synchronous CLI call would wait forever.
    const file = FlowFile.parse(JSON.parse(readFileSync(path.join(root, `examples/flows/${flow.name}.json`), "utf8")));
    await saveFlow({ projectId, name: file.name, graph: file, prompts: file.prompts, replace: true });
    const call = (method: string, suffix: string, body?: unknown) =>
      flowCall(quarry.url, quarry.token, "path", flow.name, method, suffix, body);
    await call("PATCH", `/datasets/${flow.dataset}`, { files: names });
    const started = performance.now();
    const res = await call("POST", "/deploy", {});
    if (res.status !== 200) throw new Error(`deploy ${flow.name}: ${res.text}`);
    deployMs[flow.name] = performance.now() - started;
  }

  const measure = async (run: (query: string) => Promise<unknown>) => {
    for (const q of QUERIES) await run(q); // warm-up
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await run(QUERIES[i % QUERIES.length]!);
      times.push(performance.now() - started);
    }
    return times;
  };
  const runFlow = (name: string) => async (query: string) => {
    const res = await flowCall(quarry.url, quarry.token, "path", name, "POST", "", { query });
    if (res.status !== 200) throw new Error(`run ${name}: ${res.text}`);
  };
  const prebuilt = async (query: string) => {
    const res = await api.post("/prebuilt-rag", { query, search_type: "hybrid" });
    if (res.status !== 200) throw new Error(`prebuilt-rag: ${await res.text()}`);
    await res.json();
  };
  const rows: (string | number)[][] = [["what", "p50 ms", "p95 ms"]];
  for (const [label, run] of [
    ["prebuilt-rag (hybrid, reference)", prebuilt],
    ["flow plain-rag (hybrid top 8 → extractive answer)", runFlow("plain-rag")],
    ["flow reranked-rag (own chunks, hybrid top 30 → rerank 5 → answer)", runFlow("reranked-rag")],
  ] as const) {
    const times = await measure(run);
    rows.push([label, fmt(percentile(times, 50)), fmt(percentile(times, 95))]);
  }
  return [
    `Flow runs: ${DOCS} documents, ${runs} runs each, sequential (BENCH_FLOW_RUNS)`,
    table(rows),
    `deploy: plain-rag ${fmt(deployMs["plain-rag"]!, 0)} ms, reranked-rag ${fmt(deployMs["reranked-rag"]!, 0)} ms (its chunk sets built)`,
  ].join("\n");
};
