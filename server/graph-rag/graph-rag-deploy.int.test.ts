import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { replyFor, type ChatRequestBody } from "../testing/fake-chat-server";
import { flowCall } from "../testing/flow-client";
import { apiClient, createToken, quarryCli, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { graphFixture } from "./graph-fixture";

/**
 * A graph-rag flow deployed by a real Quarry process with the stand-in chat model over HTTP: the budget refuses a
 * deploy estimated past it; a build that reaches it stops and a larger budget resumes it; a build killed with -9
 * resumes on restart; a cancelled build leaves the previous revision serving; the node's counts and a run's graph
 * items through the public API, unreachable from another project. The stand-in here can hold its graph answers
 * (a slow model), so a test can act while a build is in the middle of its extraction.
 */

const FLOW = "graph-rag";
const DATASET = "dataset-1764000000021";
const CHUNKING = "chunking-1764000000022";
let quarry: QuarryProcess;
let model: Server;
let holdAfter = Infinity;
let held: (() => void)[] = [];
const extracted: string[] = [];

const isGraph = (body: ChatRequestBody) =>
  body.messages.some((m) => m.role === "system" && /knowledge graph|same real-world entity/.test(m.content));
const passage = (body: ChatRequestBody) => /"""\n([\s\S]*?)\n"""/.exec(body.messages.at(-1)?.content ?? "")?.[1];
const isFirstPass = (body: ChatRequestBody) =>
  body.messages.some((m) => m.role === "system" && /text passage\. List/.test(m.content));
let graphCalls = 0;

const call = (method: string, suffix: string, body?: unknown, token?: string) =>
  flowCall(quarry.url, token ?? quarry.token, "path", FLOW, method, suffix, body);
const summary = async () => (await call("GET", "")).json();
const budget = (tokens: string) =>
  quarryCli(quarry, "flow", "budget", FLOW, "--project", "default", "--tokens", tokens);
const waitFor = async (what: () => boolean | Promise<boolean>, ms = 120_000) => {
  const deadline = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 200));
  }
};
const release = () => {
  const pending = held;
  held = [];
  holdAfter = Infinity;
  for (const answer of pending) answer();
};
/** First-pass extractions of these passages: a resumed build asks again at most for the chunk it was cut in. */
const extractionsSince = (start: number) => extracted.slice(start).length;

beforeAll(async () => {
  model = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const body = JSON.parse(raw) as ChatRequestBody;
      const answer = () => {
        if (isGraph(body)) graphCalls += 1;
        if (isFirstPass(body)) extracted.push(passage(body) ?? "");
        const content = replyFor(body);
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify({
            id: "stand-in",
            object: "chat.completion",
            model: body.model,
            choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
            usage: { prompt_tokens: Math.ceil(raw.length / 4), completion_tokens: Math.ceil(content.length / 4) },
          }),
        );
      };
      if (isGraph(body) && graphCalls >= holdAfter) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
  quarry = await startQuarry({
    env: {
      LLM_PROVIDER: "openai",
      LLM_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
      LLM_API_KEY: "sk-test",
      LLM_MODEL: "stand-in-graph",
    },
  });
  const upload = await apiClient(quarry).upload("computing-history.txt", graphFixture(48));
  const { build_id } = (await upload.json()) as { build_id: string };
  expect(await apiClient(quarry).waitForBuild(build_id)).toMatchObject({ status: "Completed" });
  quarryCli(quarry, "flow", "import", "--project", "default", "--file", path.resolve("examples/flows", `${FLOW}.json`));
  expect((await call("PATCH", `/datasets/${DATASET}`, { files: ["computing-history.txt"] })).status).toBe(200);
}, 300_000);

afterAll(async () => {
  release();
  await quarry?.dispose();
  model?.close();
});

it("refuses a deploy estimated past the flow's budget, naming the estimate", async () => {
  budget("1000");
  const refused = await call("POST", "/deploy", {});
  expect(refused.status).toBe(400);
  expect(refused.json().detail).toMatch(
    /^Failed to deploy flow: building it is estimated at ~[\d,]+ chat-model tokens \(graph-rag-1764000000023: ~[\d,]+ tokens in \d+ calls to stand-in-graph\), over the flow's token budget of 1,000/,
  );
  expect(graphCalls).toBe(0);
});

