import { readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSseFrames } from "../http/sse";
import { dashboardClient } from "../testing/dashboard-client";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { flowCall, type FlowForm } from "../testing/flow-client";
import { apiClient, createToken, quarryCli, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { DRAFT_CONFLICT } from "./editor.schema";

/**
 * The flow service over real HTTP (contract §7): both address forms, every endpoint and its errors, deploy as a job
 * with revisions, runs and simulations with a stand-in chat model, streaming, and the CLI's import/export.
 */

const OWNER = { email: "owner@flows.test", password: "owner-password-1" };
const ROOT = path.resolve(import.meta.dirname, "../..");
const EXAMPLE = (name: string) => path.join(ROOT, "examples/flows", `${name}.json`);
let quarry: QuarryProcess;
let chat: FakeChatServer;
const call = (form: FlowForm, flow: string | null, method: string, suffix: string, body?: unknown, token?: string) =>
  flowCall(quarry.url, token ?? quarry.token, form, flow, method, suffix, body);

const DOCS = {
  "granite.txt":
    "Granite quarrying\n\nGranite is cut from the north face with wire saws. The granite blocks weigh twelve tonnes each and are moved by crane to the cutting shed.",
  "basalt.txt":
    "Basalt columns\n\nBasalt forms hexagonal columns when lava cools slowly. The basalt is crushed for road gravel at the east pit.",
};

beforeAll(async () => {
  chat = await startFakeChatServer();
  quarry = await startQuarry({
    env: {
      LLM_PROVIDER: "openai",
      LLM_BASE_URL: chat.baseUrl,
      LLM_API_KEY: "test-key",
      LLM_MODEL: "gpt-4o-mini",
      // The editor's procedures (dashboard) are signed in as this owner.
      QUARRY_ADMIN_EMAIL: OWNER.email,
      QUARRY_ADMIN_PASSWORD: OWNER.password,
    },
  });
  const api = apiClient(quarry);
  for (const [name, text] of Object.entries(DOCS)) {
    const res = await api.upload(name, text);
    const { build_id } = (await res.json()) as { build_id: string };
    expect((await api.waitForBuild(build_id)).status).toBe("Completed");
  }
  quarryCli(quarry, "flow", "import", "--project", "default", "--file", EXAMPLE("plain-rag"));
  quarryCli(quarry, "flow", "import", "--project", "default", "--file", EXAMPLE("reranked-rag"));
}, 300_000);

afterAll(async () => {
  await quarry?.dispose();
  await chat?.close();
});

const plain = JSON.parse(readFileSync(EXAMPLE("plain-rag"), "utf8"));
const DATASET = plain.nodes[0].id as string;
const RETRIEVAL = plain.nodes[1].id as string;

it("exports an imported flow exactly as the file was written", () => {
  for (const name of ["plain-rag", "reranked-rag"]) {
    expect(quarryCli(quarry, "flow", "export", name, "--project", "default") + "\n").toBe(
      readFileSync(EXAMPLE(name), "utf8"),
    );
  }
});

describe.each(["path", "host"] as const)("%s form", (form) => {
  it("lists flows and answers the contract's 404s", async () => {
    const list = await call(form, null, "GET", "");
    expect(list.status).toBe(200);
    expect(list.json().total).toBe(2);
    expect(
      list
        .json()
        .flows.map((f: { name: string }) => f.name)
        .sort(),
    ).toEqual(["plain-rag", "reranked-rag"]);
    expect((await call(form, "nope", "GET", "/retrieval")).json()).toEqual({ detail: "Flow not found" });
    expect((await call(form, "nope", "POST", "/deploy", {})).json()).toEqual({
      detail: "Flow with name nope not found",
    });
    expect((await call(form, "nope", "POST", "", { query: "x" })).json()).toEqual({
      detail: "Flow with name nope not found",
    });
    const unauth = await call(form, "plain-rag", "GET", "/datasets", undefined, "qry_wrong");
    expect(unauth.status).toBe(401);
    expect((await call(form, "plain-rag", "GET", "/unknown-kind")).status).toBe(404);
  });

  it("lists nodes by kind and prompts", async () => {
    const datasets = await call(form, "plain-rag", "GET", "/datasets");
    expect(datasets.status).toBe(200);
    expect(datasets.json().map((n: { id: string }) => n.id)).toEqual([DATASET]);
    expect((await call(form, "plain-rag", "GET", "/graph-rag")).json()).toEqual([]);
    expect((await call(form, "plain-rag", "GET", "/llm")).json()).toEqual([]);
    const prompts = (await call(form, "reranked-rag", "GET", "/prompts")).json();
    expect(prompts.map((p: { id: string }) => p.id)).toEqual(["default_retrieval_prompt", "concise_answer"]);
  });
});

it("validates PATCH per kind with the contract's messages", async () => {
  const patch = (kind: string, id: string, body: unknown) => call("path", "plain-rag", "PATCH", `/${kind}/${id}`, body);
  const detail = async (kind: string, id: string, body: unknown) => {
    const res = await patch(kind, id, body);
    expect(res.status, res.text).toBe(400);
    return res.json().detail;
  };
  expect(await detail("retrieval", RETRIEVAL, {})).toBe("Invalid input: config is required");
  expect(await detail("retrieval", RETRIEVAL, { config: {} })).toBe("Invalid input: config is required");
  expect(await detail("retrieval", RETRIEVAL, { config: { topK: 5 } })).toBe("Invalid input: searchType is required");
  expect(await detail("retrieval", RETRIEVAL, { searchType: "fuzzy" })).toBe(
    "Invalid searchType 'fuzzy'. Valid values: similarity, keyword, hybrid, semantic",
  );
  expect(await detail("retrieval", RETRIEVAL, { searchType: "hybrid", scoreThreshold: 2 })).toBe(
    "scoreThreshold must be between 0.0 and 1.0",
  );
  expect(await detail("datasets", DATASET, { config: { files: ["missing.pdf", "granite.txt"] } })).toBe(
    "The following files do not exist as sources in the dataset: missing.pdf",
  );
  const reranked = JSON.parse(readFileSync(EXAMPLE("reranked-rag"), "utf8"));
  const rr = (kind: string, id: string, body: unknown) => call("path", "reranked-rag", "PATCH", `/${kind}/${id}`, body);
  expect((await rr("reranking", reranked.nodes[3].id, { topK: 0 })).json().detail).toBe(
    "topK must be a positive integer or null",
  );
  expect((await rr("chunking", reranked.nodes[1].id, { chunkOverlap: 5000 })).json().detail).toBe(
    "chunkOverlap must be an integer from 0 to chunkSize - 1",
  );
  expect((await rr("llm", reranked.nodes[4].id, { model: "gpt-9" })).json().detail).toMatch(/^Invalid model 'gpt-9'/);
  expect((await rr("llm", reranked.nodes[4].id, { promptId: "nope" })).json().detail).toBe("Prompt 'nope' not found");
  const missing = await patch("reranking", "reranking-1764000000999", { topK: 3 });
  expect(missing.status).toBe(404);
  expect(missing.json().detail).toBe("Reranking node with id 'reranking-1764000000999' not found in flow 'plain-rag'");
  expect((await patch("llm", RETRIEVAL, { model: "gpt-4o" })).status).toBe(404);
  const ok = await patch("reranking", "x", { topK: null });
  expect(ok.status).toBe(404);
  const nulled = await rr("reranking", reranked.nodes[3].id, { config: { topK: null } });
  expect(nulled.json()).toEqual({
    success: true,
    message: `Reranking node '${reranked.nodes[3].id}' updated successfully`,
    node_id: reranked.nodes[3].id,
  });
  await rr("reranking", reranked.nodes[3].id, { config: { topK: 5 } });
});

it("deploys, runs, streams, and keeps the deployed revision until the next deploy", async () => {
  const notDeployed = await call("path", "plain-rag", "POST", "", { query: "granite" });
  expect(notDeployed.status).toBe(404);
  expect(notDeployed.json().detail).toBe("Flow plain-rag is not deployed");
  const empty = await call("path", "plain-rag", "POST", "/deploy", {});
  expect(empty.status).toBe(400);
  expect(empty.json().detail).toMatch(/^Flow configuration is invalid: dataset node .* has no files$/);

  const set = await call("path", "plain-rag", "PATCH", `/datasets/${DATASET}`, {
    config: { files: ["granite.txt", "basalt.txt"] },
  });
  expect(set.json().message).toBe(`Dataset node '${DATASET}' updated successfully`);
  const flags = (await call("path", "plain-rag", "GET", "/retrieval")).json()[0].data.result;
  expect(flags).toMatchObject({ updated: false, waiting: true });

  const readOnly = createToken(quarry, "default", "read,write");
  const denied = await call("path", "plain-rag", "POST", "/deploy", {}, readOnly);
  expect(denied.status).toBe(403);
  expect(denied.json().detail).toBe("Permission denied");

  const deployed = await call("host", "plain-rag", "POST", "/deploy", { tool_description: "Answers about stone" });
  expect(deployed.status, deployed.text).toBe(200);
  expect(deployed.json()).toMatchObject({
    success: true,
    message: "Flow 'plain-rag' deployed successfully",
    status: "Deployed",
  });
  const summary = (await call("path", "plain-rag", "GET", "")).json();
  expect(summary).toMatchObject({ name: "plain-rag", status: "Deployed", revision_id: deployed.json().revision_id });
  expect(summary.url).toMatch(/\/api\/public\/v1\/flows\/plain-rag$/);

  for (const form of ["path", "host"] as const) {
    const run = await call(form, "plain-rag", "POST", "", { query: "How heavy are the granite blocks?", page_size: 1 });
    expect(run.status, run.text).toBe(200);
    const body = run.json();
    expect(body).toMatchObject({ page: 1, page_size: 1, total: 2, total_pages: 2, model: "gpt-4o-mini" });
    expect(body.items[0].metadata).toMatchObject({ source: "granite.txt", page: null });
    expect(body.items[0].metadata.chunk_id).toEqual(expect.any(String));
    // The stand-in model answers with the best passage's first sentence and its marker.
    expect(body.answer).toMatch(/granite.*\[1\]/i);
    expect(body.citations[0]).toMatchObject({ index: 1, file_name: "granite.txt" });
  }

  const streamed = await call("host", "plain-rag", "POST", "", { query: "What is basalt crushed for?", stream: true });
  const events = parseSseFrames(streamed.text) as {
    type: string;
    node_id?: string;
    status?: string;
    response?: { answer: string };
  }[];
  const kinds = events.map((e) => (e.type === "node" ? `${e.status}:${e.node_id!.split("-")[0]}` : e.type));
  expect(kinds.slice(0, 5)).toEqual([
    "started:dataset",
    "finished:dataset",
    "started:retrieval",
    "finished:retrieval",
    "started:response",
  ]);
  expect(kinds.at(-2)).toBe("finished:response");
  expect(kinds.at(-1)).toBe("done");
  const tokens = events.filter((e) => e.type === "token").map((e) => (e as unknown as { text: string }).text);
  expect(tokens.length).toBeGreaterThan(0);
  expect(tokens.join("")).toBe(events.at(-1)!.response!.answer);

  // The draft changes; the deployed revision does not, until the next deploy.
  await call("path", "plain-rag", "PATCH", `/retrieval/${RETRIEVAL}`, { config: { searchType: "keyword", topK: 1 } });
  expect((await call("path", "plain-rag", "POST", "", { query: "granite basalt" })).json().total).toBe(2);
  const simulated = await call("path", "plain-rag", "POST", "/simulate", { query: "granite basalt" });
  expect(simulated.json().total).toBe(1);
  expect((await call("path", "plain-rag", "POST", "/simulate", {})).json().detail).toBe(
    "Invalid input: query is required",
  );
  expect((await call("path", "plain-rag", "POST", "/deploy", {})).status).toBe(200);
  expect((await call("path", "plain-rag", "POST", "", { query: "granite basalt" })).json().total).toBe(1);

  const retrieval = (await call("path", "plain-rag", "GET", "/retrieval")).json()[0].data.result;
  expect(retrieval.total_retrievals).toBeGreaterThanOrEqual(5);
  const response = (await call("path", "plain-rag", "GET", "/llm")).json();
  expect(response).toEqual([]);
}, 300_000);

it("builds a chunking node's own chunk set on deploy, reranks, and simulates one node", async () => {
  const file = JSON.parse(readFileSync(EXAMPLE("reranked-rag"), "utf8"));
  const [dataset, chunking] = file.nodes;
  await call("path", "reranked-rag", "PATCH", `/datasets/${dataset.id}`, { files: ["granite.txt", "basalt.txt"] });
  const node = await call("host", "reranked-rag", "POST", "/nodes/simulate", { node_id: chunking.id });
  expect(node.status, node.text).toBe(200);
  const updated = node.json();
  expect(updated.message).toBe(`Node '${chunking.id}' simulated successfully`);
  expect(updated.updated_nodes.map((n: { id: string }) => n.id)).toEqual(
    file.nodes.slice(1).map((n: { id: string }) => n.id),
  );
  expect(updated.updated_nodes[0].data.result).toMatchObject({ updated: true, has_error: false });
  expect(updated.updated_nodes[0].data.result.total_chunks).toBeGreaterThanOrEqual(2);

  expect((await call("path", "reranked-rag", "POST", "/deploy", {})).status).toBe(200);
  const run = (await call("path", "reranked-rag", "POST", "", { query: "Where is basalt crushed?" })).json();
  expect(run.items[0].metadata.source).toBe("basalt.txt");
  expect(run.items[0].metadata.relevance_score).toBeGreaterThan(0);
  // The flow's chunk sets never show up in the project's own search.
  const rag = await apiClient(quarry).post("/prebuilt-rag", { query: "basalt" });
  const chunks = ((await rag.json()) as { chunks: { file_name: string }[] }).chunks;
  expect(chunks.map((c) => c.file_name).sort()).toEqual(["basalt.txt", "granite.txt"]);
}, 300_000);

it("deploys a graph-rag node model-free with its counts, and shows no flow to another project", async () => {
  const file = JSON.parse(readFileSync(EXAMPLE("plain-rag"), "utf8"));
  file.name = "graph-flow";
  file.nodes[1] = {
    ...file.nodes[1],
    id: "graph-rag-1764000000002",
    type: "graph-rag",
    data: { name: "G", config: { topK: 5 } },
  };
  file.edges = [
    { source: file.nodes[0].id, target: "graph-rag-1764000000002" },
    { source: "graph-rag-1764000000002", target: file.nodes[2].id },
  ];
  file.nodes[0].data.config = { files: [], fileIds: [] };
  const tmp = path.join(quarry.dataDir, "graph-flow.json");
  writeFileSync(tmp, JSON.stringify(file));
  quarryCli(quarry, "flow", "import", "--project", "default", "--file", tmp);
  await call("path", "graph-flow", "PATCH", `/datasets/${file.nodes[0].id}`, { files: ["granite.txt"] });
  const patched = await call("path", "graph-flow", "PATCH", "/graph-rag/graph-rag-1764000000002", { topK: 3 });
  expect(patched.json().message).toBe("Graph RAG node configuration updated successfully");
  const deploy = await call("path", "graph-flow", "POST", "/deploy", {});
  expect(deploy.status, deploy.text).toBe(200);
  const [graphNode] = (await call("path", "graph-flow", "GET", "/graph-rag")).json();
  expect(graphNode.data.result).toMatchObject({
    total_entities: expect.any(Number),
    total_relationships: expect.any(Number),
  });
  expect(graphNode.data.result.total_entities).toBeGreaterThan(0);

  const other = createToken(quarry, "other-project");
  expect((await call("path", null, "GET", "", undefined, other)).json()).toEqual({ flows: [], total: 0 });
  expect((await call("host", "plain-rag", "POST", "", { query: "granite" }, other)).status).toBe(404);
});

it("runs a smart-rag node: rewritten searches, fused and reranked, with its counters", async () => {
  const file = JSON.parse(readFileSync(EXAMPLE("plain-rag"), "utf8"));
  file.name = "smart-flow";
  const smart = "smart-rag-1764000000002";
  file.nodes[1] = { ...file.nodes[1], id: smart, type: "smart-rag", data: { name: "Smart", config: { topK: 1 } } };
  file.nodes[0].data.config = { files: ["granite.txt", "basalt.txt"], fileIds: [] };
  file.edges = [
    { source: file.nodes[0].id, target: smart },
    { source: smart, target: file.nodes[2].id },
  ];
  const tmp = path.join(quarry.dataDir, "smart-flow.json");
  writeFileSync(tmp, JSON.stringify(file));
  quarryCli(quarry, "flow", "import", "--project", "default", "--file", tmp);
  expect((await call("path", "smart-flow", "POST", "/deploy", {})).status).toBe(200);
  const run = (
    await call("host", "smart-flow", "POST", "", { query: "What is basalt crushed for and how heavy is granite?" })
  ).json();
  expect(run.total).toBe(1);
  expect(run.items[0].metadata.relevance_score).toBeGreaterThan(0);
  const [node] = (await call("path", "smart-flow", "GET", "/smart-rag")).json();
  expect(node.data.result).toMatchObject({ total_processed: 1, total_retrieved: 1 });
});

/** POSTs a streamed run and hangs up as soon as its first event arrives; resolves with that event's frame. */
const firstEventThenHangUp = (suffix: string, body: unknown) =>
  new Promise<string>((resolve, reject) => {
    const url = new URL(quarry.url);
    const payload = Buffer.from(JSON.stringify(body));
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: `/api/public/v1/flows${suffix}`,
        headers: {
          authorization: `Bearer ${quarry.token}`,
          "content-type": "application/json",
          "content-length": String(payload.length),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
          if (!text.includes("\n\n")) return;
          req.destroy();
          resolve(text.slice(0, text.indexOf("\n\n")));
        });
      },
    );
    req.on("error", (error) => {
      if (!req.destroyed) reject(error);
    });
    req.end(payload);
  });

