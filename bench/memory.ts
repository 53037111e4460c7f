import { readdirSync, readFileSync } from "node:fs";
import { apiClient, startQuarry, type QuarryProcess } from "@/server/testing/quarry-process";
import { fmt, percentile, table, time } from "./stats";

/**
 * Peak resident memory of the Quarry process tree (the app with its embedded database thread, parse workers, tools
 * they run) while it ingests one large file through the API: upload, parse, element storage (indexing=none:
 * embedding 100 MB of text locally takes far longer and is measured by the ingest part). Sampled from /proc every
 * 100 ms. Each format runs on a Quarry of its own, as `npm start` runs it: the embedded database's wasm memory grows
 * and never shrinks, so one file's high-water mark would otherwise carry over to the next.
 * Meanwhile another client keeps calling the server (/api/health, then the source list, one after the other) and
 * its latencies are printed: the server must keep answering while it ingests.
 * BENCH_BIG_MB (default 100) sets the size, BENCH_MEMORY_FORMATS (default csv,txt,md) the formats.
 */

const BIG_MB = Number(process.env.BENCH_BIG_MB ?? 100);
const FORMATS = (process.env.BENCH_MEMORY_FORMATS ?? "csv,txt,md").split(",");

/** Every process whose ancestry leads to `root`, from /proc (Linux only). */
export const treeOf = (root: number): number[] => {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // exited meanwhile
    }
  }
  const tree = [root];
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (tree.includes(ppid) && !tree.includes(pid)) {
        tree.push(pid);
        grew = true;
      }
    }
  }
  return tree;
};

export const rssMb = (pid: number) => {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
};

/** Lines of about `mb` megabytes, joined by "\n". */
const linesOf = (mb: number, line: (i: number) => string) => {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < mb * 1024 * 1024 - 200; i++) {
    const text = line(i);
    parts.push(text);
    size += Buffer.byteLength(text) + 1;
  }
  return Buffer.from(parts.join("\n"));
};

const REGIONS = ["north", "south", "east", "west"];

/** A realistic export (ids, dates, names, amounts, free-text notes). */
const bigCsv = (mb: number) =>
  linesOf(mb, (i) =>
    i === 0
      ? "id,date,customer,region,amount,note"
      : `${i},2026-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")},` +
        `Customer ${i % 9973},${REGIONS[i % 4]},${(i * 37.5) % 10_000},"Order ${i} shipped granite slabs, ` +
        `batch ${i % 311}, inspected for cracks and polished"`,
  );

const sentence = (i: number) =>
  `Shipment ${i} of granite slabs left the ${REGIONS[i % 4]} quarry on day ${i % 365}, ` +
  `inspected for cracks by crew ${i % 97} and polished to grade ${i % 7}.`;

/** Prose: paragraphs of a few sentences, a bulleted list now and then, a short title-like line between sections. */
const bigText = (mb: number) =>
  linesOf(mb, (i) => {
    if (i % 40 === 0) return `\nQuarry log, section ${i / 40}\n`;
    if (i % 13 === 0) return `- item ${i}: ${sentence(i)}\n- item ${i + 1}: ${sentence(i + 1)}\n`;
    return `${sentence(i)} ${sentence(i + 1)} ${sentence(i + 2)}\n`;
  });

/** Markdown: headings, paragraphs, lists, a small table and a code block now and then. */
const bigMarkdown = (mb: number) =>
  linesOf(mb, (i) => {
    if (i % 50 === 0) return `\n## Section ${i / 50}\n`;
    if (i % 17 === 0) return `| crew | slabs | grade |\n| --- | --- | --- |\n| ${i % 97} | ${i} | ${i % 7} |\n`;
    if (i % 23 === 0) return "```\n" + `inspect --slab ${i} --grade ${i % 7}\n` + "```\n";
    if (i % 11 === 0) return `* ${sentence(i)}\n* ${sentence(i + 1)}\n`;
    return `${sentence(i)} **${i}** ${sentence(i + 1)}\n`;
  });

export const GENERATORS: Record<string, (mb: number) => Buffer> = { csv: bigCsv, txt: bigText, md: bigMarkdown };

