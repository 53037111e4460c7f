/**
 * `npm run bench`: figures, not pass/fail. Starts its own Quarry on a temporary embedded Postgres, then prints
 * ingest throughput next to pdftotext, pages/s per partition method next to pdftotext and the tesseract CLI, peak
 * memory while ingesting a 100 MB file, retrieval quality on SciFact with prebuilt-rag latency next to the raw SQL it
 * runs, and the scale point (BENCH_SCALE_CHUNKS, default 250,000 chunks, about 20 minutes on two cores; also on a
 * real Postgres beside the embedded one when QUARRY_BENCH_POSTGRES_URL is set, bench/scale.ts).
 * The memory run starts a Quarry per format (text, Markdown, CSV; BENCH_BIG_MB, default 100) and prints the peak of the
 * whole process tree and of its largest process next to the file size.
 * The s3 run (bench/s3.ts) ingests the same large file with the local store and with STORAGE_DRIVER=s3 (s3rver) and
 * prints the peak memory of each side by side.
 * The busy run (bench/busy.ts) uploads a 100 MiB .txt with the defaults and with indexing=none on a fresh Quarry
 * each and prints health, list and prebuilt-rag latency meanwhile next to the same probes with no build.
 * The hardening runs start their own Quarry each (its embedded database inside, as `npm start` runs): hostile files
 * (BENCH_HOSTILE_VARIANTS, default 10,000), load (BENCH_LOAD_CLIENTS 50 for BENCH_LOAD_SECONDS 300), crash
 * (kill -9 during BENCH_CRASH_INGESTS 50 ingests, BENCH_CRASH_ROUNDS 3 times) and responsiveness (health latency
 * while a BENCH_STALL_MB 20 MB text ingests).
 * The quality run scores every method on public documents with reference outputs (bench/quality/manifest.ts).
 * Autospeed: auto's parse time next to fast's and pdftotext's on whole born-digital PDFs, and whether its output is
 * fast's (bench/autospeed.ts).
 * Answers: citation precision of the local answerer on SciFact train, and streaming times with a stand-in model.
 * Flows: run latency of the example flows (bench/flows.ts) next to a direct prebuilt-rag with the same retrieval.
 * RAPTOR: the two clustering methods of server/raptor/cluster.ts on SciFact train documents (time, silhouette,
 * co-relevance; bench/raptor.ts), in this process.
 * Evaluation: SciFact train as a test set with gold documents through a plain, a graph-rag and a raptor-rag flow
 * (bench/evaluation.ts): nDCG@10 and exact context precision/recall per flow (BENCH_EVAL_QUERIES, default all 809).
 * Query cost: prebuilt-rag on SciFact with 1 and 20 clients next to its SQL alone, with database and app CPU per query,
 * embedded and (QUARRY_BENCH_POSTGRES_URL) on a real Postgres (bench/querycost.ts).
 * Replicas: two app replicas on a throwaway Postgres 15 with S3 (s3rver) take 1,000 uploads while one is killed with
 * -9 and restarted, then every upload is checked to be built once (bench/replicas.ts).
 * Pathological: token counting of long runs without spaces and a PDF of 200,000 nested graphics states, each next to
 * a reference in the same run (bench/pathological.ts).
 * Scans: digit-token F1 of Tesseract, PP-OCR and the engine choice on 300-dpi renders (bench/quality/scans.ts).
 * BENCH_ONLY=ingest,methods,quality,scans,autospeed,raptor,querycost,memory,s3,busy,retrieval,answers,flows,evaluation,
 * scale,smalldocs,hostile,load,crash,responsiveness,replicas,pathological
 * picks parts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

process.env.LOG_LEVEL ??= "warn";

/** Parts that start a Quarry of their own (embedded database inside, as `npm start` runs it). */
const HARDENING = ["memory", "s3", "replicas", "busy", "smalldocs", "hostile", "load", "crash", "responsiveness"];
/** Parts that need no database of this process (querycost starts Quarries of its own). */
const STANDALONE = ["quality", "scans", "autospeed", "raptor", "querycost", "pathological"];
const numberEnv = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** Each hardening run on a Quarry of its own, as a person runs it (embedded database in the app's process). */
const runHardening = async (wanted: (name: string) => boolean) => {
  const { startQuarry } = await import("@/server/testing/quarry-process");
  const run = async (
    env: Record<string, string>,
    work: (q: Awaited<ReturnType<typeof startQuarry>>) => Promise<string>,
  ) => {
    const quarry = await startQuarry({ env });
    try {
      process.stdout.write(`${await work(quarry)}\n\n`);
    } finally {
      await quarry.dispose();
    }
  };
  if (wanted("memory")) {
    // One Quarry per format (bench/memory.ts starts them): the database's high-water mark must not carry over.
    const { benchMemory } = await import("./memory");
    process.stdout.write(`${await benchMemory()}\n\n`);
  }
  if (wanted("s3")) {
    // The same large file with the local store and with S3 (bench/s3.ts starts a Quarry and s3rver for each).
    const { benchS3 } = await import("./s3");
    process.stdout.write(`${await benchS3()}\n\n`);
  }
  if (wanted("replicas")) {
    // Two Quarries on a throwaway real Postgres and an s3rver bucket (bench/replicas.ts starts them all).
    const { benchReplicas } = await import("./replicas");
    process.stdout.write(`${await benchReplicas()}\n\n`);
  }
  if (wanted("busy")) {
    // A Quarry per scenario (bench/busy.ts starts them), for the same reason.
    const { benchBusy } = await import("./busy");
    process.stdout.write(`${await benchBusy()}\n\n`);
  }
  if (wanted("smalldocs")) {
    const { benchSmallDocs } = await import("./smalldocs");
    await run({ QUARRY_RATE_LIMIT_PER_MIN: "0" }, (quarry) => benchSmallDocs(quarry));
  }
  if (wanted("hostile")) {
    const { runHostile, formatHostile } = await import("./hardening/hostile");
    await run({ QUARRY_PARSE_TIMEOUT_S: "120", QUARRY_RATE_LIMIT_PER_MIN: "0" }, async (quarry) =>
      formatHostile(await runHostile({ quarry, count: numberEnv("BENCH_HOSTILE_VARIANTS", 10_000) })),
    );
  }
  if (wanted("load")) {
    const { runLoad, formatLoad } = await import("./hardening/load");
    await run({ QUARRY_RATE_LIMIT_PER_MIN: "0", QUARRY_UPLOADS_PER_TOKEN: "0" }, async (quarry) =>
      formatLoad(
        await runLoad({
          quarry,
          clients: numberEnv("BENCH_LOAD_CLIENTS", 50),
          seconds: numberEnv("BENCH_LOAD_SECONDS", 300),
        }),
      ),
    );
  }
  if (wanted("crash")) {
    const { runCrash, formatCrash } = await import("./hardening/crash");
    await run({ QUARRY_RATE_LIMIT_PER_MIN: "0" }, async (quarry) =>
      formatCrash(
        await runCrash({
          quarry,
          rounds: numberEnv("BENCH_CRASH_ROUNDS", 3),
          ingests: numberEnv("BENCH_CRASH_INGESTS", 50),
        }),
      ),
    );
  }
  if (wanted("responsiveness")) {
    const { runResponsiveness, formatResponsiveness } = await import("./hardening/responsiveness");
    await run({}, async (quarry) =>
      formatResponsiveness(await runResponsiveness({ quarry, mb: numberEnv("BENCH_STALL_MB", 20) })),
    );
  }
};

const main = async () => {
  const only = process.env.BENCH_ONLY?.split(",");
  const wanted = (name: string) => !only || only.includes(name);
  if (wanted("quality")) {
    const { benchQuality } = await import("./quality/run");
    process.stdout.write(`${await benchQuality()}\n\n`);
  }
  if (wanted("scans")) {
    const { benchScans } = await import("./quality/scans");
    process.stdout.write(`${await benchScans()}\n\n`);
  }
  if (wanted("autospeed")) {
    const { benchAutoSpeed } = await import("./autospeed");
    process.stdout.write(`${await benchAutoSpeed()}\n\n`);
  }
  if (wanted("raptor")) {
    const { benchRaptor } = await import("./raptor");
    process.stdout.write(`${await benchRaptor()}\n\n`);
  }
  if (wanted("pathological")) {
    const { benchPathological } = await import("./pathological");
    process.stdout.write(`${await benchPathological()}\n\n`);
  }
  if (wanted("querycost")) {
    // Quarries of its own (the embedded database inside, as `npm start` runs it; a real Postgres when given).
    const { benchQueryCost } = await import("./querycost");
    process.stdout.write(`${await benchQueryCost()}\n\n`);
  }
  if (only && only.every((name) => HARDENING.includes(name) || STANDALONE.includes(name))) {
    return runHardening(wanted);
  }
  const dir = mkdtempSync(path.join(tmpdir(), "quarry-bench-"));
  const { startEmbeddedPostgres } = await import("@/server/postgres/embedded-postgres");
  const pgServer = await startEmbeddedPostgres({ dataDir: path.join(dir, "db"), port: 0 });
  const { setRuntimeEnv } = await import("@/server/env");
  setRuntimeEnv("DATABASE_URL", pgServer.url);
  const { applyMigrations } = await import("@/server/postgres/migrate");
  await applyMigrations({ url: pgServer.url });

  const { startQuarry } = await import("@/server/testing/quarry-process");
  const quarry = await startQuarry({ env: { DATABASE_URL: pgServer.url, QUARRY_JOB_CONCURRENCY: "2" } });
  try {
    const { benchIngest } = await import("./ingest");
    const { benchMethods } = await import("./methods");
    const { benchRetrieval } = await import("./retrieval");
    if (wanted("ingest")) process.stdout.write(`${await benchIngest(quarry)}\n\n`);
    if (wanted("methods")) process.stdout.write(`${await benchMethods()}\n\n`);
    if (wanted("retrieval")) process.stdout.write(`${await benchRetrieval({ quarry, databaseUrl: pgServer.url })}\n\n`);
    if (wanted("answers")) {
      const { benchAnswers } = await import("./answers");
      process.stdout.write(`${await benchAnswers()}\n\n`);
    }
    if (wanted("flows")) {
      const { benchFlows } = await import("./flows");
      process.stdout.write(`${await benchFlows(quarry)}\n\n`);
    }
    if (wanted("evaluation")) {
      const { benchEvaluation } = await import("./evaluation");
      process.stdout.write(`${await benchEvaluation(quarry)}\n\n`);
    }
    if (wanted("scale")) {
      const { benchScale } = await import("./scale");
      process.stdout.write(`${await benchScale({ databaseUrl: pgServer.url })}\n`);
    }
  } finally {
    await quarry.dispose();
    const { closeSearchPool } = await import("@/server/retrieval/search-pool");
    await closeSearchPool();
    const { disconnectDb } = await import("@/server/db");
    await disconnectDb();
    await pgServer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  await runHardening(wanted);
};

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
