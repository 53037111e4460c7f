import { readdirSync, readFileSync } from "node:fs";
import { fmt, percentile, table, time } from "./stats";

/**
 * The load side of the query-cost bench (bench/querycost.ts): one client, then 20 at once, through prebuilt-rag and
 * through the same SQL alone, with the CPU the database and the app spent per query, read from /proc.
 */

export const CLIENTS = 20;
/** Requests per concurrent run: enough for a p95 that does not hang on one slow request. */
const CONCURRENT_REQUESTS = 400;
const SEQUENTIAL_REQUESTS = 200;
const WARMUP = 40;
/** Linux's clock tick for /proc CPU times; getconf CLK_TCK is 100 on every kernel Quarry runs on. */
const TICK_MS = 10;

/** user + system CPU of a process or thread (a /proc/…/stat file), in ms; null when unreadable (not Linux, not ours). */
const cpuOf = (statFile: string): number | null => {
  try {
    const stat = readFileSync(statFile, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
};

const parentOf = (pid: number): number | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
};

/** CPU per thread of a process, keyed by thread id. */
export const threadCpu = (pid: number): Map<string, number> => {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) out.set(tid, cpuOf(`/proc/${pid}/task/${tid}/stat`) ?? 0);
  } catch {
    // gone, or not Linux
  }
  return out;
};

/**
 * CPU of a real Postgres on this machine, per process: every child of the postmaster (backends, checkpointer, WAL
 * writer, autovacuum), found from one backend's pid. A process that started since a snapshot counts from zero; one
 * that ended takes its time with it (the bench keeps its connections open, and so does the app's pool while busy).
 * Null when the server is not local.
 */
export const postgresCpu = (backendPid: number): (() => Map<number, number> | null) => {
  const postmaster = parentOf(backendPid);
  return () => {
    if (!postmaster || cpuOf(`/proc/${postmaster}/stat`) === null) return null;
    const out = new Map<number, number>();
    for (const entry of readdirSync("/proc")) {
      if (/^\d+$/.test(entry) && parentOf(Number(entry)) === postmaster)
        out.set(Number(entry), cpuOf(`/proc/${entry}/stat`) ?? 0);
    }
    return out;
  };
};

/** CPU spent between two per-process (or per-thread) snapshots, new ones counted from zero. */
export const cpuSince = <K>(was: Map<K, number>, now: Map<K, number>) =>
  [...now].reduce((sum, [key, ms]) => sum + ms - (was.get(key) ?? 0), 0);

export type Meter = {
  /** Snapshot of what the meters read; `spent` gives database and app CPU since a snapshot, in ms. */
  snapshot: () => unknown;
  spent: (since: unknown) => { db: number | null; app: number | null };
};

export type LoadRow = {
  path: string;
  clients: number;
  ms: number[];
  seconds: number;
  db: number | null;
  app: number | null;
  /** CPU of this process (the load's clients) in ms: on two cores it is taken from the app and the database. */
  client: number;
};

const runLoad = async (
  call: (query: string) => Promise<unknown>,
  queries: string[],
  clients: number,
  total: number,
  meter: Meter,
) => {
  const ms: number[] = [];
  let next = 0;
  const before = meter.snapshot();
  const clientBefore = process.cpuUsage();
  const [, took] = await time(() =>
    Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = next++; i < total; i = next++) ms.push((await time(() => call(queries[i % queries.length]!)))[1]);
      }),
    ),
  );
  const spent = meter.spent(before);
  const { user, system } = process.cpuUsage(clientBefore);
  return { ms, seconds: took / 1000, ...spent, client: (user + system) / 1000 };
};

/** One client, then CLIENTS at once, through the API and through the SQL alone. */
export const measure = async ({
  api,
  sql,
  prepared,
  queries,
  meter,
}: {
  api: (query: string) => Promise<unknown>;
  sql: (query: string) => Promise<unknown>;
  /** The same SQL as a named prepared statement (real Postgres, full-text engine), measured beside the plain one. */
  prepared?: (query: string) => Promise<unknown>;
  queries: string[];
  meter: Meter;
}): Promise<LoadRow[]> => {
  const paths: [string, (query: string) => Promise<unknown>][] = [
    ["prebuilt-rag (HTTP)", api],
    ["same SQL alone", sql],
    ...(prepared ? [["same SQL, prepared", prepared] as [string, typeof sql]] : []),
  ];
  // Warm every path (plans, caches, the pools' connections) at full concurrency.
  for (const [, call] of paths) await runLoad(call, queries, CLIENTS, WARMUP, meter);
  const rows: LoadRow[] = [];
  for (const clients of [1, CLIENTS]) {
    const total = clients === 1 ? SEQUENTIAL_REQUESTS : CONCURRENT_REQUESTS;
    for (const [path, call] of paths)
      rows.push({ path, clients, ...(await runLoad(call, queries, clients, total, meter)) });
  }
  return rows;
};

export const formatLoad = (database: string, rows: LoadRow[]) => {
  const perQuery = (cpu: number | null, row: LoadRow) => (cpu === null ? "n/a" : fmt(cpu / row.ms.length));
  return table([
    ["database", "path", "clients", "p50 ms", "p95 ms", "q/s", "DB CPU ms/q", "app CPU ms/q", "client CPU ms/q"],
    ...rows.map((r) => [
      database,
      r.path,
      r.clients,
      fmt(percentile(r.ms, 50)),
      fmt(percentile(r.ms, 95)),
      fmt(r.ms.length / r.seconds, 0),
      perQuery(r.db, r),
      r.path.startsWith("same SQL") ? "" : perQuery(r.app, r),
      perQuery(r.client, r),
    ]),
  ]);
};
