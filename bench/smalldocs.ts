import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { apiClient, type QuarryProcess } from "@/server/testing/quarry-process";
import { treeOf } from "./memory";
import { fmt, percentile, table } from "./stats";

/**
 * Many small documents: the SciFact corpus's abstracts, each uploaded as its own .txt through the public API (method
 * fast, enrichment and indexing full: the defaults), from the first upload until every source is Completed. Uploads
 * go `UPLOADS_AT_ONCE` at a time, the default per-token upload limit; the Quarry this runs on has the per-token rate
 * limit off (QUARRY_RATE_LIMIT_PER_MIN=0), since 5,183 uploads plus status polls are far more than 1,200 a minute.
 */

const CORPUS = path.resolve(import.meta.dirname, "../../shared/eval/scifact/corpus.jsonl");
const UPLOADS_AT_ONCE = 8;
const TARGET_DOCS_PER_S = 17;
const POLL_MS = 2000;

type Doc = { name: string; text: string };

const readCorpus = (limit: number): Doc[] =>
  readFileSync(CORPUS, "utf8")
    .split("\n")
    .filter(Boolean)
    .slice(0, limit)
    .map((line) => {
      const row = JSON.parse(line) as { _id: string; title: string; text: string };
      return { name: `scifact-${row._id}.txt`, text: `${row.title}\n\n${row.text}` };
    });

/** Counts sources by status from the list endpoint (one call for all of them). */
const statusCounts = async (api: ReturnType<typeof apiClient>) => {
  const res = await api.get("");
  if (!res.ok) return null;
  const sources = (await res.json()) as { status: string }[];
  const counts = new Map<string, number>();
  for (const s of sources) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  return counts;
};

const TICKS_PER_S = 100;

/**
 * CPU seconds the Quarry process tree has used: its live processes, plus the children it has already waited for
 * (retired parse workers). On a shared machine this says more than wall time: documents/s on two free cores is
 * documents / (CPU seconds / 2).
 */
const treeCpuSeconds = (root: number) => {
  let ticks = 0;
  for (const pid of treeOf(root)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime, stime, cutime, cstime
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // exited meanwhile
    }
  }
  return ticks / TICKS_PER_S;
};

export const benchSmallDocs = async (quarry: QuarryProcess, limit = Number(process.env.BENCH_SMALLDOCS ?? 5183)) => {
  if (!existsSync(CORPUS)) return "smalldocs: ../shared/eval/scifact/corpus.jsonl not found, skipped";
  const docs = readCorpus(limit);
  const api = apiClient(quarry);
  const uploadMs: number[] = [];
  const refused: string[] = [];
  const root = quarry.pid();
  const cpu = () => (root ? treeCpuSeconds(root) : NaN);
  const cpuAtStart = cpu();
  const started = Date.now();
  let next = 0;
  const uploader = async () => {
    while (next < docs.length) {
      const doc = docs[next++]!;
      const t = Date.now();
      const res = await api.upload(doc.name, doc.text);
      uploadMs.push(Date.now() - t);
      if (res.status !== 200) refused.push(`${res.status} ${await res.text()}`);
      else await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: UPLOADS_AT_ONCE }, uploader));
  const uploadedAt = Date.now();
  let counts: Map<string, number> | null = null;
  const accepted = docs.length - refused.length;
  const deadline = Date.now() + 3_600_000;
  while (Date.now() < deadline) {
    counts = await statusCounts(api);
    const finished = (counts?.get("Completed") ?? 0) + (counts?.get("Failed") ?? 0);
    if (finished >= accepted) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const doneAt = Date.now();
  const cpuSeconds = cpu() - cpuAtStart;
  const seconds = (doneAt - started) / 1000;
  const completed = counts?.get("Completed") ?? 0;
  return [
    `Small documents: ${docs.length} SciFact abstracts as .txt uploads (${UPLOADS_AT_ONCE} at a time, fast, enrichment and indexing full)`,
    table([
      ["measure", "value"],
      [
        "uploads accepted / refused",
        `${accepted} / ${refused.length}${refused[0] ? ` (${refused[0].slice(0, 80)})` : ""}`,
      ],
      ["seconds, first upload to last accepted", fmt((uploadedAt - started) / 1000)],
      ["upload latency p50 / p95 (ms)", `${percentile(uploadMs, 50)} / ${percentile(uploadMs, 95)}`],
      ["seconds, first upload to all finished", fmt(seconds)],
      ["sources Completed / other", `${completed} / ${docs.length - completed}`],
      ["documents/s", fmt(completed / seconds, 2)],
      ["CPU seconds of the Quarry process tree", fmt(cpuSeconds)],
      ["CPU ms per document", fmt((cpuSeconds * 1000) / docs.length, 0)],
      ["documents/s that CPU allows on 2 free cores", fmt(completed / (cpuSeconds / 2), 2)],
      ["machine load average (1 min) at the end", fmt(loadavg()[0]!, 2)],
      ["target documents/s (5,183 in 5 minutes)", `${TARGET_DOCS_PER_S}`],
    ]),
  ].join("\n");
};
