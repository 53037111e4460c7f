import { request } from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardClient } from "../testing/dashboard-client";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { markdownDoc, textDoc } from "../testing/fixtures";
import { apiClient, createToken, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { startS3StandIn, type S3StandIn } from "../testing/s3-stand-in";
import { lockerPid } from "../testing/replicas";
import { realPostgresUrl } from "../testing/scratch-database";

/**
 * Two app replicas (`npm start` twice) on one real Postgres and one S3 bucket, with no disk in common, as a team runs
 * them behind a load balancer: uploads split across both are each built once, a replica killed mid-build leaves the
 * other to finish it once its lease runs out, the per-token limits are kept per replica (README "Scaling out"), the
 * status stream and a conversation work from either replica. Real-Postgres only (`*.pg.test.ts`: vitest.config.ts
 * leaves these out unless QUARRY_TEST_POSTGRES_URL is set): the embedded Postgres cannot be shared by two processes.
 */

const LEASE_MS = 3000;
const RATE_PER_MIN = 600;
const UPLOADS_PER_TOKEN = 2;
const OWNER = { email: "owner@replicas.test", password: "replica-owner-password" };

let s3: S3StandIn;
let chat: FakeChatServer;
let a: QuarryProcess;
let b: QuarryProcess;
let sql: pg.Client;

type Api = ReturnType<typeof apiClient>;
/** The API of each replica with the same token (the one replica `a` created on the database's first start). */
let apiA: Api;
let apiB: Api;

beforeAll(async () => {
  if (!realPostgresUrl()) throw new Error("replicas.pg.test.ts runs on a real Postgres: set QUARRY_TEST_POSTGRES_URL");
  s3 = await startS3StandIn();
  chat = await startFakeChatServer();
  const env = {
    ...s3.env,
    QUARRY_JOB_LEASE_MS: String(LEASE_MS),
    QUARRY_RATE_LIMIT_PER_MIN: String(RATE_PER_MIN),
    QUARRY_UPLOADS_PER_TOKEN: String(UPLOADS_PER_TOKEN),
    LLM_PROVIDER: "openai",
    LLM_BASE_URL: chat.baseUrl,
    LLM_MODEL: "stand-in-chat",
    LLM_API_KEY: "sk-test",
  };
  a = await startQuarry({ env: { ...env, QUARRY_ADMIN_EMAIL: OWNER.email, QUARRY_ADMIN_PASSWORD: OWNER.password } });
  // The same database (a's scratch one, migrated by a's start) and bucket; its own data dir, port and process.
  b = await startQuarry({ env: { ...env, DATABASE_URL: a.databaseUrl! } });
  apiA = apiClient(a);
  apiB = apiClient({ url: b.url, token: a.token });
  sql = new pg.Client({ connectionString: a.databaseUrl });
  sql.on("error", () => undefined);
  await sql.connect();
}, 600_000);

afterAll(async () => {
  await sql?.end();
  // b first: a's dispose drops the database both use.
  await b?.dispose();
  await a?.dispose();
  await chat?.close();
  await s3?.close();
});

const buildIdOf = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { build_id: string }).build_id;
};

/** Job runs of a build, as the job table holds them. */
const runsOf = async (buildId: string) =>
  (
    await sql.query<{ status: string; locked_by: string | null }>(
      `SELECT status, locked_by FROM job_runs WHERE function_id LIKE '%process-source-build'
          AND event->'data'->>'buildId' = $1`,
      [buildId],
    )
  ).rows;

/** A build's job runs once none is left running: the run finishes just after the build's last step marks it Completed. */
const settledRunsOf = async (buildId: string) => {
  for (let i = 0; i < 100; i++) {
    const runs = await runsOf(buildId);
    if (runs.every((r) => r.status !== "running" && r.status !== "queued")) return runs;
    await new Promise((r) => setTimeout(r, 100));
  }
  return runsOf(buildId);
};

/** Whether a build's source has one set of elements, positions 0..n-1 (its steps ran once), read in the table. */
const positionsAreOneSet = async (buildId: string) => {
  const { rows } = await sql.query<{ n: number; distinct: number; last: number }>(
    `SELECT count(*)::int AS n, count(DISTINCT e.position)::int AS distinct, max(e.position) AS last
       FROM elements e JOIN builds b ON b.source_id = e.source_id WHERE b.id = $1`,
    [buildId],
  );
  const { n, distinct, last } = rows[0]!;
  return n > 0 && distinct === n && last === n - 1;
};