/** Peaks of the tree and of its processes, sampled every 100 ms until stopped. */
const sampleTree = (root: number) => {
  let peakTree = 0;
  let peakApp = 0;
  let peakChild = 0;
  const sample = () => {
    const pids = treeOf(root);
    const sizes = pids.map((pid) => [pid, rssMb(pid)] as const);
    peakTree = Math.max(
      peakTree,
      sizes.reduce((n, [, mb]) => n + mb, 0),
    );
    peakApp = Math.max(peakApp, ...sizes.filter(([pid]) => pid === root).map(([, mb]) => mb));
    peakChild = Math.max(peakChild, 0, ...sizes.filter(([pid]) => pid !== root).map(([, mb]) => mb));
  };
  sample();
  const idle = peakTree;
  const timer = setInterval(sample, 100);
  return {
    idle,
    stop: () => {
      clearInterval(timer);
      sample();
      return { peakTree, peakApp, peakChild };
    },
  };
};

/** Another client: /api/health, then the source list, in a loop until stopped; the latency of each call. */
const callApiMeanwhile = (quarry: QuarryProcess) => {
  const api = apiClient(quarry);
  const ms: number[] = [];
  let failures = 0;
  let running = true;
  const call = async (request: () => Promise<Response>) => {
    const started = performance.now();
    const ok = await request().then(
      async (res) => (await res.arrayBuffer(), res.ok),
      () => false,
    );
    ms.push(performance.now() - started);
    if (!ok) failures++;
  };
  const loop = (async () => {
    while (running) {
      await call(() => fetch(`${quarry.url}/api/health`, { signal: AbortSignal.timeout(120_000) }));
      await call(() => api.get(""));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return { calls: ms.length, failures, p50: percentile(ms, 50), p95: percentile(ms, 95), max: Math.max(0, ...ms) };
  };
};

export const measure = async (quarry: QuarryProcess, format: string) => {
  const root = quarry.pid();
  if (!root) throw new Error("the app's pid is unknown");
  const bytes = GENERATORS[format]!(BIG_MB);
  const api = apiClient(quarry);
  const sampler = sampleTree(root);
  const stopCalls = callApiMeanwhile(quarry);
  try {
    const [build, ms] = await time(async () => {
      const res = await api.upload(`big-export.${format}`, bytes, { enrichment: "none", indexing: "none" });
      if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      const { build_id } = (await res.json()) as { build_id: string };
      return api.waitForBuild(build_id, 3_600_000);
    });
    const peaks = sampler.stop();
    const calls = await stopCalls();
    return {
      format,
      mb: bytes.length / 1024 / 1024,
      status: `${build.status}${build.error ? `: ${build.error}` : ""}`,
      seconds: ms / 1000,
      idle: sampler.idle,
      ...peaks,
      calls,
    };
  } finally {
    sampler.stop();
    await stopCalls();
  }
};

export const benchMemory = async () => {
  const rows: (string | number)[][] = [
    [
      "format",
      "file MB",
      "status",
      "s to done",
      "idle tree MB",
      "peak tree MB",
      "peak app MB",
      "peak child MB",
      "API calls",
      "p50 / p95 / max ms",
    ],
  ];
  for (const format of FORMATS) {
    const quarry = await startQuarry({ env: { QUARRY_RATE_LIMIT_PER_MIN: "0" } });
    try {
      const r = await measure(quarry, format);
      rows.push([
        r.format,
        fmt(r.mb, 0),
        r.status,
        fmt(r.seconds),
        fmt(r.idle, 0),
        fmt(r.peakTree, 0),
        fmt(r.peakApp, 0),
        fmt(r.peakChild, 0),
        `${r.calls.calls}${r.calls.failures ? ` (${r.calls.failures} failed)` : ""}`,
        `${fmt(r.calls.p50, 0)} / ${fmt(r.calls.p95, 0)} / ${fmt(r.calls.max, 0)}`,
      ]);
    } finally {
      await quarry.dispose();
    }
  }
  return [
    `Memory: one large file per format through the API, indexing=none, each on a fresh Quarry (embedded database ` +
      `inside the app process; "child": the largest parse worker or tool; "API calls": another client calling ` +
      `/api/health and the source list meanwhile). Goal: peak tree ≤ 600 MB at 100 MB.`,
    table(rows),
  ].join("\n");
};
