import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "../env";
import { scrubLogObject } from "../log-serializers";
import { loggerOptions } from "../logger";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { freePort } from "../testing/quarry-process";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";
import { KEY_UNREADABLE_ERROR } from "./model-providers.schema";

/**
 * Model providers through the dashboard's procedures (tRPC caller, real database), against local OpenAI-compatible
 * stand-ins over real HTTP through the SSRF-safe fetcher: add, test, list, edit, remove; keys never come back, are
 * not stored or logged in the clear, and are refused, readably, under another server secret.
 */

const KEY = "sk-test-right-key-0123456789";
const SECRET = "first-server-secret-0123456789-abcdef";

let database: TestDatabase;
let allowed: FakeChatServer;
let notAllowed: FakeChatServer;
let closedPort: number;
let logged = "";
const ids = {} as Record<"team" | "otherTeam" | "admin" | "member" | "viewer" | "otherAdmin", string>;

const testLogger = pino(
  { ...loggerOptions(), level: "debug" },
  new Writable({ write: (chunk: Buffer, _e, done) => ((logged += chunk.toString()), done()) }),
);

const callerFor = async (userId: string) => {
  const { createCaller } = await import("../trpc/root");
  return createCaller({
    auth: { kind: "session", userId, sessionId: "test", email: `${userId}@providers.test` },
    requestId: "test",
    logger: testLogger,
  }).dashboard.modelProviders;
};

beforeAll(async () => {
  allowed = await startFakeChatServer();
  notAllowed = await startFakeChatServer();
  allowed.setModels(["llama3.2:3b", "qwen2.5:7b"]);
  allowed.requireKey(KEY);
  closedPort = await freePort();
  const hostOf = (url: string) => new URL(url).host;
  // Loopback is refused unless listed: the first stand-in and a port nobody listens on are, the second is not.
  setRuntimeEnv("QUARRY_FETCH_ALLOW_HOSTS", `${hostOf(allowed.baseUrl)},127.0.0.1:${closedPort}`);
  setRuntimeEnv("QUARRY_SECRET_KEY", SECRET);
  database = await startTestDatabase();
  const { db } = await import("../db");
  const team = await db.team.create({ data: { name: "Models" } });
  const other = await db.team.create({ data: { name: "Elsewhere" } });
  ids.team = team.id;
  ids.otherTeam = other.id;
  for (const [who, teamId, role] of [
    ["admin", team.id, "admin"],
    ["member", team.id, "member"],
    ["viewer", team.id, "viewer"],
    ["otherAdmin", other.id, "admin"],
  ] as const) {
    const user = await db.user.create({ data: { name: who, email: `${who}@providers.test` } });
    await db.teamMember.create({ data: { teamId, userId: user.id, role } });
    ids[who] = user.id;
  }
}, 600_000);

afterAll(async () => {
  await database?.stop();
  await allowed?.close();
  await notAllowed?.close();
});

const addProvider = async (overrides: Record<string, unknown> = {}) =>
  (await callerFor(ids.admin)).create({
    teamId: ids.team,
    kind: "openai_compatible",
    name: `Local ${Math.random().toString(36).slice(2, 8)}`,
    baseUrl: allowed.baseUrl,
    apiKey: KEY,
    ...overrides,
  });

