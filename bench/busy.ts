import { startProbe } from "@/server/testing/health-probe";
import { apiClient, startQuarry, type QuarryProcess } from "@/server/testing/quarry-process";
import { textDoc } from "@/server/testing/fixtures";
import { watchMemory } from "./hardening/common";
import { GENERATORS } from "./memory";
import { fmt, table } from "./stats";

/**
 * Does the server answer while a large document builds? A 100 MiB .txt (BENCH_BUSY_MB) is uploaded with the
 * default settings (enrichment and indexing on) and with indexing=none, enrichment=none, each on a fresh Quarry
 * (the embedded database's memory never shrinks). Meanwhile three clients call, each every 0.5 s: /api/health (3 s
 * timeout, as a load balancer would), the source list (GET /) and prebuilt-rag restricted to another, small source.
 * The same probes run first for BENCH_BUSY_REFERENCE_S (15) seconds with no build: the reference of the same run.
 * Goal: no health probe over 1 s, list and prebuilt-rag p95 within 1 s, process tree under 600 MB at peak.
 * BENCH_BUSY_SETTINGS picks the scenarios (default "defaults,none"). With QUARRY_DB_SLOW_MS set, the statements and
 * transactions that held the database session longer than that are printed to stderr.
 */

const BUSY_MB = Number(process.env.BENCH_BUSY_MB ?? 100);
const REFERENCE_S = Number(process.env.BENCH_BUSY_REFERENCE_S ?? 15);
const SCENARIOS: Record<string, Record<string, string>> = {
  defaults: {},
  none: { indexing: "none", enrichment: "none" },
};
const PICKED = (process.env.BENCH_BUSY_SETTINGS ?? "defaults,none").split(",");

/** The three probes of the issue, every 0.5 s each; stopped together. */
const startProbes = (quarry: QuarryProcess, smallSourceId: string) => {
  const api = apiClient(quarry);
  const auth = { Authorization: `Bearer ${quarry.token}`, "Content-Type": "application/json" };
  const health = startProbe((signal) => fetch(`${quarry.url}/api/health`, { signal }), {
    intervalMs: 500,
    timeoutMs: 3000,
  });
  const list = startProbe((signal) => fetch(`${api.base}`, { headers: auth, signal }), {
    intervalMs: 500,
    timeoutMs: 60_000,
  });
  const rag = startProbe(
    (signal) =>
      fetch(`${api.base}/prebuilt-rag`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ query: "fossils in the limestone beds", file_ids: [smallSourceId] }),
        signal,
      }),
    { intervalMs: 500, timeoutMs: 60_000 },
  );
  return async () => {
    const [h, l, r] = await Promise.all([health.stop(), list.stop(), rag.stop()]);
    return { health: h, list: l, rag: r };
  };
};

/** The build's current step ("partition", "embed" …), polled every second until stopped. */
const trackStep = (quarry: QuarryProcess, buildId: () => string | null) => {
  let step = "upload";
  const auth = { Authorization: `Bearer ${quarry.token}` };
  const timer = setInterval(async () => {
    const id = buildId();
    if (!id) return;
    const res = await fetch(`${apiClient(quarry).base}/builds/${id}?suppress_elements=true`, { headers: auth }).catch(
      () => null,
    );
    const body = res?.ok ? ((await res.json()) as { status: string; step: string | null }) : null;
    if (body) step = body.step ?? body.status;
  }, 1000);
  return { current: () => step, stop: () => clearInterval(timer) };
};

type Probed = Awaited<ReturnType<ReturnType<typeof startProbes>>>;

/** A small, indexed source for prebuilt-rag to search while the large one builds. */
const smallSource = async (quarry: QuarryProcess) => {
  const api = apiClient(quarry);
  const res = await api.upload("limestone.txt", textDoc(40));
  if (res.status !== 200) throw new Error(`small upload answered ${res.status}: ${await res.text()}`);
  const { build_id } = (await res.json()) as { build_id: string };
  const build = (await api.waitForBuild(build_id)) as { status: string; error: string | null; file_id: string };
  if (build.status !== "Completed") throw new Error(`small source: ${build.status} ${build.error ?? ""}`);
  return build.file_id;
};