it("stops a streamed run when its client goes away, without waiting for the model", async () => {
  const file = JSON.parse(readFileSync(EXAMPLE("plain-rag"), "utf8"));
  file.name = "hang-up";
  file.nodes[0].data.config = { files: ["granite.txt"], fileIds: [] };
  const tmp = path.join(quarry.dataDir, "hang-up.json");
  writeFileSync(tmp, JSON.stringify(file));
  quarryCli(quarry, "flow", "import", "--project", "default", "--file", tmp);
  // A run writes its nodes' counters when it ends: a node without a result has not been through a finished run.
  const recorded = async () => (await call("path", "hang-up", "GET", "/datasets")).json()[0].data.result !== undefined;
  expect(await recorded()).toBe(false);

  // The model takes 20 s to answer: a run that went on would end (and record) only then.
  chat.setStreamDelay(20_000, 0);
  chat.setReplyDelay(20_000);
  try {
    const first = await firstEventThenHangUp("/hang-up/simulate", { query: "How heavy are the blocks?", stream: true });
    expect(first).toMatch(/^event: node\ndata: .*"status":"started"/);
    const deadline = Date.now() + 8000;
    while (!(await recorded()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await recorded()).toBe(true);
  } finally {
    chat.setStreamDelay(0, 0);
    chat.setReplyDelay(0);
  }
}, 60_000);

it("a deleted source leaves the dataset nodes that named it, which are marked outdated", async () => {
  const sources = (await (await apiClient(quarry).get("")).json()) as { file_id: string; file_name: string }[];
  const basalt = sources.find((s) => s.file_name === "basalt.txt")!;
  expect((await apiClient(quarry).del({ file_id: basalt.file_id })).status).toBe(200);
  const [dataset] = (await call("path", "plain-rag", "GET", "/datasets")).json();
  expect(dataset.data.config.files).toEqual(["granite.txt"]);
  expect(dataset.data.config.fileIds).not.toContain(basalt.file_id);
  expect(dataset.data.result).toMatchObject({ updated: false });
  expect((await call("path", "plain-rag", "GET", "/retrieval")).json()[0].data.result).toMatchObject({ waiting: true });
});

describe("the editor's draft (dashboard procedures)", () => {
  it("refuses a save from a stale draft version with 409; API PATCHes count as edits, run flags do not", async () => {
    const dash = dashboardClient(quarry.url);
    const owner = await dash.signIn(OWNER.email, OWNER.password);
    const me = await dash.me(owner);
    const projectId = me.teams[0]!.projects.find((p) => p.name === "default")!.id;
    const ref = { projectId, name: "editor-draft" };
    await dash.ok(owner, "dashboard.flows.create", ref, "mutation");
    const version = async () =>
      (await dash.ok<{ draftVersion: number }>(owner, "dashboard.flows.get", ref, "query")).draftVersion;
    const save = (expectedVersion: number) =>
      dash.call(owner, "dashboard.flows.saveDraft", { ...ref, graph: plain, expectedVersion }, "mutation");

    const v0 = await version();
    const first = await save(v0);
    expect(first.status).toBe(200);
    expect((first.data as { draftVersion: number }).draftVersion).toBe(v0 + 1);
    const stale = await save(v0);
    expect(stale).toMatchObject({ status: 409, message: DRAFT_CONFLICT });

    // Someone edits the draft through the public API: the editor's next save from the old version is refused.
    const patched = await call("path", "editor-draft", "PATCH", `/datasets/${DATASET}`, {
      config: { files: ["granite.txt"] },
    });
    expect(patched.status).toBe(200);
    expect((await save(v0 + 1)).status).toBe(409);

    // A simulation writes node flags and counters, not the draft: a save from the current version still goes through.
    const v2 = await version();
    expect(v2).toBe(v0 + 2);
    expect((await call("path", "editor-draft", "POST", "/simulate", { query: "granite blocks" })).status).toBe(200);
    expect(await version()).toBe(v2);
    const check = await dash.ok<{ ok: boolean }>(owner, "dashboard.flows.check", { ...ref, graph: plain }, "mutation");
    expect(check.ok).toBe(false); // the file list of `plain` is empty
    const withFiles = (await dash.ok<{ graph: typeof plain }>(owner, "dashboard.flows.get", ref, "query")).graph;
    expect(await dash.ok(owner, "dashboard.flows.check", { ...ref, graph: withFiles }, "mutation")).toEqual({
      ok: true,
      issues: [],
    });

    // Deploys say who asked for them; a restore copies a revision into the draft and leaves the serving one alone.
    expect((await call("path", "editor-draft", "POST", "/deploy", { tool_description: "by token" })).status).toBe(200);
    await dash.ok(owner, "dashboard.flows.deploy", { ...ref, description: "by owner" }, "mutation");
    const revisions = await dash.ok<{ id: string; number: number; deployedBy: string; serving: boolean }[]>(
      owner,
      "dashboard.flows.revisions",
      ref,
      "query",
    );
    expect(revisions.map((r) => [r.number, r.deployedBy, r.serving])).toEqual([
      [2, OWNER.email, true],
      [1, "API token init token", false],
    ]);
    const restored = await dash.call(
      owner,
      "dashboard.flows.restore",
      { ...ref, revisionId: revisions[1]!.id, expectedVersion: await version() },
      "mutation",
    );
    expect(restored.status).toBe(200);
    const after = await dash.ok<{ activeRevision: { number: number } }>(owner, "dashboard.flows.get", ref, "query");
    expect(after.activeRevision.number).toBe(2);

    // One click back: the earlier revision serves at once, without a rebuild.
    const back = { ...ref, revisionId: revisions[1]!.id };
    expect(await dash.ok(owner, "dashboard.flowFiles.rollback", back, "mutation")).toEqual({
      revisionId: revisions[1]!.id,
      number: 1,
    });
    const rolled = await dash.ok<{ activeRevision: { number: number } }>(owner, "dashboard.flows.get", ref, "query");
    expect(rolled.activeRevision.number).toBe(1);
  });
});
