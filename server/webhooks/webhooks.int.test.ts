import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "../env";
import type { LocalExecutor } from "../jobs/local-executor";
import { logger } from "../logger";
import { startServeApp, startTestDb, waitFor, type TestDb } from "../testing/job-harness";
import { startWebhookReceiver, type WebhookReceiver } from "../testing/webhook-receiver";

/**
 * Webhooks end to end in one process, over real HTTP: the dashboard's procedures (tRPC caller, real database), the
 * domain functions that end builds, deletes and deploys, the app's own job executor driving the deliver-webhook
 * function through a real serve() endpoint, the SSRF-safe fetcher, and receivers on loopback that verify every
 * request with the Standard Webhooks library. Retry delays, the attempt's time limit and the disable threshold are
 * shortened through their settings.
 */

const SIGNING_KEY = `signkey-test-${randomBytes(32).toString("hex")}`;
let testDb: TestDb;
let app: Awaited<ReturnType<typeof startServeApp>>;
let executor: LocalExecutor;
let receiver: WebhookReceiver;
let otherReceiver: WebhookReceiver;
let notAllowed: WebhookReceiver;
const ids = {} as Record<"team" | "projectA" | "projectB" | "admin" | "member", string>;

const callerFor = async (userId: string) => {
  const { createCaller } = await import("../trpc/root");
  return createCaller({
    auth: { kind: "session", userId, sessionId: "test", email: `${userId}@webhooks.test` },
    requestId: "test",
    logger,
  }).dashboard.webhooks;
};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  otherReceiver = await startWebhookReceiver();
  notAllowed = await startWebhookReceiver();
  setRuntimeEnv("QUARRY_FETCH_ALLOW_HOSTS", `${receiver.host},${otherReceiver.host}`);
  setRuntimeEnv("QUARRY_SECRET_KEY", "webhook-test-server-secret-0123456789-abcdef");
  setRuntimeEnv("QUARRY_WEBHOOK_RETRY_SCHEDULE_S", "1,1");
  // Long enough for a delivery to a receiver that answers at once on a busy machine, short enough for the hang case.
  setRuntimeEnv("QUARRY_WEBHOOK_TIMEOUT_MS", "3000");
  setRuntimeEnv("QUARRY_WEBHOOK_DISABLE_AFTER", "2");
  setRuntimeEnv("INNGEST_SIGNING_KEY", SIGNING_KEY);
  testDb = await startTestDb();
  const { inngest } = await import("../jobs/client");
  const { deliverWebhook } = await import("../../inngest/functions/deliver-webhook");
  const { startLocalExecutor } = await import("../jobs/local-executor");
  const { setInProcessEvents } = await import("../jobs/in-process-events");
  app = await startServeApp({ client: inngest, functions: [deliverWebhook] });
  executor = await startLocalExecutor({
    serveUrl: app.serveUrl,
    functions: [deliverWebhook],
    signingKey: SIGNING_KEY,
    pollIntervalMs: 100,
  });
  setInProcessEvents(executor.ingestEvent);

  const { db } = testDb;
  const team = await db.team.create({ data: { name: "Hooks" } });
  ids.team = team.id;
  ids.projectA = (await db.project.create({ data: { teamId: team.id, name: "a" } })).id;
  ids.projectB = (await db.project.create({ data: { teamId: team.id, name: "b" } })).id;
  for (const role of ["admin", "member"] as const) {
    const user = await db.user.create({ data: { name: role, email: `${role}@webhooks.test` } });
    await db.teamMember.create({ data: { teamId: team.id, userId: user.id, role } });
    ids[role] = user.id;
  }
}, 600_000);

afterAll(async () => {
  const { setInProcessEvents } = await import("../jobs/in-process-events");
  setInProcessEvents(undefined);
  await executor?.stop();
  await app?.close();
  await testDb?.stop();
  await Promise.all([receiver, otherReceiver, notAllowed].map((r) => r?.close()));
});

const addEndpoint = async (target: WebhookReceiver, projectId: string, events: string[] = ["build.completed"]) => {
  const hooks = await callerFor(ids.admin);
  const created = await hooks.create({ projectId, url: target.url, events: events as never, description: "test" });
  target.setSecret(created.secret);
  return created;
};

/** A source with a build that is about to finish, ended by the same function a real build's last step calls. */
const finishBuild = async (projectId: string, fileName = "notes.md") => {
  const { db } = testDb;
  const source = await db.source.create({
    data: { projectId, fileName, fileType: "md", fileSize: 10, fileSource: "local file", status: "Processing" },
  });
  const build = await db.build.create({
    data: { projectId, sourceId: source.id, method: "fast", status: "Processing" },
  });
  const { finalizeBuild } = await import("../ingestion/steps/finalize");
  await finalizeBuild(build.id);
  return { source, build };
};

