import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardClient, type Session } from "../testing/dashboard-client";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { flowCall } from "../testing/flow-client";
import { apiClient, appDatabaseUrl, quarryCli, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import type { getProjectModels } from "./project-models";

/**
 * Model routing over real HTTP: the app runs with no model in its environment (the default install); an admin adds
 * an OpenAI-compatible stand-in as a team provider in the dashboard, picks its model on a flow's response node, and
 * the deployed flow's answer comes from that stand-in with the provider's key, recorded under the provider's name.
 * A model nothing serves is refused; a project's default embedding model re-embeds its chunk sets.
 */

const OWNER = { email: "owner@routing.test", password: "owner-password-1" };
const KEY = "sk-routing-team-key-0123456789";
const ROOT = path.resolve(import.meta.dirname, "../..");
const RESPONSE_NODE = "response-1764000000003";
const DOCS = {
  "granite.txt":
    "Granite quarrying\n\nGranite is cut from the north face with wire saws. The granite blocks weigh twelve tonnes each and are moved by crane to the cutting shed.",
  "basalt.txt":
    "Basalt columns\n\nBasalt forms hexagonal columns when lava cools slowly. The basalt is crushed for road gravel at the east pit.",
};

type ProjectModelsView = Awaited<ReturnType<typeof getProjectModels>>;

let quarry: QuarryProcess;
let stand: FakeChatServer;
let client: ReturnType<typeof dashboardClient>;
let owner: Session;
let teamId: string;
let projectId: string;

const flow = (method: string, suffix: string, body?: unknown) =>
  flowCall(quarry.url, quarry.token, "path", "plain-rag", method, suffix, body);

/** The app's own database, as an outside client reads it (the usage records' provider column). */
const query = async <T>(sql: string): Promise<T[]> => {
  const db = new pg.Client({ connectionString: appDatabaseUrl(quarry) });
  db.on("error", () => undefined);
  await db.connect();
  try {
    return (await db.query(sql)).rows as T[];
  } finally {
    await db.end();
  }
};

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 300));
  }
};

beforeAll(async () => {
  stand = await startFakeChatServer();
  stand.setModels(["team-llm-1", "team-embed-1"]);
  stand.requireKey(KEY);
  quarry = await startQuarry({
    env: {
      QUARRY_ADMIN_EMAIL: OWNER.email,
      QUARRY_ADMIN_PASSWORD: OWNER.password,
      // The stand-in is on loopback, which the SSRF-safe fetcher refuses unless the admin allows it.
      QUARRY_FETCH_ALLOW_HOSTS: new URL(stand.baseUrl).host,
      QUARRY_SECRET_KEY: "routing-server-secret-0123456789-abcdef",
    },
  });
  const api = apiClient(quarry);
  for (const [name, text] of Object.entries(DOCS)) {
    const { build_id } = (await (await api.upload(name, text)).json()) as { build_id: string };
    expect((await api.waitForBuild(build_id)).status).toBe("Completed");
  }
  quarryCli(
    quarry,
    "flow",
    "import",
    "--project",
    "default",
    "--file",
    path.join(ROOT, "examples/flows/plain-rag.json"),
  );
  client = dashboardClient(quarry.url);
  owner = await client.signIn(OWNER.email, OWNER.password);
  const me = await client.me(owner);
  teamId = me.teams[0]!.id;
  projectId = me.teams[0]!.projects[0]!.id;
}, 600_000);

afterAll(async () => {
  await quarry?.dispose();
  await stand?.close();
});

const models = () => client.ok<ProjectModelsView>(owner, "dashboard.projectModels.get", { projectId }, "query");

