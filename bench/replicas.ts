import pg from "pg";
import { preparePostgres, startRealPostgres } from "@/scripts/real-postgres";
import { apiClient, startQuarry, type QuarryProcess } from "@/server/testing/quarry-process";
import { lockerPid } from "@/server/testing/replicas";
import { startS3StandIn } from "@/server/testing/s3-stand-in";
import { createScratchDatabase } from "@/server/testing/scratch-database";
import { fmt, table } from "./stats";

/**
 * `BENCH_ONLY=replicas`: two app replicas (`npm start` twice, each its own data dir: no disk in common) on a
 * throwaway Debian Postgres 15 and one s3rver bucket (STORAGE_DRIVER=s3). BENCH_REPLICAS_UPLOADS (default 1,000)
 * small Markdown uploads are split across them, BENCH_REPLICAS_CONCURRENCY (default 8) at a time; half-way one
 * replica is `kill -9`ed and started again. A request that the kill cut is sent again to the other replica, as a load
 * balancer would. Then every accepted upload is checked in the database and the bucket: its build Completed with one
 * job run, its chunks one set (positions 0..n-1, as many as the chunk set counts), its original in the bucket. Bounded
 * by BENCH_REPLICAS_TIMEOUT_S (default 900): past it the bench stops and says what was left.
 */

const numberEnv = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const LEASE_MS = 5000;

const doc = (i: number) =>
  `# Upload ${i}\n\nBlock ${i} was cut from bench ${i % 17} of the quarry with a diamond wire saw.\n\n` +
  `It was polished, numbered ${i} and stacked in row ${i % 31} of the yard until shipping.\n`;

type Upload = { buildId: string; replica: "a" | "b"; attempts: number };