const deliveriesOf = async (projectId: string, endpointId: string) =>
  (await callerFor(ids.admin)).deliveries({ projectId, endpointId });

const settled = async (projectId: string, endpointId: string, count = 1) => {
  await waitFor(async () => {
    const list = await deliveriesOf(projectId, endpointId);
    return list.length >= count && list.every((d) => d.status !== "pending");
  }, 20_000);
  return deliveriesOf(projectId, endpointId);
};

describe("endpoints", () => {
  it("shows the secret once, stores it only sealed, and lets admins only manage endpoints", async () => {
    const { endpoint, secret } = await addEndpoint(receiver, ids.projectA);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const hooks = await callerFor(ids.admin);
    const listed = await hooks.list({ projectId: ids.projectA });
    expect(JSON.stringify(listed)).not.toContain(secret.slice(6));
    const row = await testDb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row.encryptedSecret).not.toContain(secret.slice(6));
    await expect((await callerFor(ids.member)).list({ projectId: ids.projectA })).rejects.toThrow(/admin role/);
    // Another project's id in the slot: not found, as if it did not exist.
    await expect(hooks.sendTest({ projectId: ids.projectB, endpointId: endpoint.id })).rejects.toThrow(/not found/);
    await hooks.remove({ projectId: ids.projectA, endpointId: endpoint.id });
  });

  it("refuses a receiver on a private address unless the allow setting lists it", async () => {
    const hooks = await callerFor(ids.admin);
    await expect(
      hooks.create({ projectId: ids.projectA, url: notAllowed.url, events: ["build.completed"] }),
    ).rejects.toThrow(/Refused to fetch .*loopback/);
    await expect(
      hooks.create({ projectId: ids.projectA, url: "http://10.1.2.3/hook", events: ["build.completed"] }),
    ).rejects.toThrow(/Refused/);
    // Allowed (QUARRY_FETCH_ALLOW_HOSTS), the same kind of address is accepted.
    const { endpoint } = await addEndpoint(otherReceiver, ids.projectA);
    await hooks.remove({ projectId: ids.projectA, endpointId: endpoint.id });
    expect(notAllowed.received).toEqual([]);
  });
});