describe("a team provider's model on a flow node", () => {
  it("is refused while nothing serves it, then answers the deployed flow with the provider's key", async () => {
    const refused = await flow("PATCH", `/llm/${RESPONSE_NODE}`, { config: { model: "team-llm-1" } });
    expect(refused.status).toBe(400);
    expect(refused.json().detail).toBe(
      "Invalid model 'team-llm-1'. Valid values: gpt-4o, gpt-4o-mini, gpt-4.1, gpt-4.1-mini, gpt-4.1-nano, " +
        "gpt-3.5-turbo-0125, mixtral-8x7b-32768, llama-3.1-8b-instant",
    );

    const provider = await client.ok<{ id: string }>(
      owner,
      "dashboard.modelProviders.create",
      { teamId, kind: "openai_compatible", name: "Stand-in box", baseUrl: stand.baseUrl, apiKey: KEY },
      "mutation",
    );
    await client.ok(owner, "dashboard.modelProviders.test", { teamId, providerId: provider.id }, "mutation");

    const unserved = await flow("PATCH", `/llm/${RESPONSE_NODE}`, { config: { model: "nothing-serves-this" } });
    expect(unserved.status).toBe(400);
    expect(unserved.json().detail).toMatch(
      /^Invalid model 'nothing-serves-this'\. Valid values: team-embed-1, team-llm-1, gpt-4o, gpt-4o-mini, /,
    );
    const chosen = await flow("PATCH", `/llm/${RESPONSE_NODE}`, { config: { model: "team-llm-1" } });
    expect(chosen.status, chosen.text).toBe(200);
    const files = await flow("PATCH", "/datasets/dataset-1764000000001", {
      config: { files: ["granite.txt", "basalt.txt"] },
    });
    expect(files.status, files.text).toBe(200);
    const deployed = await flow("POST", "/deploy", {});
    expect(deployed.status, deployed.text).toBe(200);

    const before = stand.requests.length;
    const run = await flow("POST", "", { query: "How heavy are the granite blocks?" });
    expect(run.status, run.text).toBe(200);
    expect(run.json()).toMatchObject({ model: "team-llm-1" });
    expect(run.json().answer).toMatch(/granite.*\[1\]/i);
    const calls = stand.requests.slice(before);
    expect(calls.map((r) => r.model)).toContain("team-llm-1");
    expect(new Set(stand.authorizations.slice(-calls.length))).toEqual(new Set([`Bearer ${KEY}`]));

    const recorded = await until(
      () =>
        query<{ provider: string; cause: string }>(
          "SELECT provider, cause FROM model_calls WHERE model = 'team-llm-1'",
        ),
      (rows) => rows.length > 0,
    );
    expect(recorded).toContainEqual({ provider: "Stand-in box", cause: "flow_run" });
    // The key is nowhere in the records.
    expect(JSON.stringify(await query("SELECT * FROM model_calls"))).not.toContain(KEY);
  });
});

describe("a project's default models", () => {
  it("says what answers each role, takes only served models, and re-embeds on a new embedding model", async () => {
    const initial = await models();
    expect(initial.resolved.find((r) => r.role === "chat")).toMatchObject({
      model: "local extractive answerer",
      source: "local",
    });
    expect(initial.served.chat.map((m) => m.model)).toContain("team-llm-1");

    const wrong = await client.call(owner, "dashboard.projectModels.set", { projectId, chat: "gpt-9" }, "mutation");
    expect(wrong.status).toBe(400);
    expect(wrong.message).toMatch(/^No provider serves the chat model 'gpt-9'\. Served: team-embed-1, team-llm-1$/);

    const set = await client.ok<ProjectModelsView>(
      owner,
      "dashboard.projectModels.set",
      { projectId, chat: "team-llm-1", embedding: "team-embed-1" },
      "mutation",
    );
    expect(set.defaults).toMatchObject({ chat: "team-llm-1", embedding: "team-embed-1", rerank: null });
    expect(set.resolved.find((r) => r.role === "chat")).toMatchObject({
      model: "team-llm-1",
      providerName: "Stand-in box",
      source: "project",
    });

    // The re-embedding job that exists runs with the new model, through the provider, with its key.
    const jobs = await until(
      () => query<{ status: string }>("SELECT status FROM reembedding_jobs ORDER BY created_at"),
      (rows) => rows.some((r) => r.status === "completed"),
    );
    expect(jobs.map((j) => j.status)).toContain("completed");
    expect(stand.embeddings.some((e) => e.model === "team-embed-1")).toBe(true);
    const api = apiClient(quarry);
    const config = (await (await api.get("/config")).json()) as { embedding_model: string };
    expect(config.embedding_model).toBe("team-embed-1");

    // A plain ask (no model named) is answered by the project's default chat model.
    const before = stand.requests.length;
    const asked = await api.post("/ask-sources", { question: "What is basalt crushed for?" });
    expect(asked.status).toBe(200);
    expect(stand.requests.slice(before).map((r) => r.model)).toContain("team-llm-1");
  });
});