const scenario = async (name: string, fields: Record<string, string>) => {
  const quarry = await startQuarry({ env: { QUARRY_RATE_LIMIT_PER_MIN: "0" } });
  try {
    const api = apiClient(quarry);
    const smallId = await smallSource(quarry);
    const stopReference = startProbes(quarry, smallId);
    await new Promise((r) => setTimeout(r, REFERENCE_S * 1000));
    const reference = await stopReference();
    const bytes = GENERATORS.txt!(BUSY_MB);
    let buildId: string | null = null;
    const step = trackStep(quarry, () => buildId);
    const memory = watchMemory(quarry, 100, step.current);
    const stopProbes = startProbes(quarry, smallId);
    const started = performance.now();
    const res = await api.upload("big-log.txt", bytes, fields);
    if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    const acceptedS = (performance.now() - started) / 1000;
    buildId = ((await res.json()) as { build_id: string }).build_id;
    const build = await api.waitForBuild(buildId, 3_600_000);
    const seconds = (performance.now() - started) / 1000;
    const during = await stopProbes();
    step.stop();
    const { peakMb, firstMb, atPeak, byPhase } = memory.stop();
    const composition = {
      atPeak: atPeak.map((p) => `${p.name} ${fmt(p.mb, 0)}`).join(", "),
      bySteps: Object.entries(byPhase)
        .map(([s, mb]) => `${s} ${fmt(mb, 0)}`)
        .join(", "),
    };
    return { name, status: build.status, acceptedS, seconds, reference, during, peakMb, idleMb: firstMb, composition };
  } finally {
    // With QUARRY_DB_SLOW_MS set, the app logs what held the database session longer and what grew the database's
    // memory (server/postgres/session-timing.ts).
    if (process.env.QUARRY_DB_SLOW_MS) {
      const held = quarry
        .output()
        .split("\n")
        .filter((line) => line.includes("database session held"));
      process.stderr.write(`${name}: ${held.length} long holds of the database session\n${held.join("\n")}\n`);
      const grew = quarry
        .output()
        .split("\n")
        .filter((line) => line.includes("database memory grew"));
      process.stderr.write(`${name}: the database's memory grew ${grew.length} times\n${grew.join("\n")}\n`);
    }
    // Why a build ended "Completed with errors": the batches its embed step could not embed.
    const failed = quarry
      .output()
      .split("\n")
      .filter((line) => line.includes("batch failed"));
    if (failed.length > 0) process.stderr.write(`${name}: ${failed.length} failed batches\n${failed.join("\n")}\n`);
    await quarry.dispose();
  }
};

const row = (label: string, p: Probed, extra: (string | number)[]) => [
  label,
  `${fmt(p.health.maxMs, 0)} / ${fmt(p.health.p95Ms, 0)}`,
  `${p.health.failures} of ${p.health.calls}`,
  fmt(p.list.p95Ms, 0) + (p.list.failures ? ` (${p.list.failures} failed)` : ""),
  fmt(p.rag.p95Ms, 0) + (p.rag.failures ? ` (${p.rag.failures} failed)` : ""),
  ...extra,
];

export const benchBusy = async () => {
  const rows: (string | number)[][] = [
    [
      "settings",
      "health max / p95 ms",
      "health failed",
      "list p95 ms",
      "rag p95 ms",
      "idle tree MB",
      "peak tree MB",
      "build s (accepted s)",
      "status",
    ],
  ];
  const notes: string[] = [];
  for (const name of PICKED) {
    const fields = SCENARIOS[name];
    if (!fields) throw new Error(`BENCH_BUSY_SETTINGS: unknown "${name}" (defaults, none)`);
    const r = await scenario(name, fields);
    rows.push(row(`${name}: no build (reference)`, r.reference, ["", "", "", ""]));
    rows.push(
      row(`${name}: ${BUSY_MB} MiB .txt building`, r.during, [
        fmt(r.idleMb, 0),
        fmt(r.peakMb, 0),
        `${fmt(r.seconds, 0)} (${fmt(r.acceptedS, 1)})`,
        r.status,
      ]),
    );
    notes.push(
      `${name}: at the peak, MB by process: ${r.composition.atPeak}; peak MB by step: ${r.composition.bySteps}`,
    );
  }
  return [
    `Busy: health (3 s timeout), the source list and prebuilt-rag of another small source, each every 0.5 s, while ` +
      `a ${BUSY_MB} MiB .txt builds ("defaults": enrichment and indexing on; "none": indexing=none, enrichment=none), ` +
      `each on a fresh Quarry, next to the same probes for ${REFERENCE_S} s with no build. Goal: health max ≤ 1 s, ` +
      `list and rag p95 ≤ 1 s, peak tree ≤ 600 MB.`,
    table(rows),
    ...notes,
  ].join("\n");
};