describe("two replicas on one Postgres and one bucket", () => {
  it("builds uploads split across both replicas, each exactly once", { timeout: 300_000 }, async () => {
    const perReplica = 8;
    const upload = async (api: Api, replica: string) => {
      const ids: string[] = [];
      // One at a time per replica: the upload limit per token is what a later test is about.
      for (let i = 0; i < perReplica; i++) {
        ids.push(
          await buildIdOf(
            await api.upload(`${replica}-${i}.md`, markdownDoc(`Quarry ${replica} ${i}`), { enrichment: "none" }),
          ),
        );
      }
      return ids;
    };
    const lockers = new Set<number>();
    let sampling = true;
    const sample = (async () => {
      while (sampling) {
        const { rows } = await sql.query<{ locked_by: string }>(
          "SELECT locked_by FROM job_runs WHERE locked_by IS NOT NULL",
        );
        for (const row of rows) lockers.add(lockerPid(row.locked_by) ?? -1);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const [idsA, idsB] = await Promise.all([upload(apiA, "a"), upload(apiB, "b")]);
    const buildIds = [...idsA!, ...idsB!];
    for (const id of buildIds) {
      // Each replica reads every build, whichever replica took the upload or ran it.
      for (const api of [apiA, apiB])
        expect(await api.waitForBuild(id, 180_000)).toMatchObject({ status: "Completed" });
    }
    sampling = false;
    await sample;
    for (const id of buildIds) {
      expect(await settledRunsOf(id)).toEqual([{ status: "completed", locked_by: null }]);
      expect(await positionsAreOneSet(id)).toBe(true);
    }
    // Only the two replicas ever held a run (what each one drove is up to the race for the claim).
    expect(
      [...lockers].every((pid) => pid === a.pid() || pid === b.pid()),
      [...lockers].join(),
    ).toBe(true);
  });
});

/** SSE frames of the project status stream: the rows of `event: source`, until `until` holds or the time is up. */
const readSourceEvents = async (
  stream: Response,
  until: (rows: { fileName: string; status: string }[]) => boolean,
  timeoutMs: number,
) => {
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  const rows: { fileName: string; status: string; build: { status: string; step?: string | null } | null }[] = [];
  let buffer = "";
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !until(rows)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const frames = buffer.split("\n\n");
    buffer = frames.pop() ?? "";
    for (const frame of frames) {
      const data = frame.match(/^event: source\ndata: (.*)$/m)?.[1];
      if (data) rows.push(JSON.parse(data));
    }
  }
  return rows;
};

describe("what a browser or client sees from either replica", () => {
  it(
    "streams build progress to a viewer on either replica, whichever runs the build",
    { timeout: 180_000 },
    async () => {
      const client = dashboardClient(b.url);
      const owner = await client.signIn(OWNER.email, OWNER.password);
      const me = await client.me(owner);
      const projectId = me.teams[0]!.projects[0]!.id;
      // A viewer on each replica (the session signed in on b is good on a too: sessions live in the database). The claim
      // race decides which replica runs the build, so both viewers must see it: one of them is on the replica that did
      // not run it.
      const controller = new AbortController();
      const open = (replica: QuarryProcess) =>
        fetch(`${replica.url}/api/projects/${projectId}/events`, {
          headers: { Cookie: owner.cookie },
          signal: controller.signal,
        });
      const streams = [await open(a), await open(b)];
      expect(streams.map((s) => s.status)).toEqual([200, 200]);

      // Large enough that its build outlasts a few of the feed's one-second looks at the database, on a fast machine too.
      const buildId = await buildIdOf(
        await apiA.upload("streamed.txt", textDoc(5000, "slate"), { enrichment: "none" }),
      );
      const completed = (seen: { fileName: string; status: string }[]) =>
        seen.some((r) => r.fileName === "streamed.txt" && r.status === "Completed");
      const seenOn = await Promise.all(streams.map((stream) => readSourceEvents(stream, completed, 120_000)));
      controller.abort();
      expect(await apiA.waitForBuild(buildId, 10_000)).toMatchObject({ status: "Completed" });
      for (const seen of seenOn) {
        const mine = seen.filter((r) => r.fileName === "streamed.txt");
        expect(mine.at(-1)).toMatchObject({ status: "Completed", build: { status: "Completed" } });
        // Progress on the way, not only the end.
        expect(mine.length, JSON.stringify(mine.map((r) => [r.status, r.build?.step]))).toBeGreaterThan(1);
      }
    },
  );

  it("continues a conversation started on one replica on the other", { timeout: 120_000 }, async () => {
    const first = (await (
      await apiA.post("/ask-sources", { question: "How do quarries cut granite?", thinking_level: "fast" })
    ).json()) as { answer: string; conversation_id: string };
    expect(first.answer).toBeTruthy();
    chat.requests.length = 0;
    const res = await apiB.post("/ask-sources", {
      question: "And what cools the wire?",
      conversation_id: first.conversation_id,
      thinking_level: "fast",
    });
    const second = (await res.json()) as { conversation_id: string };
    expect(res.status).toBe(200);
    expect(second.conversation_id).toBe(first.conversation_id);
    // Replica b's answer call carries the history replica a wrote: question, answer, then the follow-up.
    const answerCall = chat.requests.find((r) =>
      r.messages.some((m) => m.role === "system" && /numbered context passages you are given/.test(m.content)),
    );
    expect(answerCall?.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(answerCall?.messages[2]!.content).toBe(first.answer);
  });
});

/** A multipart upload whose body starts but never ends (until destroyed): it holds one upload slot of its token. */
const heldUpload = (url: string, token: string) => {
  const boundary = "quarry-held-upload";
  const req = request(new URL(`${url}/api/public/v1/sources/ingest-file`), {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": String(10 * 1024 * 1024),
    },
  });
  req.on("error", () => undefined);
  req.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="held.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\nThe first bytes of a slow upload.\n`,
  );
  return req;
};

describe("per-token limits are kept per replica", () => {
  it(
    "counts requests per replica: one replica refusing a token does not stop the other",
    { timeout: 180_000 },
    async () => {
      const token = createToken(a, "default");
      const config = (quarry: QuarryProcess) =>
        fetch(`${quarry.url}/api/public/v1/sources/config`, { headers: { Authorization: `Bearer ${token}` } });
      let refused: Response | undefined;
      // The bucket holds RATE_PER_MIN requests and refills RATE_PER_MIN a minute: sent in batches, it runs dry.
      for (let sent = 0; !refused && sent < RATE_PER_MIN * 2; sent += 25) {
        const batch = await Promise.all(Array.from({ length: 25 }, () => config(a)));
        refused = batch.find((r) => r.status === 429);
      }
      expect(refused?.status).toBe(429);
      expect(await refused!.json()).toEqual({ detail: "Too many requests" });
      // Replica b has its own full bucket for the token: a burst a shared, empty one would mostly refuse passes whole.
      const burst = await Promise.all(Array.from({ length: 100 }, () => config(b)));
      expect(burst.map((r) => r.status)).toEqual(burst.map(() => 200));
    },
  );

  it("counts uploads in flight per replica", { timeout: 120_000 }, async () => {
    const token = createToken(a, "default");
    const held = [heldUpload(a.url, token), heldUpload(a.url, token)];
    await new Promise((r) => setTimeout(r, 1500));
    const third = await apiClient({ url: a.url, token }).upload("third.md", markdownDoc("Third"));
    expect(third.status).toBe(429);
    // Replica b counts its own uploads of the token: none in flight there.
    const other = await apiClient({ url: b.url, token }).upload("other.md", markdownDoc("Other"), {
      enrichment: "none",
    });
    expect(other.status, await other.clone().text()).toBe(200);
    held.forEach((req) => req.destroy());
  });
});

describe("a replica killed mid-build", () => {
  it(
    "leaves the build to the other replica, which finishes it once the lease runs out",
    { timeout: 240_000 },
    async () => {
      const buildId = await buildIdOf(await apiA.upload("long.txt", textDoc(3000, "basalt"), { enrichment: "none" }));
      // Wait until a replica holds the run (a, which took the upload, nearly always: it claims at once, b polls).
      let holder: QuarryProcess | undefined;
      for (let i = 0; i < 3000 && !holder; i++) {
        const pid = lockerPid((await runsOf(buildId)).find((r) => r.status === "running")?.locked_by ?? null);
        holder = [a, b].find((replica) => replica.pid() === pid);
        if (!holder) await new Promise((r) => setTimeout(r, 20));
      }
      if (!holder) throw new Error("no replica took the build's run");
      const survivor = holder === a ? b : a;
      await holder.kill("SIGKILL");
      const killedAt = Date.now();

      const build = (await apiClient({ url: survivor.url, token: a.token }).waitForBuild(buildId, 180_000)) as {
        status: string;
        error: string | null;
      };
      const tookMs = Date.now() - killedAt;
      expect(build, survivor.output()).toMatchObject({ status: "Completed", error: null });
      expect(await settledRunsOf(buildId)).toEqual([{ status: "completed", locked_by: null }]);
      expect(await positionsAreOneSet(buildId)).toBe(true);
      // Taken over after the lease (not at once: a replica cannot tell a dead peer from a slow one), within a minute.
      expect(tookMs).toBeGreaterThan(LEASE_MS / 2);
      expect(tookMs).toBeLessThan(60_000);
      process.stdout.write(`the other replica finished the killed replica's build ${tookMs} ms after the kill\n`);
    },
  );
});
