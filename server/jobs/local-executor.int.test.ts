import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sourceBuildRequested } from "./events";
import { startLocalExecutor, type LocalExecutor, type LocalExecutorOptions } from "./local-executor";
import { canonicalJson, signBody } from "./inngest-sdk";
import { setRuntimeEnv } from "@/server/env";
import { startEventServer } from "./event-server";
import { setInProcessEvents } from "./in-process-events";
import { sendJobEvent } from "./send";
import { startServeApp, startTestDb, waitFor, type TestDb } from "@/server/testing/job-harness";
import {
  client,
  count,
  eventKey,
  functions,
  holdResume,
  resumeGate,
  seen,
  signingKey,
} from "@/server/testing/job-functions";

/**
 * The executor against the real thing: an embedded Postgres with the app's migrations, reached through the app's
 * Prisma singleton, and the SDK's `serve()` in cloud mode (signature required) on a real HTTP server. Backoffs are
 * shortened; `step.sleep` is real.
 */

let testDb: TestDb;
let app: Awaited<ReturnType<typeof startServeApp>>;
const executors: LocalExecutor[] = [];

const start = async (options: Partial<LocalExecutorOptions> = {}) => {
  const executor = await startLocalExecutor({
    serveUrl: app.serveUrl,
    functions,
    concurrency: 2,
    pollIntervalMs: 100,
    signingKey,
    eventKey,
    leaseMs: 5000,
    backoff: { baseMs: 20, maxMs: 200 },
    ...options,
  });
  executors.push(executor);
  return executor;
};

const runsOf = (ids: string[]) =>
  testDb.db.jobRun.findMany({ where: { id: { in: ids } }, orderBy: { createdAt: "asc" } });
const runOf = async (id: string) => await testDb.db.jobRun.findUniqueOrThrow({ where: { id } });
const key = () => randomUUID();

beforeAll(async () => {
  testDb = await startTestDb();
  app = await startServeApp({ client, functions });
});

afterEach(async () => {
  await Promise.all(executors.splice(0).map((e) => e.stop()));
});

afterAll(async () => {
  await app?.close();
  await testDb?.stop();
});