describe("deliveries", () => {
  it("delivers build.completed signed per Standard Webhooks, and nothing to another project's endpoint", async () => {
    const { endpoint } = await addEndpoint(receiver, ids.projectA, ["build.completed", "source.deleted"]);
    const other = await addEndpoint(otherReceiver, ids.projectB, ["build.completed", "source.deleted"]);
    const before = receiver.received.length;
    const { source, build } = await finishBuild(ids.projectA);
    const [delivery] = await settled(ids.projectA, endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1, lastStatus: 204, eventType: "build.completed" });
    expect(delivery!.latencyMs).toBeGreaterThanOrEqual(0);
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]!.error).toBeNull();
    expect(got[0]!.headers["webhook-id"]).toBe(delivery!.eventId);
    expect(got[0]!.headers["webhook-signature"]).toMatch(/^v1,/);
    expect(got[0]!.event).toMatchObject({
      type: "build.completed",
      data: { project_id: ids.projectA, build_id: build.id, file_id: source.id, file_name: "notes.md" },
    });
    // Signed with this endpoint's secret only: another secret does not verify it.
    expect(() =>
      new Webhook(`whsec_${randomBytes(24).toString("base64")}`).verify(got[0]!.body, got[0]!.headers),
    ).toThrow();

    const { deleteSource } = await import("../sources/service");
    await deleteSource({ projectId: ids.projectA, fileId: source.id });
    const after = await settled(ids.projectA, endpoint.id, 2);
    expect(after.map((d) => d.eventType).sort()).toEqual(["build.completed", "source.deleted"]);
    expect(receiver.received.at(-1)!.event).toMatchObject({ type: "source.deleted", data: { file_id: source.id } });

    expect(otherReceiver.received.filter((r) => r.event?.data.project_id === ids.projectA)).toEqual([]);
    expect(await deliveriesOf(ids.projectB, other.endpoint.id)).toEqual([]);
    const hooks = await callerFor(ids.admin);
    await hooks.remove({ projectId: ids.projectA, endpointId: endpoint.id });
    await hooks.remove({ projectId: ids.projectB, endpointId: other.endpoint.id });
  }, 60_000);

  it("retries after 500s and after a timeout, with the same message id, and logs why", async () => {
    const { endpoint } = await addEndpoint(receiver, ids.projectA);
    const hooks = await callerFor(ids.admin);
    const before = receiver.received.length;
    receiver.plan("500", "hang");
    await finishBuild(ids.projectA);
    const [delivery] = await settled(ids.projectA, endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 3, lastStatus: 204 });
    expect(delivery!.lastError).toMatch(/No answer within 3000 ms/);
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    expect(got.every((r) => r.error === null)).toBe(true);

    // Every attempt fails: the delivery fails after the schedule's three attempts, the error kept.
    receiver.always("500");
    await finishBuild(ids.projectA, "second.md");
    const list = await settled(ids.projectA, endpoint.id, 2);
    expect(list[0]).toMatchObject({ status: "failed", attempts: 3, lastStatus: 500 });
    expect(list[0]!.lastError).toMatch(/answered 500: receiver is down/);
    receiver.always(null);
    await hooks.remove({ projectId: ids.projectA, endpointId: endpoint.id });
  }, 60_000);

  it("does not follow a redirect, and says so", async () => {
    const { endpoint } = await addEndpoint(receiver, ids.projectA);
    const hooks = await callerFor(ids.admin);
    receiver.plan("redirect");
    await finishBuild(ids.projectA, "moved.md");
    const [delivery] = await settled(ids.projectA, endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(delivery!.lastError).toMatch(/redirect, which is not followed/);
    expect(receiver.received.filter((r) => r.path !== "/hooks")).toEqual([]);
    await hooks.remove({ projectId: ids.projectA, endpointId: endpoint.id });
  }, 60_000);

  it("sends at start a delivery whose job a crash never started, once", async () => {
    const { endpoint } = await addEndpoint(receiver, ids.projectA);
    const before = receiver.received.length;
    // What a crash between a delivery's row and its job leaves behind (emit.ts writes the row first).
    const body = { type: "build.completed", timestamp: new Date().toISOString(), data: { project_id: ids.projectA } };
    await testDb.db.webhookDelivery.create({
      data: {
        projectId: ids.projectA,
        endpointId: endpoint.id,
        eventId: "msg_2mR4crashLeftThisBehind",
        eventType: body.type,
        payload: JSON.stringify(body),
      },
    });
    const { resumePendingDeliveries } = await import("./emit");
    expect(await resumePendingDeliveries()).toBe(1);
    const [delivery] = await settled(ids.projectA, endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1, eventId: "msg_2mR4crashLeftThisBehind" });
    expect(receiver.received.slice(before).map((r) => r.id)).toEqual(["msg_2mR4crashLeftThisBehind"]);
    // A second start finds nothing left to send.
    expect(await resumePendingDeliveries()).toBe(0);
    await (await callerFor(ids.admin)).remove({ projectId: ids.projectA, endpointId: endpoint.id });
  }, 60_000);

  it("disables an endpoint after the documented number of failed deliveries, and says why", async () => {
    const { endpoint } = await addEndpoint(receiver, ids.projectA);
    const hooks = await callerFor(ids.admin);
    receiver.always("500");
    await finishBuild(ids.projectA, "one.md");
    await settled(ids.projectA, endpoint.id, 1);
    await finishBuild(ids.projectA, "two.md");
    await settled(ids.projectA, endpoint.id, 2);
    const [disabled] = await hooks.list({ projectId: ids.projectA });
    expect(disabled).toMatchObject({ enabled: false, consecutiveFailures: 2 });
    expect(disabled!.disabledReason).toMatch(/Disabled after 2 deliveries in a row failed every attempt.*500/);
    // Disabled: the next event is not queued for it.
    await finishBuild(ids.projectA, "three.md");
    expect(await deliveriesOf(ids.projectA, endpoint.id)).toHaveLength(2);

    // A test event still goes (to check a fix), and enabling again clears the count and the reason.
    receiver.always(null);
    const test = await hooks.sendTest({ projectId: ids.projectA, endpointId: endpoint.id });
    expect(test.eventType).toBe("webhook.test");
    const [latest] = await settled(ids.projectA, endpoint.id, 3);
    expect(latest).toMatchObject({ id: test.id, status: "succeeded" });
    expect(receiver.received.at(-1)!.event).toMatchObject({ type: "webhook.test" });
    const enabled = await hooks.update({ projectId: ids.projectA, endpointId: endpoint.id, enabled: true });
    expect(enabled).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledReason: null });
    await hooks.remove({ projectId: ids.projectA, endpointId: endpoint.id });
  }, 60_000);

  it("tells of failed deploys, with a rotated secret", async () => {
    const { endpoint } = await addEndpoint(receiver, ids.projectA, ["flow.deploy_failed"]);
    const hooks = await callerFor(ids.admin);
    const { secret } = await hooks.rotateSecret({ projectId: ids.projectA, endpointId: endpoint.id });
    receiver.setSecret(secret);
    const { db } = testDb;
    const flow = await db.flow.create({ data: { projectId: ids.projectA, name: "answers" } });
    const revision = await db.flowRevision.create({
      data: { flowId: flow.id, projectId: ids.projectA, number: 1, snapshot: {} },
    });
    const { failRevision } = await import("../flows/deploy");
    await failRevision(revision.id, new Error("the model is down"));
    const [delivery] = await settled(ids.projectA, endpoint.id);
    expect(delivery).toMatchObject({ status: "succeeded", eventType: "flow.deploy_failed" });
    expect(receiver.received.at(-1)).toMatchObject({
      error: null,
      event: { type: "flow.deploy_failed", data: { flow_name: "answers", revision_id: revision.id } },
    });
    await hooks.remove({ projectId: ids.projectA, endpointId: endpoint.id });
  }, 60_000);
});

