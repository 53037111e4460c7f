import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { apiClient, type QuarryProcess } from "@/server/testing/quarry-process";
import { rssMb, treeOf } from "../memory";
import { percentile } from "../stats";

/** Shared parts of the hostile, load and crash runs (bench/hardening/*.ts and their CI samples). */

export const TERMINAL = new Set(["Completed", "Completed with errors", "Processing failed"]);

/** A process's short name: its script or binary, from /proc (Linux only). */
const nameOf = (pid: number) => {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    const script = argv.find((a, i) => i > 0 && !a.startsWith("-")) ?? argv[0] ?? "?";
    return path.basename(script);
  } catch {
    return "?";
  }
};

/**
 * Resident memory of the app and everything it started, in MB, sampled until stopped; reports the peak, what each
 * process held at that moment, and the peak under each label `phase()` returned (a build's step, say).
 */
export const watchMemory = (quarry: QuarryProcess, everyMs = 250, phase: () => string = () => "run") => {
  let peak = 0;
  let atPeak: { name: string; mb: number }[] = [];
  const byPhase = new Map<string, number>();
  const sample = () => {
    const pid = quarry.pid();
    if (!pid) return 0;
    const parts = treeOf(pid).map((p) => ({ pid: p, mb: rssMb(p) }));
    const mb = parts.reduce((sum, p) => sum + p.mb, 0);
    const label = phase();
    byPhase.set(label, Math.max(byPhase.get(label) ?? 0, mb));
    if (mb > peak) {
      peak = mb;
      atPeak = parts.filter((p) => p.mb > 1).map((p) => ({ name: nameOf(p.pid), mb: p.mb }));
    }
    return mb;
  };
  const first = sample();
  const timer = setInterval(sample, everyMs);
  return {
    first,
    stop: () => {
      clearInterval(timer);
      return { firstMb: first, lastMb: sample(), peakMb: peak, atPeak, byPhase: Object.fromEntries(byPhase) };
    },
  };
};

/**
 * While a run goes on, calls what a client polls most (health, the source list, retrieval) every `everyMs` and
 * counts 5xx answers and health failures (not 200, or no answer within 30 s).
 */
export const sideLoop = (quarry: QuarryProcess, everyMs = 250) => {
  const api = apiClient(quarry);
  const latencies: number[] = [];
  let serverErrors = 0;
  let healthFailures = 0;
  let calls = 0;
  let running = true;
  const timed = async (work: () => Promise<Response>) => {
    const started = Date.now();
    const res = await work().catch(() => null);
    latencies.push(Date.now() - started);
    calls += 1;
    if (res && res.status >= 500) serverErrors += 1;
    await res?.arrayBuffer().catch(() => undefined);
    return res;
  };
  const loop = (async () => {
    while (running) {
      const health = await timed(() => fetch(`${quarry.url}/api/health`, { signal: AbortSignal.timeout(30_000) }));
      if (!health || health.status !== 200) healthFailures += 1;
      await timed(() => api.get(""));
      await timed(() => api.post("/prebuilt-rag", { query: "granite quarry" }));
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return {
        calls,
        serverErrors,
        healthFailures,
        p99Ms: percentile(latencies, 99),
        maxMs: Math.max(0, ...latencies),
      };
    },
  };
};

/** Waits until every build is terminal or `timeoutMs` passed; returns each build's last status and error. */
export const waitForBuilds = async (quarry: QuarryProcess, buildIds: string[], timeoutMs: number) => {
  const api = apiClient(quarry);
  const last = new Map<string, { status: string; error: string | null }>();
  const deadline = Date.now() + timeoutMs;
  let open = [...buildIds];
  while (open.length > 0 && Date.now() < deadline) {
    for (const id of open) {
      const res = await api.get(`/builds/${id}?suppress_elements=true`).catch(() => null);
      if (res?.ok) last.set(id, (await res.json()) as { status: string; error: string | null });
    }
    open = open.filter((id) => !TERMINAL.has(last.get(id)?.status ?? ""));
    if (open.length > 0) await new Promise((r) => setTimeout(r, 1000));
  }
  return last;
};

/** A failure reason a person can act on: a sentence, not a stack trace or a bare code. */
export const isReadable = (error: string | null) =>
  !!error && error.length >= 15 && !/\n\s+at |Internal server error|^Error$|undefined|\[object/.test(error);

/** A pg client on the app's embedded Postgres, as an outside client (the data dir's password). */
export const outsideDb = async (quarry: QuarryProcess) => {
  const port = (JSON.parse(readFileSync(path.join(quarry.dataDir, "pgdata.lock"), "utf8")) as { port: number }).port;
  const password = readFileSync(path.join(quarry.dataDir, "db-password"), "utf8").trim();
  const client = new pg.Client({ connectionString: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres` });
  client.on("error", () => undefined);
  await client.connect();
  return client;
};

/** Rows that belong to nothing: elements, chunks and builds whose source or build is gone. */
export const orphanRows = async (db: pg.Client) => {
  const { rows } = await db.query<{ n: number }>(`
    SELECT (SELECT count(*) FROM public.elements e WHERE NOT EXISTS (SELECT 1 FROM public.builds b WHERE b.id = e.build_id)
                                                    OR NOT EXISTS (SELECT 1 FROM public.sources s WHERE s.id = e.source_id))
         + (SELECT count(*) FROM public.chunks c WHERE NOT EXISTS (SELECT 1 FROM public.builds b WHERE b.id = c.build_id)
                                                  OR NOT EXISTS (SELECT 1 FROM public.sources s WHERE s.id = c.source_id))
         + (SELECT count(*) FROM public.builds b WHERE NOT EXISTS (SELECT 1 FROM public.sources s WHERE s.id = b.source_id))
      AS n`);
  return Number(rows[0]?.n ?? 0);
};
