import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dashboardClient, type Session } from "../testing/dashboard-client";
import { replyFor, startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import type { ChatRequestBody } from "../testing/fake-chat-types";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import type { projectUsage } from "./service";

/**
 * Usage over real HTTP: the app runs with a local OpenAI-compatible stand-in as its chat model and reranker; an ask
 * and an extraction through the public API must each leave their calls in the project's usage, with the cause, the
 * stand-in's own token counts (its `usage` field, not our estimate) and the reranker's estimate flagged as one.
 */

const OWNER = { email: "owner@usage.test", password: "owner-password-1" };
const RIVERS =
  "# Rivers of the south west\n\nThe river Tamar forms most of the border between Devon and Cornwall. " +
  "The Tamar is sixty one miles long and reaches the sea at Plymouth Sound.\n";

type Usage = Awaited<ReturnType<typeof projectUsage>>;

let quarry: QuarryProcess;
let chat: FakeChatServer;
let api: ReturnType<typeof apiClient>;
let client: ReturnType<typeof dashboardClient>;
let owner: Session;
let projectId: string;
let fileId: string;

/** What the stand-in reports for a request: its prompt_tokens and completion_tokens. */
const reported = (requests: ChatRequestBody[]) => ({
  tokensIn: requests.reduce((n, r) => n + Math.ceil(JSON.stringify(r.messages).length / 4), 0),
  tokensOut: requests.reduce((n, r) => n + Math.ceil(replyFor(r).length / 4), 0),
});

const summary = (days = 30) => client.ok<Usage>(owner, "dashboard.usage.summary", { projectId, days }, "query");

/** Rows are written a moment after the call (batched): waits until `ready` holds. */
const usageWhen = async (ready: (u: Usage) => boolean) => {
  for (let i = 0; i < 50; i++) {
    const usage = await summary();
    if (ready(usage)) return usage;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`usage never matched: ${JSON.stringify(await summary())}`);
};

const causeOf = (u: Usage, cause: string) => u.byCause.find((c) => c.cause === cause);

beforeAll(async () => {
  chat = await startFakeChatServer();
  quarry = await startQuarry({
    env: {
      QUARRY_ADMIN_EMAIL: OWNER.email,
      QUARRY_ADMIN_PASSWORD: OWNER.password,
      LLM_PROVIDER: "openai",
      LLM_BASE_URL: chat.baseUrl,
      LLM_MODEL: "stand-in-chat",
      LLM_API_KEY: "sk-test",
      RERANK_BASE_URL: chat.baseUrl,
      RERANK_MODEL: "stand-in-rerank",
    },
  });
  api = apiClient(quarry);
  client = dashboardClient(quarry.url);
  owner = await client.signIn(OWNER.email, OWNER.password);
  const me = await client.me(owner);
  projectId = me.teams[0]!.projects[0]!.id;
  const res = await api.upload("rivers.md", RIVERS, { enrichment: "none" });
  const { build_id } = (await res.json()) as { build_id: string };
  const build = (await api.waitForBuild(build_id, 400_000)) as unknown as { status: string; file_id: string };
  expect(build.status).toBe("Completed");
  fileId = build.file_id;
}, 600_000);

afterAll(async () => {
  await quarry?.dispose();
  await chat?.close();
});

beforeEach(() => {
  chat.requests.length = 0;
  chat.reranks.length = 0;
  chat.failWith(null);
});

describe("model usage", () => {
  it("starts empty: the local embedder and the build made no remote call", async () => {
    const usage = await summary();
    expect(usage.totals.calls).toBe(0);
    expect(usage.byDay).toEqual([]);
  });

  it("records an ask's chat calls with the stand-in's tokens, and its rerank calls as estimated", async () => {
    const res = await api.post("/ask-sources", {
      question: "How long is the river Tamar?",
      thinking_level: "accurate",
    });
    expect(res.status).toBe(200);
    const requests = [...chat.requests];
    const reranks = chat.reranks.length;
    expect(requests.length).toBeGreaterThan(0);
    expect(reranks).toBeGreaterThan(0);
    const usage = await usageWhen((u) => (causeOf(u, "ask")?.calls ?? 0) >= requests.length + reranks);
    const chatModel = usage.byModel.find((m) => m.model === "stand-in-chat" && m.capability === "chat")!;
    expect(chatModel).toMatchObject({ calls: requests.length, errors: 0, estimatedCalls: 0, ...reported(requests) });
    const rerank = usage.byModel.find((m) => m.model === "stand-in-rerank")!;
    // The stand-in's /rerank answers no usage: the tokens are an estimate, and say so.
    expect(rerank).toMatchObject({ capability: "rerank", calls: reranks, estimatedCalls: reranks });
    expect(rerank.tokensIn).toBeGreaterThan(0);
    expect(causeOf(usage, "ask")).toMatchObject({ calls: requests.length + reranks, errors: 0 });
    expect(usage.byDay).toHaveLength(1);
    expect(usage.byDay[0]!.day).toBe(new Date().toISOString().slice(0, 10));
    expect(usage.totals.calls).toBe(requests.length + reranks);
  });

  it("records an extraction under its own cause, and a failed call as an error", async () => {
    const before = await summary();
    const schema = { type: "object", properties: { river: { type: "string" } }, required: ["river"] };
    const ok = await api.post("/run-extraction", {
      file_ids: [fileId],
      user_instruction: "Name the river",
      output_schema: schema,
    });
    expect(ok.status).toBe(200);
    const requests = [...chat.requests];
    const usage = await usageWhen((u) => (causeOf(u, "extraction")?.calls ?? 0) >= requests.length);
    expect(causeOf(usage, "extraction")).toMatchObject({ calls: requests.length, errors: 0, ...reported(requests) });
    // The ask's rows are where they were.
    expect(causeOf(usage, "ask")).toEqual(causeOf(before, "ask"));

    chat.failWith(() => 400);
    const failed = await api.post("/run-extraction", {
      file_ids: [fileId],
      user_instruction: "Name the river",
      output_schema: schema,
    });
    expect(failed.status).toBeGreaterThanOrEqual(400);
    const after = await usageWhen((u) => (causeOf(u, "extraction")?.errors ?? 0) >= 1);
    expect(causeOf(after, "extraction")).toMatchObject({
      calls: requests.length + 1,
      errors: 1,
      ...reported(requests),
    });
  });

  it("turns tokens into cost with the team's prices, per model", async () => {
    const set = await client.call(
      owner,
      "dashboard.usage.setPrice",
      { projectId, model: "stand-in-chat", inputPerMillion: 2.5, outputPerMillion: 10 },
      "mutation",
    );
    expect(set.status).toBe(200);
    const refused = await client.call(
      owner,
      "dashboard.usage.setPrice",
      { projectId, model: "stand-in-chat", inputPerMillion: -1, outputPerMillion: 10 },
      "mutation",
    );
    expect(refused.status).toBe(400);
    const usage = await summary();
    const chatModel = usage.byModel.find((m) => m.model === "stand-in-chat")!;
    const cost = (chatModel.tokensIn * 2.5 + chatModel.tokensOut * 10) / 1e6;
    expect(chatModel.priced).toBe(true);
    expect(chatModel.cost).toBeCloseTo(cost, 9);
    expect(usage.byModel.find((m) => m.model === "stand-in-rerank")).toMatchObject({ priced: false, cost: null });
    expect(usage.totals.cost).toBeCloseTo(cost, 9);
    expect(usage.byCause.reduce((n, c) => n + (c.cost ?? 0), 0)).toBeCloseTo(cost, 9);
    expect(usage.prices).toEqual([{ model: "stand-in-chat", inputPerMillion: 2.5, outputPerMillion: 10 }]);

    const removed = await client.call(
      owner,
      "dashboard.usage.removePrice",
      { projectId, model: "stand-in-chat" },
      "mutation",
    );
    expect(removed.status).toBe(200);
    expect((await summary()).totals.cost).toBeNull();
  });
});