describe("deploys and evaluations", () => {
  it("tells of a deployed revision and of a finished evaluation run", async () => {
    const { endpoint } = await addEndpoint(receiver, ids.projectA, ["flow.deployed", "evaluation.completed"]);
    const hooks = await callerFor(ids.admin);
    const { db } = testDb;
    const flow = await db.flow.create({ data: { projectId: ids.projectA, name: "faq" } });
    const revision = await db.flowRevision.create({
      data: { flowId: flow.id, projectId: ids.projectA, number: 3, snapshot: {}, status: "ready" },
    });
    // What activateRevision calls once the revision serves.
    const { emitDeployEnded } = await import("./events");
    await emitDeployEnded(revision.id);
    const testSet = await db.testSet.create({ data: { projectId: ids.projectA, name: "faq cases", caseCount: 2 } });
    const run = await db.evaluationRun.create({
      data: {
        projectId: ids.projectA,
        flowId: flow.id,
        testSetId: testSet.id,
        target: "draft",
        graph: { nodes: [], edges: [], prompts: [] },
        graphHash: "h",
        status: "running",
        totalCases: 2,
        doneCases: 2,
      },
    });
    const { finishRun } = await import("../evaluation/run-steps");
    await finishRun(run.id);
    const list = await settled(ids.projectA, endpoint.id, 2);
    expect(list.map((d) => [d.eventType, d.status]).sort()).toEqual([
      ["evaluation.completed", "succeeded"],
      ["flow.deployed", "succeeded"],
    ]);
    const events = receiver.received.slice(-2).map((r) => r.event);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "flow.deployed",
        data: expect.objectContaining({ flow_name: "faq", revision_number: 3, status: "Deployed" }),
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "evaluation.completed",
        data: expect.objectContaining({ run_id: run.id, status: "completed", total_cases: 2, flow_name: "faq" }),
      }),
    );
    await hooks.remove({ projectId: ids.projectA, endpointId: endpoint.id });
  }, 60_000);
});

describe("the public API's procedures (/api/public/v1/webhooks)", () => {
  const tokenCaller = async (projectId: string, permissions: ("read" | "write")[]) => {
    const { createCaller } = await import("../trpc/root");
    return createCaller({
      auth: { kind: "token", tokenId: "t", projectId, permissions },
      requestId: "test",
      logger,
    }).publicApi.webhooks;
  };

  it("manages endpoints with a write token, snake_case, and answers another project's ids as not found", async () => {
    const api = await tokenCaller(ids.projectA, ["read", "write"]);
    const created = await api.create({ url: receiver.url, events: ["source.deleted"] });
    expect(created).toMatchObject({ url: receiver.url, events: ["source.deleted"], enabled: true });
    expect(created.secret).toMatch(/^whsec_/);
    receiver.setSecret(created.secret);
    expect((await api.list()).items.map((e) => e.id)).toContain(created.id);
    expect(JSON.stringify(await api.get({ endpoint_id: created.id }))).not.toContain(created.secret);
    const updated = await api.update({ endpoint_id: created.id, body: { events: ["source.deleted", "build.failed"] } });
    expect(updated.events).toEqual(["source.deleted", "build.failed"]);
    const test = await api.sendTest({ endpoint_id: created.id });
    expect(test).toMatchObject({ event_type: "webhook.test", status: "pending", attempts: 0 });
    await waitFor(async () => (await api.deliveries({ endpoint_id: created.id })).items[0]?.status === "succeeded");

    const other = await tokenCaller(ids.projectB, ["read", "write"]);
    for (const call of [
      () => other.get({ endpoint_id: created.id }),
      () => other.update({ endpoint_id: created.id, body: { enabled: false } }),
      () => other.sendTest({ endpoint_id: created.id }),
      () => other.deliveries({ endpoint_id: created.id }),
      () => other.rotateSecret({ endpoint_id: created.id }),
      () => other.remove({ endpoint_id: created.id }),
      () => other.get({ endpoint_id: "not-an-id" }),
    ]) {
      await expect(call()).rejects.toThrow("Webhook endpoint not found");
    }
    const readOnly = await tokenCaller(ids.projectA, ["read"]);
    await expect(readOnly.list()).rejects.toThrow("Permission denied");
    expect(await api.remove({ endpoint_id: created.id })).toEqual({ id: created.id, deleted: true });
  }, 60_000);
});