describe("model providers", () => {
  it("adds a provider, tests it (latency, models) and lists what it serves", async () => {
    const admin = await callerFor(ids.admin);
    const created = await addProvider({ name: "Ollama box" });
    expect(created).toMatchObject({ source: "team", keyPrefix: "sk-te…", keyStatus: "ok", servedModels: [] });

    const { test, provider } = await admin.test({ teamId: ids.team, providerId: created.id });
    expect(test).toMatchObject({ ok: true, message: "Connected: 2 models" });
    expect(test.latencyMs).toBeGreaterThanOrEqual(0);
    expect(test.latencyMs).toBeLessThan(15_000);
    expect(provider.servedModels).toEqual(["llama3.2:3b", "qwen2.5:7b"]);
    expect(provider.modelsFetchedAt).toBeInstanceOf(Date);

    const list = await admin.list({ teamId: ids.team });
    expect(list.providers.find((p) => p.id === created.id)).toMatchObject({
      name: "Ollama box",
      lastTest: { ok: true },
      servedModels: ["llama3.2:3b", "qwen2.5:7b"],
    });
    const { servedModels } = await import("./served-models");
    expect(await servedModels(ids.team)).toEqual(
      expect.arrayContaining([
        {
          model: "qwen2.5:7b",
          providerId: created.id,
          providerName: "Ollama box",
          kind: "openai_compatible",
          source: "team",
        },
      ]),
    );
    expect(await servedModels(ids.otherTeam)).toEqual([]);
  });

  it("reads an Ollama server addressed without /v1 through its /api/tags", async () => {
    const ollama = await addProvider({ baseUrl: allowed.baseUrl.replace(/\/v1$/, "") });
    const { test, provider } = await (await callerFor(ids.admin)).test({ teamId: ids.team, providerId: ollama.id });
    expect(test.ok).toBe(true);
    expect(provider.servedModels).toEqual(["llama3.2:3b", "qwen2.5:7b"]);
  });

  it("reports a wrong key (401) and a refused connection as results, not errors", async () => {
    const admin = await callerFor(ids.admin);
    const wrong = await addProvider({ apiKey: "sk-wrong-key-000000000000" });
    const refusedKey = await admin.test({ teamId: ids.team, providerId: wrong.id });
    expect(refusedKey.test).toMatchObject({ ok: false });
    expect(refusedKey.test.message).toMatch(/refused the key \(HTTP 401\): Incorrect API key provided/);
    expect(refusedKey.provider.servedModels).toEqual([]);

    const down = await addProvider({ baseUrl: `http://127.0.0.1:${closedPort}/v1` });
    const unreachable = await admin.test({ teamId: ids.team, providerId: down.id });
    expect(unreachable.test).toMatchObject({ ok: false });
    expect(unreachable.test.message).toMatch(/the connection was refused/);
  });

  it("refuses a provider on a loopback address the install does not allow", async () => {
    await expect(addProvider({ baseUrl: notAllowed.baseUrl })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/127\.0\.0\.1 is a loopback address; only public addresses are fetched/),
    });
    await expect(addProvider({ baseUrl: "http://localhost:11434/v1" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/names this machine/),
    });
    // Nor can an allowed provider be moved there.
    const ok = await addProvider({ apiKey: "" });
    await expect(
      (await callerFor(ids.admin)).update({ teamId: ids.team, providerId: ok.id, baseUrl: notAllowed.baseUrl }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("edits a provider: a new key, a new name; a keyed provider moves only with its key entered again", async () => {
    const admin = await callerFor(ids.admin);
    const p = await addProvider({ apiKey: "sk-old-key-000000000000" });
    const renamed = await admin.update({ teamId: ids.team, providerId: p.id, name: "Renamed", apiKey: KEY });
    expect(renamed).toMatchObject({ name: "Renamed", keyPrefix: "sk-te…" });
    expect((await admin.test({ teamId: ids.team, providerId: p.id })).test.ok).toBe(true);

    const elsewhere = `http://127.0.0.1:${closedPort}/v1`;
    await expect(admin.update({ teamId: ids.team, providerId: p.id, baseUrl: elsewhere })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "Enter the key again to use it at a new address",
    });
    const moved = await admin.update({ teamId: ids.team, providerId: p.id, baseUrl: elsewhere, clearKey: true });
    expect(moved).toMatchObject({
      baseUrl: elsewhere,
      keyPrefix: null,
      keyStatus: "none",
      servedModels: [],
      modelsFetchedAt: null,
      lastTest: null,
    });
    await expect(addProvider({ name: "Renamed" })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("removes a provider, once", async () => {
    const admin = await callerFor(ids.admin);
    const p = await addProvider();
    await admin.remove({ teamId: ids.team, providerId: p.id });
    expect((await admin.list({ teamId: ids.team })).providers.map((x) => x.id)).not.toContain(p.id);
    await expect(admin.remove({ teamId: ids.team, providerId: p.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("never gives the key back, stores it only sealed, and keeps it out of the logs", async () => {
    const admin = await callerFor(ids.admin);
    const p = await addProvider();
    const answers = [
      p,
      await admin.list({ teamId: ids.team }),
      await admin.test({ teamId: ids.team, providerId: p.id }),
      await admin.update({ teamId: ids.team, providerId: p.id, name: "Sealed" }),
    ];
    for (const answer of answers) expect(JSON.stringify(answer)).not.toContain(KEY.slice(6));
    const { db } = await import("../db");
    const rows = await db.$queryRawUnsafe<unknown[]>(`SELECT * FROM model_providers`);
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(KEY.slice(6));
    // A failing call logs its input's secret-named fields redacted; nothing logged so far carries the key.
    expect(JSON.stringify(scrubLogObject({ input: { apiKey: KEY } }))).not.toContain(KEY);
    expect(logged).not.toContain(KEY.slice(6));
  });

  it("says a key sealed under another server secret is unreadable, and never fails with a 500", async () => {
    const admin = await callerFor(ids.admin);
    const p = await addProvider({ name: "Before rotation" });
    setRuntimeEnv("QUARRY_SECRET_KEY", "another-server-secret-0123456789-abcdef");
    try {
      const listed = (await admin.list({ teamId: ids.team })).providers.find((x) => x.id === p.id);
      expect(listed).toMatchObject({ keyStatus: "unreadable", keyPrefix: "sk-te…" });
      const { test } = await admin.test({ teamId: ids.team, providerId: p.id });
      expect(test).toMatchObject({ ok: false, message: KEY_UNREADABLE_ERROR });
      // Entering the key again seals it under the new secret.
      await admin.update({ teamId: ids.team, providerId: p.id, apiKey: KEY });
      expect((await admin.test({ teamId: ids.team, providerId: p.id })).test.ok).toBe(true);
    } finally {
      setRuntimeEnv("QUARRY_SECRET_KEY", SECRET);
    }
  });

  it("seals keys under the install's own secret when QUARRY_SECRET_KEY is unset", async () => {
    setRuntimeEnv("QUARRY_SECRET_KEY", "");
    try {
      const admin = await callerFor(ids.admin);
      const p = await addProvider({ name: "Generated secret" });
      expect(p.keyStatus).toBe("ok");
      expect((await admin.test({ teamId: ids.team, providerId: p.id })).test.ok).toBe(true);
      const { db } = await import("../db");
      expect(await db.instanceSetting.findUnique({ where: { key: "auth_secret" } })).not.toBeNull();
    } finally {
      setRuntimeEnv("QUARRY_SECRET_KEY", SECRET);
    }
  });

  it("lists the environment's providers read-only, and their models as served", async () => {
    setRuntimeEnv("LLM_PROVIDER", "openai");
    setRuntimeEnv("LLM_BASE_URL", "http://ollama.internal:11434/v1");
    setRuntimeEnv("LLM_MODEL", "llama3.1:8b");
    setRuntimeEnv("LLM_API_KEY", "ollama-env-key-123456");
    try {
      const { environment } = await (await callerFor(ids.admin)).list({ teamId: ids.team });
      expect(environment).toEqual([
        expect.objectContaining({
          id: "env:chat",
          source: "environment",
          kind: "openai_compatible",
          keyPrefix: "ollam…",
          servedModels: ["llama3.1:8b"],
        }),
      ]);
      expect(JSON.stringify(environment)).not.toContain("env-key");
      const { servedModels } = await import("./served-models");
      expect(await servedModels(ids.otherTeam)).toEqual([
        {
          model: "llama3.1:8b",
          providerId: "env:chat",
          providerName: "Chat model",
          kind: "openai_compatible",
          source: "environment",
        },
      ]);
    } finally {
      setRuntimeEnv("LLM_PROVIDER", "local");
    }
  });

  it("lets only the team's admins see or change providers", async () => {
    const p = await addProvider();
    for (const who of ["member", "viewer"] as const) {
      const caller = await callerFor(ids[who]);
      await expect(caller.list({ teamId: ids.team })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(caller.test({ teamId: ids.team, providerId: p.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(caller.remove({ teamId: ids.team, providerId: p.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    // Another team's admin: this team does not exist for them, and its providers are not theirs to name.
    const outsider = await callerFor(ids.otherAdmin);
    await expect(outsider.list({ teamId: ids.team })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(outsider.test({ teamId: ids.otherTeam, providerId: p.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(outsider.remove({ teamId: ids.otherTeam, providerId: p.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