/** Sends upload `i` to its replica; a request cut by the kill goes again to the other one. */
const sendUpload = async (i: number, replicas: QuarryProcess[], token: string, deadline: number): Promise<Upload> => {
  for (let attempt = 1; Date.now() < deadline; attempt++) {
    const index = (i + attempt - 1) % 2;
    // A request the kill cuts fails in fetch or while its answer is read: both mean "send it again".
    const answer = await apiClient({ url: replicas[index]!.url, token })
      .upload(`upload-${i}.md`, doc(i), { enrichment: "none" })
      .then(async (res) => ({ status: res.status, text: await res.text() }))
      .catch(() => null);
    if (answer?.status === 200) {
      const { build_id } = JSON.parse(answer.text) as { build_id: string };
      return { buildId: build_id, replica: index === 0 ? "a" : "b", attempts: attempt };
    }
    if (answer && answer.status < 500) throw new Error(`upload ${i}: HTTP ${answer.status} ${answer.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`upload ${i} not accepted before the deadline`);
};

/** Builds of `ids` still Pending or Processing. */
const unfinished = async (sql: pg.Client, ids: string[]) =>
  (
    await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM builds WHERE id = ANY($1::uuid[]) AND status IN ('Pending', 'Processing')`,
      [ids],
    )
  ).rows[0]!.n;

const waitUntilFinished = async (sql: pg.Client, ids: string[], deadline: number) => {
  while ((await unfinished(sql, ids)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  return unfinished(sql, ids);
};

/** What the database and the bucket hold for the accepted uploads, as counts of what is wrong (all 0 when right). */
const verify = async (sql: pg.Client, ids: string[], objects: Set<string>) => {
  const one = async (query: string) => (await sql.query<{ n: number }>(query, [ids])).rows[0]!.n;
  const notCompleted = await one(
    `SELECT count(*)::int AS n FROM builds WHERE id = ANY($1::uuid[]) AND status <> 'Completed'`,
  );
  const runs = await sql.query<{ n: number; completed: number }>(
    `SELECT count(r.id)::int AS n, count(r.id) FILTER (WHERE r.status = 'completed')::int AS completed
       FROM unnest($1::uuid[]) AS b(id)
       LEFT JOIN job_runs r ON r.event->'data'->>'buildId' = b.id::text AND r.function_id LIKE '%process-source-build'
      GROUP BY b.id`,
    [ids],
  );
  const runsNotOne = runs.rows.filter((r) => r.n !== 1 || r.completed !== 1).length;
  // Chunk sets of the accepted builds whose chunks are not exactly positions 0..n-1 with n = the set's count.
  const badChunkSets = await one(
    `SELECT count(*)::int AS n FROM (
       SELECT cs.id FROM chunk_sets cs LEFT JOIN chunks c ON c.chunk_set_id = cs.id
        WHERE cs.build_id = ANY($1::uuid[])
        GROUP BY cs.id, cs.chunk_count
       HAVING count(c.id) = 0 OR count(c.id) <> cs.chunk_count OR count(DISTINCT c.position) <> count(c.id)
           OR max(c.position) <> count(c.id) - 1) bad`,
  );
  const withoutChunkSet = await one(
    `SELECT count(*)::int AS n FROM unnest($1::uuid[]) AS b(id)
      WHERE NOT EXISTS (SELECT 1 FROM chunk_sets cs WHERE cs.build_id = b.id)`,
  );
  const chunks = await one(
    `SELECT count(*)::int AS n FROM chunks c JOIN chunk_sets cs ON cs.id = c.chunk_set_id
      WHERE cs.build_id = ANY($1::uuid[])`,
  );
  const keys = await sql.query<{ storage_key: string | null }>(
    `SELECT s.storage_key FROM sources s JOIN builds b ON b.source_id = s.id WHERE b.id = ANY($1::uuid[])`,
    [ids],
  );
  const missingObjects = keys.rows.filter((r) => !r.storage_key || !objects.has(r.storage_key)).length;
  // Sources the kill left behind: a request cut after its source row was written (the client sent it again).
  const extraSources = (
    await sql.query<{ n: number }>(
      `SELECT (count(*) - count(DISTINCT file_name))::int AS n FROM sources WHERE file_name LIKE 'upload-%'`,
    )
  ).rows[0]!.n;
  // Their builds too are finished (a cut request's source still has its build run once).
  const extraUnfinished = (
    await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM builds b JOIN sources s ON s.id = b.source_id
        WHERE s.file_name LIKE 'upload-%' AND NOT (b.id = ANY($1::uuid[])) AND b.status <> 'Completed'`,
      [ids],
    )
  ).rows[0]!.n;
  const allKeys = new Set(
    (
      await sql.query<{ storage_key: string }>("SELECT storage_key FROM sources WHERE storage_key IS NOT NULL")
    ).rows.map((r) => r.storage_key),
  );
  const strayObjects = [...objects].filter((key) => !allKeys.has(key)).length;
  return {
    notCompleted,
    runsNotOne,
    badChunkSets,
    withoutChunkSet,
    missingObjects,
    chunks,
    extraSources,
    extraUnfinished,
    strayObjects,
  };
};

/** Objects no source owns and pending upload records, polled until the replicas' orphan sweep has removed them all. */
const orphansLeft = async (sql: pg.Client, s3: { keys: () => Promise<string[]> }) => {
  const owned = new Set(
    (
      await sql.query<{ storage_key: string }>("SELECT storage_key FROM sources WHERE storage_key IS NOT NULL")
    ).rows.map((r) => r.storage_key),
  );
  const stray = (await s3.keys()).filter((key) => !owned.has(key)).length;
  const pending = (await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM pending_uploads")).rows[0]!.n;
  return { stray, pending };
};

const waitForSweep = async (sql: pg.Client, s3: { keys: () => Promise<string[]> }, deadline: number) => {
  const started = Date.now();
  const until = Math.min(deadline, started + 180_000);
  const before = await orphansLeft(sql, s3);
  for (let left = before; ; left = await orphansLeft(sql, s3)) {
    if ((left.stray === 0 && left.pending === 0) || Date.now() > until)
      return { before, left, ms: Date.now() - started };
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
};

export const benchReplicas = async () => {
  const total = numberEnv("BENCH_REPLICAS_UPLOADS", 1000);
  const concurrency = numberEnv("BENCH_REPLICAS_CONCURRENCY", 8);
  const deadline = Date.now() + numberEnv("BENCH_REPLICAS_TIMEOUT_S", 900) * 1000;
  const prepared = preparePostgres((line) => process.stdout.write(`real Postgres: ${line}\n`));
  if (!prepared.ok) return `Replicas: skipped, ${prepared.skipped}`;
  const server = await startRealPostgres();
  const s3 = await startS3StandIn();
  const replicas: QuarryProcess[] = [];
  try {
    const database = await createScratchDatabase(server.adminUrl);
    const env = {
      ...s3.env,
      DATABASE_URL: database.url,
      QUARRY_JOB_LEASE_MS: String(LEASE_MS),
      QUARRY_RATE_LIMIT_PER_MIN: "0",
      QUARRY_UPLOADS_PER_TOKEN: "0",
      // The shortest bound: the originals of uploads the kill cut are swept within the bench (every 15 s, past 1 min).
      QUARRY_ORPHAN_UPLOAD_MINUTES: "1",
    };
    // One after the other: the first start migrates the database and creates the token both use.
    replicas.push(await startQuarry({ env }));
    replicas.push(await startQuarry({ env }));
    const [a, b] = replicas as [QuarryProcess, QuarryProcess];
    const client = new pg.Client({ connectionString: database.url });
    const watcher = new pg.Client({ connectionString: database.url });
    for (const c of [client, watcher]) {
      c.on("error", () => undefined);
      await c.connect();
    }

    const uploads: Upload[] = [];
    let next = 0;
    type Kill = { at: number; restartedMs: number; heldBuilds: string[]; recovery: { left: number; ms: number } };
    let kill: Kill | null = null;
    let killing: Promise<void> | null = null;
    const started = Date.now();
    const killMidway = async () => {
      const killedPid = b.pid();
      const at = Date.now();
      await b.kill("SIGKILL");
      const held = await client.query<{ locked_by: string; build_id: string }>(
        `SELECT locked_by, event->'data'->>'buildId' AS build_id FROM job_runs
          WHERE status = 'running' AND function_id LIKE '%process-source-build'`,
      );
      const heldBuilds = held.rows.filter((r) => lockerPid(r.locked_by) === killedPid).map((r) => r.build_id);
      // Recovery: until every build the killed replica held is finished (by the other, after the lease), timed
      // while the killed one starts again.
      const recovery = waitUntilFinished(watcher, heldBuilds, deadline).then((left) => ({ left, ms: Date.now() - at }));
      await b.restart();
      kill = { at, restartedMs: Date.now() - at, heldBuilds, recovery: await recovery };
      process.stderr.write(`replicas: b killed at upload ${total / 2}, healthy again after ${kill.restartedMs} ms\n`);
    };
    const worker = async () => {
      while (next < total && Date.now() < deadline) {
        const i = next++;
        if (i === Math.floor(total / 2) && !killing) killing = killMidway();
        uploads[i] = await sendUpload(i, replicas, a.token, deadline);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const acceptedMs = Date.now() - started;
    process.stderr.write(`replicas: ${uploads.filter(Boolean).length} uploads accepted in ${acceptedMs} ms\n`);
    await killing;
    const k = kill as Kill | null;
    const ids = uploads.filter(Boolean).map((u) => u.buildId);
    const left = await waitUntilFinished(client, ids, deadline);
    const doneMs = Date.now() - started;
    const objects = new Set(await s3.keys());
    const v = await verify(client, ids, objects);
    const swept = await waitForSweep(client, s3, deadline);
    await Promise.all([client.end(), watcher.end()]);
    const resent = uploads.filter((u) => u && u.attempts > 1).length;
    const duplicates = v.runsNotOne + v.badChunkSets;
    const rows: (string | number)[][] = [
      [
        "uploads accepted",
        `${ids.length} of ${total} (a ${uploads.filter((u) => u?.replica === "a").length}, b ${uploads.filter((u) => u?.replica === "b").length})`,
      ],
      ["sent again after the kill", resent],
      ["s until all accepted", fmt(acceptedMs / 1000)],
      ["s until all built", fmt(doneMs / 1000)],
      ["uploads/s (built)", fmt(ids.length / (doneMs / 1000))],
      ["killed replica healthy again after, s", k ? fmt(k.restartedMs / 1000) : "no kill"],
      ["builds it was running at the kill", k ? k.heldBuilds.length : 0],
      [
        `those finished after the kill, s (lease ${LEASE_MS / 1000} s)`,
        k ? fmt(k.recovery.ms / 1000) + (k.recovery.left ? ` (${k.recovery.left} left)` : "") : "-",
      ],
      ["builds not Completed", v.notCompleted + (left ? ` (${left} still running at the deadline)` : "")],
      ["builds without exactly one completed job run", v.runsNotOne],
      ["chunk sets not exactly one set of chunks (or none)", v.badChunkSets + v.withoutChunkSet],
      ["chunks", v.chunks],
      ["originals missing from the bucket", v.missingObjects],
      ["objects in the bucket", objects.size],
      ["sources left by cut requests (sent again)", v.extraSources],
      ["  of their builds not Completed", v.extraUnfinished],
      ["objects of no source (cut uploads) once all built", v.strayObjects],
      ["pending upload records (cut uploads) once all built", swept.before.pending],
      [
        "  objects / records left after the orphan sweep (1 min)",
        `${swept.left.stray} / ${swept.left.pending} (${fmt(swept.ms / 1000)} s after all built)`,
      ],
      ["duplicates found", duplicates],
    ];
    return [
      `Replicas: ${total} uploads (Markdown, enrichment none, ${concurrency} at a time) split across two replicas on ` +
        `Debian's Postgres 15 with S3 (s3rver), no shared disk; one replica kill -9ed half-way and restarted.`,
      table([["figure", "value"], ...rows]),
    ].join("\n");
  } finally {
    for (const replica of replicas.reverse()) await replica.dispose().catch(() => undefined);
    await s3.close();
    server.stop();
  }
};