it("deploys: node counts through GET /graph-rag, graph items from a run, nothing for another project", async () => {
  budget("default");
  const deploy = await call("POST", "/deploy", {});
  expect(deploy.status, deploy.text).toBe(200);
  const [node] = (await call("GET", "/graph-rag")).json();
  expect(node.data.result.total_entities).toBeGreaterThan(9);
  expect(node.data.result.total_relationships).toBeGreaterThan(9);
  expect(node.data.result.total_chunks).toBeGreaterThan(3);
  const run = (await call("POST", "", { query: "Who worked with Grace Hopper?" })).json();
  expect(run.items.length).toBeGreaterThan(0);
  expect(run.items.length).toBeLessThanOrEqual(5);
  expect(run.items[0].page_content).toContain("Grace Hopper");
  expect(run.items[0].metadata.graph.entities).toContain("Grace Hopper");
  expect(typeof run.answer).toBe("string");
  expect((await call("GET", "/graph-rag")).json()[0].data.result.total_retrieved).toBeGreaterThan(0);
  const other = createToken(quarry, "graph-other");
  expect((await call("GET", "/graph-rag", undefined, other)).status).toBe(404);
  expect((await call("POST", "", { query: "Grace Hopper" }, other)).status).toBe(404);
}, 300_000);

it("a build that reaches the budget stops cleanly and a deploy with a larger budget resumes it", async () => {
  await call("PATCH", `/chunking/${CHUNKING}`, { chunkSize: 800, chunkOverlap: 80 });
  const start = extracted.length;
  holdAfter = graphCalls + 6; // three chunks extracted, then the model is slow
  const failing = call("POST", "/deploy", {});
  await waitFor(() => held.length > 0);
  budget("1"); // read at every step: what was spent is now past it
  release();
  const failed = await failing;
  expect(failed.status).toBe(500);
  expect(failed.json().detail).toMatch(/token budget of 1 tokens is reached/);
  const flow = await summary();
  expect(flow.deploy).toMatchObject({ status: "failed" });
  expect(flow.deploy.error).toMatch(/what was built is kept/);
  expect(flow.revision_id).not.toBe(flow.deploy.revision_id);
  const before = extractionsSince(start);
  expect(before).toBeGreaterThanOrEqual(3);
  budget("default");
  const resumed = await call("POST", "/deploy", {});
  expect(resumed.status, resumed.text).toBe(200);
  const chunks = (await call("GET", "/chunking")).json()[0].data.result.total_chunks;
  // From zero it would extract every chunk again after the first ones: resumed, at most the one it was cut in.
  expect(extractionsSince(start)).toBeLessThanOrEqual(chunks + 1);
}, 300_000);

it("a graph build killed with -9 resumes from its checkpoint on restart and ends Deployed", async () => {
  await call("PATCH", `/chunking/${CHUNKING}`, { chunkSize: 700, chunkOverlap: 70 });
  const start = extracted.length;
  holdAfter = graphCalls + 10;
  const pending = call("POST", "/deploy", {}).catch(() => null);
  await waitFor(() => held.length > 0);
  expect((await summary()).deploy).toMatchObject({
    status: "building",
    step: expect.stringMatching(/graph-rag-1764000000023: extract/),
  });
  await quarry.kill("SIGKILL");
  await pending;
  release(); // the killed process's requests: answered into closed sockets
  await quarry.restart();
  await waitFor(async () => (await summary()).deploy.status !== "building", 180_000);
  const flow = await summary();
  expect(flow).toMatchObject({ status: "Deployed", deploy: { status: "ready", progress: 100 } });
  expect(flow.revision_id).toBe(flow.deploy.revision_id);
  const chunks = (await call("GET", "/chunking")).json()[0].data.result.total_chunks;
  expect(extractionsSince(start)).toBeLessThanOrEqual(chunks + 1);
  expect((await call("GET", "/graph-rag")).json()[0].data.result.total_entities).toBeGreaterThan(9);
}, 400_000);

it("a cancelled graph build ends cancelled and the flow keeps serving its previous revision", async () => {
  const serving = (await summary()).revision_id;
  await call("PATCH", `/chunking/${CHUNKING}`, { chunkSize: 600, chunkOverlap: 60 });
  holdAfter = graphCalls;
  const pending = call("POST", "/deploy", {});
  await waitFor(() => held.length > 0);
  quarryCli(quarry, "flow", "cancel", FLOW, "--project", "default");
  release();
  const cancelled = await pending;
  expect(cancelled.status).toBe(409);
  const flow = await summary();
  expect(flow).toMatchObject({ status: "Deployed", revision_id: serving, deploy: { status: "cancelled" } });
  const run = (await call("POST", "", { query: "Grace Hopper" })).json();
  expect(run.items[0].metadata.graph.entities).toContain("Grace Hopper");
}, 300_000);
