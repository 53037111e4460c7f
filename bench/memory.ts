import { readdirSync, readFileSync } from "node:fs";
import { apiClient, type QuarryProcess } from "@/server/testing/quarry-process";
import { fmt, table, time } from "./stats";

/**
 * Peak resident memory of the Quarry process tree (server, parse worker, tools it runs) while it ingests one large
 * file through the API: upload, parse, element storage (indexing=none: embedding 100 MB of text locally takes far
 * longer and is measured by the ingest part). Sampled from /proc every 100 ms.
 */

const BIG_MB = Number(process.env.BENCH_BIG_MB ?? 100);

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

/** A CSV of about `mb` megabytes: a realistic export (ids, dates, names, amounts, free-text notes). */
const bigCsv = (mb: number) => {
  const rows = ["id,date,customer,region,amount,note"];
  let size = rows[0]!.length;
  const regions = ["north", "south", "east", "west"];
  for (let i = 1; size < mb * 1024 * 1024 - 200; i++) {
    const row =
      `${i},2026-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")},` +
      `Customer ${i % 9973},${regions[i % 4]},${(i * 37.5) % 10_000},"Order ${i} shipped granite slabs, ` +
      `batch ${i % 311}, inspected for cracks and polished"`;
    rows.push(row);
    size += row.length + 1;
  }
  return Buffer.from(rows.join("\n"));
};

export const benchMemory = async (quarry: QuarryProcess) => {
  const root = quarry.pid();
  if (!root) return "memory: the app's pid is unknown, skipped";
  const bytes = bigCsv(BIG_MB);
  const api = apiClient(quarry);
  const idle = treeOf(root).reduce((n, pid) => n + rssMb(pid), 0);
  let peak = idle;
  let peakWorker = 0;
  const sampler = setInterval(() => {
    const pids = treeOf(root);
    const total = pids.reduce((n, pid) => n + rssMb(pid), 0);
    peak = Math.max(peak, total);
    peakWorker = Math.max(peakWorker, ...pids.filter((p) => p !== root).map(rssMb));
  }, 100);
  try {
    const [build, ms] = await time(async () => {
      const res = await api.upload("big-export.csv", bytes, { enrichment: "none", indexing: "none" });
      if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      const { build_id } = (await res.json()) as { build_id: string };
      return api.waitForBuild(build_id, 3_600_000);
    });
    return [
      `Memory: one ${fmt(bytes.length / 1024 / 1024)} MB CSV through the API, indexing=none (${build.status}${build.error ? `: ${build.error}` : ""})`,
      table([
        ["measure", "value"],
        ["seconds to Completed", fmt(ms / 1000)],
        ["RSS of the process tree, idle (MB)", fmt(idle, 0)],
        ["peak RSS of the process tree (MB)", fmt(peak, 0)],
        ["peak RSS of one child process (MB)", fmt(peakWorker, 0)],
      ]),
    ].join("\n");
  } finally {
    clearInterval(sampler);
  }
};
