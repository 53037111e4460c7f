import { apiClient, type QuarryProcess } from "@/server/testing/quarry-process";
import { textDoc } from "@/server/testing/fixtures";
import { fmt, percentile, table } from "../stats";
import { waitForBuilds, watchMemory } from "./common";
import { prng } from "./hostile-files";

/**
 * The load run: `clients` concurrent clients for `seconds`, each looping over a mix of ingest, build status,
 * get-elements, the source list and retrieval (and ask, once the endpoint exists). Reports errors, latency
 * percentiles per operation and how the memory of the app's process tree grew.
 */

type Op = "ingest" | "build" | "elements" | "list" | "retrieve" | "ask";
const MIX: [Op, number][] = [
  ["ingest", 0.08],
  ["build", 0.12],
  ["elements", 0.25],
  ["list", 0.15],
  ["retrieve", 0.3],
  ["ask", 0.1],
];

export type LoadReport = {
  clients: number;
  seconds: number;
  requests: number;
  errors: number;
  errorSamples: string[];
  byOp: Record<string, { n: number; p50: number; p95: number; p99: number }>;
  memory: { firstMb: number; lastMb: number; peakMb: number };
};

export const runLoad = async ({
  quarry,
  clients,
  seconds,
}: {
  quarry: QuarryProcess;
  clients: number;
  seconds: number;
}) => {
  const api = apiClient(quarry);
  // Something to read: a few indexed documents.
  const seeds: { buildId: string; fileId: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await api.upload(`load-seed-${i}.txt`, textDoc(40, `granite${i}`));
    seeds.push({ buildId: ((await res.json()) as { build_id: string }).build_id, fileId: "" });
  }
  const done = await waitForBuilds(
    quarry,
    seeds.map((s) => s.buildId),
    300_000,
  );
  for (const s of seeds) s.fileId = (done.get(s.buildId) as unknown as { file_id: string }).file_id;
  const askExists = (await api.post("/ask-sources", {})).status !== 404;

  const latencies = new Map<Op, number[]>();
  let errors = 0;
  const errorSamples: string[] = [];
  const memory = watchMemory(quarry);
  const deadline = Date.now() + seconds * 1000;
  const client = async (n: number) => {
    const rand = prng(n + 1);
    while (Date.now() < deadline) {
      let r = rand();
      let op: Op = "list";
      for (const [name, weight] of MIX) {
        if ((r -= weight) <= 0) {
          op = name;
          break;
        }
      }
      if (op === "ask" && !askExists) op = "retrieve";
      const seed = seeds[Math.floor(rand() * seeds.length)]!;
      const started = Date.now();
      const res = await (
        op === "ingest"
          ? api.upload(`load-${n}-${started}.txt`, textDoc(5, "basalt"), { enrichment: "none" })
          : op === "build"
            ? api.get(`/builds/${seed.buildId}?suppress_elements=true`)
            : op === "elements"
              ? api.get(`/get-elements?file_id=${seed.fileId}&page=1&page_size=20`)
              : op === "list"
                ? api.get("")
                : op === "ask"
                  ? api.post("/ask-sources", { question: "What is granite?", file_ids: [seed.fileId] })
                  : api.post("/prebuilt-rag", { query: "granite fossils bedding", file_ids: [seed.fileId] })
      ).catch((e: unknown) => ({ status: 0, text: async () => String(e) }) as Response);
      const ms = Date.now() - started;
      if (res.status !== 200) {
        errors += 1;
        if (errorSamples.length < 5) errorSamples.push(`${op} ${res.status} ${(await res.text()).slice(0, 120)}`);
      } else await res.arrayBuffer();
      latencies.set(op, [...(latencies.get(op) ?? []), ms]);
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  const byOp = Object.fromEntries(
    [...latencies].map(([op, values]) => [
      op,
      { n: values.length, p50: percentile(values, 50), p95: percentile(values, 95), p99: percentile(values, 99) },
    ]),
  );
  const requests = [...latencies.values()].reduce((s, v) => s + v.length, 0);
  return { clients, seconds, requests, errors, errorSamples, byOp, memory: memory.stop() } satisfies LoadReport;
};

export const formatLoad = (r: LoadReport) =>
  `Load: ${r.clients} clients for ${r.seconds} s: ${r.requests} requests, ${r.errors} errors` +
  ` (${fmt((100 * r.errors) / Math.max(1, r.requests), 2)} %); memory ${fmt(r.memory.firstMb, 0)} → ${fmt(r.memory.lastMb, 0)} MB` +
  ` (peak ${fmt(r.memory.peakMb, 0)} MB)\n` +
  table([
    ["operation", "requests", "p50 ms", "p95 ms", "p99 ms"],
    ...Object.entries(r.byOp).map(([op, s]) => [op, s.n, s.p50, s.p95, s.p99]),
  ]) +
  (r.errorSamples.length ? `\nerrors: ${r.errorSamples.join(" | ")}` : "");