describe("local executor", () => {
  it("runs sequential steps in order, memoizing each", async () => {
    const executor = await start();
    const k = key();
    const [runId] = await executor.ingestEvent({ name: "test/sequential", data: { key: k } });
    await executor.drain();
    const run = await runOf(runId!);
    expect(run.status).toBe("completed");
    expect(run.output).toEqual({ steps: ["one", "two", "three"] });
    expect(run.stack).toHaveLength(3);
    expect(Object.keys(run.steps as object)).toHaveLength(3);
    expect(seen.order.get(k)).toEqual(["one", "two", "three"]);
    expect(run.lockedBy).toBeNull();
  });

  it("runs parallel steps (Promise.all) to completion", async () => {
    const executor = await start();
    const [runId] = await executor.ingestEvent({ name: "test/parallel", data: { key: key() } });
    await executor.drain();
    const run = await runOf(runId!);
    expect(run.status).toBe("completed");
    expect(run.output).toEqual({ total: 6 });
    expect(run.stack).toHaveLength(4);
  });

  it("fans out many parallel steps, a few at a time, retrying the one that fails", async () => {
    const executor = await start();
    const k = key();
    seen.overlap.max = 0;
    const [runId] = await executor.ingestEvent({ name: "test/fan-out", data: { key: k } });
    await executor.drain();
    const run = await runOf(runId!);
    expect(run.status).toBe("completed");
    expect(run.output).toEqual({ sum: 66 });
    expect(run.stack).toHaveLength(12);
    expect(count(k, "part-5")).toBe(2);
    expect(seen.overlap.max).toBeGreaterThan(1);
    expect(seen.overlap.max).toBeLessThanOrEqual(8);
  });

  it("retries a step that throws once, with the attempt number", async () => {
    const executor = await start();
    const k = key();
    const [runId] = await executor.ingestEvent({ name: "test/flaky", data: { key: k } });
    await executor.drain();
    const run = await runOf(runId!);
    expect(run.status).toBe("completed");
    expect(run.output).toEqual({ attempt: 1 });
    expect(count(k, "flaky")).toBe(2);
  });

  it("fails a function that always throws after its retries, and runs its onFailure handler", async () => {
    const executor = await start();
    const k = key();
    const [runId, ...rest] = await executor.ingestEvent({ name: "test/broken", data: { key: k } });
    expect(rest).toHaveLength(0);
    await executor.drain();
    const run = await runOf(runId!);
    expect(run.status).toBe("failed");
    expect(run.error).toBe("always broken");
    expect(count(k, "broken")).toBe(2); // retries: 1
    expect(seen.failures.get(k)).toBe("always broken");
    const handler = await testDb.db.jobRun.findFirstOrThrow({
      where: { functionId: "jobs-test-broken-failure", event: { path: ["data", "run_id"], equals: runId! } },
    });
    expect(handler.status).toBe("completed");
  });

  it("fails a step after its retries and the run with it; NonRetriableError fails at once", async () => {
    const executor = await start();
    const k = key();
    const [stepRun] = await executor.ingestEvent({ name: "test/broken-step", data: { key: k } });
    const [fatalRun] = await executor.ingestEvent({ name: "test/fatal", data: { key: k } });
    await executor.drain();
    const [a, b] = [await runOf(stepRun!), await runOf(fatalRun!)];
    expect(a.status).toBe("failed");
    expect(a.error).toBe("step always fails");
    expect(count(k, "explode")).toBe(3); // retries: 2
    expect(b.status).toBe("failed");
    expect(b.error).toBe("no point retrying");
    expect(count(k, "fatal")).toBe(1);
  });

  it("honours step.sleep, alone and beside a parallel step", async () => {
    const executor = await start();
    const [sleepRun] = await executor.ingestEvent({ name: "test/sleep", data: {} });
    const [besideRun] = await executor.ingestEvent({ name: "test/sleep-beside", data: {} });
    await executor.drain();
    const [a, b] = [await runOf(sleepRun!), await runOf(besideRun!)];
    expect(a.status).toBe("completed");
    expect((a.output as { slept: number }).slept).toBeGreaterThanOrEqual(1000);
    expect(b.status).toBe("completed");
    expect((b.output as { waited: number }).waited).toBeGreaterThanOrEqual(1000);
    expect(b.stack).toHaveLength(4);
  });

  it("drives at most `concurrency` runs at once", async () => {
    const executor = await start({ concurrency: 2 });
    seen.overlap.max = 0;
    const ids = (
      await Promise.all(Array.from({ length: 5 }, () => executor.ingestEvent({ name: "test/overlap", data: {} })))
    ).flat();
    expect(ids).toHaveLength(5);
    await executor.drain();
    expect((await runsOf(ids)).map((r) => r.status)).toEqual(Array(5).fill("completed"));
    expect(seen.overlap.max).toBe(2);
  });

  it("accepts inngest.send() from the app's client on its event endpoint, checks the key, starts each event id once", async () => {
    const executor = await start();
    const endpoint = await startEventServer({ handle: executor.handleEventRequest });
    setRuntimeEnv("INNGEST_BASE_URL", endpoint.url);
    setRuntimeEnv("INNGEST_EVENT_KEY", eventKey);
    try {
      const { inngest } = await import("./client");
      const data = { buildId: randomUUID(), projectId: randomUUID(), sourceId: randomUUID() };
      const { ids } = await inngest.send(sourceBuildRequested.create(data));
      expect(ids).toHaveLength(1);
      await inngest.send({ name: sourceBuildRequested.name, data, id: ids[0] }); // same id: no second run
      await executor.drain();
      const runs = await testDb.db.jobRun.findMany({ where: { event: { path: ["id"], equals: ids[0]! } } });
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({
        functionId: "jobs-test-typed",
        status: "completed",
        output: { buildId: data.buildId },
      });

      const post = (path: string, body: unknown) =>
        fetch(`${endpoint.url}${path}`, { method: "POST", body: JSON.stringify(body) });
      expect((await post("/e/wrong-key", { name: "test/sequential", data: {} })).status).toBe(401);
      expect((await post(`/e/${eventKey}`, { name: "inngest/function.failed", data: {} })).status).toBe(400);
      expect((await post(`/e/${eventKey}`, { data: {} })).status).toBe(400);
    } finally {
      setRuntimeEnv("INNGEST_BASE_URL", "");
      setRuntimeEnv("INNGEST_EVENT_KEY", "");
      await endpoint.close();
    }
  });

  it("sendJobEvent posts to the event endpoint, or stores the event directly when the executor runs in this process", async () => {
    const executor = await start();
    const endpoint = await startEventServer({ handle: executor.handleEventRequest });
    setRuntimeEnv("INNGEST_BASE_URL", endpoint.url);
    setRuntimeEnv("INNGEST_EVENT_KEY", eventKey);
    const build = () => ({ buildId: randomUUID(), projectId: randomUUID(), sourceId: randomUUID() });
    const [overHttp, direct] = [build(), build()];
    try {
      await sendJobEvent(sourceBuildRequested, overHttp, { id: `build-${overHttp.buildId}` });
      await endpoint.close(); // from here on, only the direct path can store an event
      setInProcessEvents(executor.ingestEvent);
      await sendJobEvent(sourceBuildRequested, direct, { id: `build-${direct.buildId}` });
      await sendJobEvent(sourceBuildRequested, direct, { id: `build-${direct.buildId}` }); // same id: no second run
      await executor.drain();
      for (const data of [overHttp, direct]) {
        const runs = await testDb.db.jobRun.findMany({
          where: { event: { path: ["id"], equals: `build-${data.buildId}` } },
        });
        expect(runs).toHaveLength(1);
        expect(runs[0]).toMatchObject({
          functionId: "jobs-test-typed",
          status: "completed",
          output: { buildId: data.buildId },
        });
      }
    } finally {
      setInProcessEvents(undefined);
      setRuntimeEnv("INNGEST_BASE_URL", "");
      setRuntimeEnv("INNGEST_EVENT_KEY", "");
      await endpoint.close();
    }
  });

  it("drives the app's client behind inngest/next's route handler, signed with INNGEST_SIGNING_KEY", async () => {
    setRuntimeEnv("INNGEST_SIGNING_KEY", signingKey);
    const { inngest } = await import("./client");
    const { serve } = await import("inngest/next");
    const viaNext = inngest.createFunction(
      { id: "jobs-test-next", triggers: [{ event: "test/next" }] },
      async ({ step }) => {
        const a = await step.run("a", () => 20);
        const b = await step.run("b", () => 22);
        return { answer: a + b };
      },
    );
    const { POST } = serve({ client: inngest, functions: [viaNext] });
    const route = await startEventServer({ handle: (req) => (POST as (r: Request) => Promise<Response>)(req) });
    try {
      const executor = await start({ serveUrl: `${route.url}/api/inngest`, functions: [viaNext] });
      const [runId] = await executor.ingestEvent({ name: "test/next", data: {} });
      await executor.drain();
      expect(await runOf(runId!)).toMatchObject({
        functionId: "quarry-jobs-test-next",
        status: "completed",
        output: { answer: 42 },
      });
    } finally {
      setRuntimeEnv("INNGEST_SIGNING_KEY", "");
      await route.close();
    }
  });

  it("serve() refuses calls that are not signed with the signing key", async () => {
    const body = canonicalJson({
      version: 2,
      event: { name: "test/sequential", data: {} },
      steps: {},
      ctx: { run_id: "x", attempt: 0 },
    });
    const url = `${app.serveUrl}?fnId=jobs-test-sequential&stepId=step`;
    const unsigned = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } });
    expect(unsigned.status).toBe(401);
    const forged = await fetch(url, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-inngest-signature": signBody(body, "signkey-test-00ff") },
    });
    expect(forged.status).toBe(401);
  });

  it("keeps retrying while the serve endpoint is down or restarting", async () => {
    let calls = 0;
    const flaky = await startServeApp({
      client,
      functions,
      gate: () => (++calls <= 2 ? "drop" : calls <= 4 ? "503" : "up"),
    });
    try {
      const executor = await start({ serveUrl: flaky.serveUrl });
      const [runId] = await executor.ingestEvent({ name: "test/sequential", data: { key: key() } });
      await executor.drain();
      const run = await runOf(runId!);
      expect(run.status).toBe("completed");
      expect(calls).toBeGreaterThan(4);
    } finally {
      await flaky.close();
    }
  });

  it("does not take answers from something that is not serve() for function outcomes", async () => {
    const impostor = await startEventServer({ handle: async () => Response.json({ ok: true }) });
    const executor = await start({ serveUrl: `${impostor.url}/api/inngest` });
    const [runId] = await executor.ingestEvent({ name: "test/sequential", data: { key: key() } });
    await new Promise((r) => setTimeout(r, 300));
    expect(await runOf(runId!)).toMatchObject({ status: "running", attempt: 0, output: null });
    await executor.stop();
    await impostor.close();
    await testDb.db.jobRun.delete({ where: { id: runId! } }); // it would otherwise wait for later executors
  });

  it("resumes after a crash from the last memoized step, without re-running it", async () => {
    holdResume();
    const k = key();
    const first = await start({ concurrency: 1 });
    const [runId] = await first.ingestEvent({ name: "test/resume", data: { key: k } });
    await waitFor(() => count(k, "second") === 1);
    expect((await runOf(runId!)).stack).toHaveLength(1);
    await first.stop({ abandon: true }); // as kill -9: the lease stays, held by an executor that is gone

    const second = await start({ concurrency: 1 });
    await waitFor(() => count(k, "second") === 2); // step 2 was never memoized, so it runs again
    expect((await runOf(runId!)).lockedBy).toBe(second.instanceId);
    resumeGate.release();
    await second.drain();
    const run = await runOf(runId!);
    expect(run.status).toBe("completed");
    expect(run.output).toEqual({ done: true });
    expect(count(k, "first")).toBe(1);
  });

  it("never drives a run twice at once when its lease ran out while it was driving it", async () => {
    holdResume();
    const k = key();
    const executor = await start({ concurrency: 2 });
    const [runId] = await executor.ingestEvent({ name: "test/resume", data: { key: k } });
    await waitFor(() => count(k, "second") === 1);
    // As when a renewal comes late behind a long statement: the lease is past while step 2 is still running.
    await testDb.db
      .$executeRaw`UPDATE job_runs SET locked_until = now() - interval '1 second' WHERE id = ${runId}::uuid`;
    await new Promise((r) => setTimeout(r, 600)); // six polls
    expect(count(k, "second")).toBe(1);
    resumeGate.release();
    await executor.drain();
    expect((await runOf(runId!)).status).toBe("completed");
    expect(count(k, "second")).toBe(1);
  });

  it("resumes after a graceful stop in the same way", async () => {
    holdResume();
    const k = key();
    const first = await start({ concurrency: 1 });
    const [runId] = await first.ingestEvent({ name: "test/resume", data: { key: k } });
    await waitFor(() => count(k, "second") === 1);
    await first.stop();
    const run = await runOf(runId!);
    expect(run).toMatchObject({ status: "running", lockedBy: null });

    const second = await start({ concurrency: 1 });
    await waitFor(() => count(k, "second") === 2);
    resumeGate.release();
    await second.drain();
    expect((await runOf(runId!)).status).toBe("completed");
    expect(count(k, "first")).toBe(1);
  });
});
