import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { pdfDoc } from "../testing/fixtures";
import { flowCall } from "../testing/flow-client";
import { createToken, quarryCli, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { startWebSite, type WebSite } from "../testing/web-site-server";

/**
 * The MCP endpoint over real HTTP with the official SDK's client: the original server's tools with a full and a
 * read-only token, an ingest from a local web site polled to its end, ask and retrieve_chunks with a stand-in chat
 * model, a deployed flow as a tool, tools/list_changed after a deploy, a redeploy, a rollback and a delete, and
 * another project's token seeing none of it.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const FLOW = "plain-rag";
const DATASET = "dataset-1764000000001";
const SOURCE_TOOLS = [
  "ask",
  "delete_source",
  "extract",
  "get_build_status",
  "get_elements",
  "ingest_file",
  "ingest_github",
  "ingest_url",
  "ingest_youtube",
  "list_sources",
  "reprocess",
  "retrieve_chunks",
];

let quarry: QuarryProcess;
let chat: FakeChatServer;
let site: WebSite;
let client: Client;
let changes = 0;
let fileId = "";
let buildId = "";

const connect = async (token: string) => {
  const c = new Client({ name: "quarry-test", version: "1.0.0" });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${quarry.url}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return c;
};

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
const json = (result: unknown) => JSON.parse(text(result));
const toolNames = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();

/** Waits until the client has been told of one more change than `seen`. */
const changeAfter = async (seen: number) => {
  const deadline = Date.now() + 20_000;
  while (changes <= seen) {
    if (Date.now() > deadline) throw new Error("no notifications/tools/list_changed within 20 s");
    await new Promise((r) => setTimeout(r, 100));
  }
};

beforeAll(async () => {
  chat = await startFakeChatServer();
  site = await startWebSite({ pdf: await pdfDoc({ pages: 1, title: "Safety manual" }) });
  quarry = await startQuarry({
    env: {
      LLM_PROVIDER: "openai",
      LLM_BASE_URL: chat.baseUrl,
      LLM_API_KEY: "test-key",
      LLM_MODEL: "gpt-4o-mini",
      QUARRY_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`,
    },
  });
  quarryCli(quarry, "flow", "import", "--project", "default", "--file", path.join(ROOT, `examples/flows/${FLOW}.json`));
  client = await connect(quarry.token);
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changes += 1));
}, 300_000);

afterAll(async () => {
  await client?.close();
  await quarry?.dispose();
  await Promise.all([chat?.close(), site?.close()]);
});

it("refuses a request without a token or with a wrong one with 401 {detail}", async () => {
  for (const headers of [{}, { Authorization: "Bearer qry_wrong" }] as Record<string, string>[]) {
    const res = await fetch(`${quarry.url}/api/mcp`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: "Invalid authentication credentials" });
  }
});

it("lists the original server's twelve tools to a full token and only the read tools to a read-only one", async () => {
  expect(await toolNames(client)).toEqual(SOURCE_TOOLS);
  const tools = (await client.listTools()).tools;
  expect(tools.find((t) => t.name === "ingest_url")?.inputSchema).toMatchObject({
    type: "object",
    properties: { url: { type: "string" }, crawlUrls: { type: "boolean" }, method: { type: "string" } },
    required: ["url"],
  });
  const reader = await connect(createToken(quarry, "default", "read"));
  expect(await toolNames(reader)).toEqual(["get_build_status", "get_elements", "list_sources"]);
  const refused = await reader.callTool({ name: "ingest_url", arguments: { url: `${site.origin}/docs/` } });
  expect(refused).toMatchObject({ isError: true, content: [{ text: "Unknown tool: ingest_url" }] });
  await reader.close();
});

describe("sources", () => {
  it("ingests a web page with ingest_url and follows it with get_build_status to Completed", async () => {
    const started = json(await client.callTool({ name: "ingest_url", arguments: { url: `${site.origin}/docs/` } }));
    expect(started).toMatchObject({ success: true, error: null });
    buildId = started.build_id;
    const deadline = Date.now() + 120_000;
    let status: { status: string; file_id: string; success: boolean } = json(
      await client.callTool({ name: "get_build_status", arguments: { build_id: buildId, suppress_elements: true } }),
    );
    while (["Pending", "Processing", "not_found"].includes(status.status) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      status = json(
        await client.callTool({ name: "get_build_status", arguments: { build_id: buildId, suppress_elements: true } }),
      );
    }
    expect(status).toMatchObject({ status: "Completed", success: true });
    fileId = status.file_id;
    const sources = json(await client.callTool({ name: "list_sources", arguments: {} }));
    expect(sources.map((s: { file_id: string }) => s.file_id)).toEqual([fileId]);
  }, 150_000);

  it("answers with ask and retrieve_chunks from the ingested page", async () => {
    const answer = json(await client.callTool({ name: "ask", arguments: { question: "What do the crews survey?" } }));
    expect(answer.answer).toMatch(/\S/);
    expect(answer.citations?.length ?? 0).toBeGreaterThan(0);
    const chunks = json(await client.callTool({ name: "retrieve_chunks", arguments: { query: "granite benches" } }));
    expect(chunks.chunks.length).toBeGreaterThan(0);
    expect(chunks.chunks[0]).toMatchObject({ file_id: fileId });
  });

  it("says what the REST route says when a call fails, as an error result", async () => {
    const missing = await client.callTool({ name: "get_elements", arguments: { file_id: "nope" } });
    expect(missing).toMatchObject({ isError: true, content: [{ text: "Source not found" }] });
    const fromDisk = await client.callTool({ name: "ingest_file", arguments: { file_path: "/etc/passwd" } });
    expect(fromDisk).toMatchObject({ isError: true });
    expect(text(fromDisk)).toMatch(/cannot read \/etc\/passwd/);
  });

  it("reads a source's text as a resource", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([`quarry://sources/${fileId}/elements`]);
    const read = await client.readResource({ uri: `quarry://sources/${fileId}/elements` });
    expect((read.contents[0] as { text: string }).text).toContain("Field handbook");
  });
});

/** Points the flow's dataset at the ingested page (an imported flow has no files), then deploys it. */
const deploy = async (body: object) => {
  const patched = await flowCall(quarry.url, quarry.token, "path", FLOW, "PATCH", `/datasets/${DATASET}`, {
    config: { fileIds: [fileId] },
  });
  expect(patched.status, patched.text).toBe(200);
  const res = await flowCall(quarry.url, quarry.token, "path", FLOW, "POST", "/deploy", body);
  expect(res.status, res.text).toBe(200);
};

describe("deployed flows", () => {
  it("lists a deployed flow as a tool, tells connected clients, and runs it", async () => {
    expect(await toolNames(client)).not.toContain(FLOW);
    const seen = changes;
    await deploy({});
    await changeAfter(seen);
    const tool = (await client.listTools()).tools.find((t) => t.name === FLOW);
    expect(tool?.description).toMatch(/Retrieval/);
    expect(tool?.inputSchema).toMatchObject({ properties: { query: {}, page_size: {} }, required: ["query"] });
    const run = (await client.callTool({
      name: FLOW,
      arguments: { query: "granite", page_size: 3 },
    })) as CallToolResult;
    expect(run.isError).toBeFalsy();
    expect(run.structuredContent).toMatchObject({ page_size: 3, answer: expect.any(String) });
    expect(text(run)).toContain((run.structuredContent as { answer: string }).answer);
    expect(text(run)).toMatch(/Citations:\n\[1\]/);
  }, 120_000);

  it("tells connected clients again after a redeploy with a tool description, a rollback and a delete", async () => {
    let seen = changes;
    await deploy({ tool_description: "Answers questions about the field handbook." });
    await changeAfter(seen);
    const tool = (await client.listTools()).tools.find((t) => t.name === FLOW);
    expect(tool?.description).toBe("Answers questions about the field handbook.");
    // A rollback serves the first revision again, which had no tool description.
    seen = changes;
    quarryCli(quarry, "flow", "rollback", FLOW, "--project", "default");
    await changeAfter(seen);
    expect((await client.listTools()).tools.find((t) => t.name === FLOW)?.description).toMatch(/Retrieval/);
    seen = changes;
    quarryCli(quarry, "flow", "delete", FLOW, "--project", "default");
    await changeAfter(seen);
    expect(await toolNames(client)).toEqual(SOURCE_TOOLS);
  }, 120_000);
});

it("answers a stateless POST without a session", async () => {
  const res = await fetch(`${quarry.url}/api/mcp`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${quarry.token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "list_sources", arguments: {} },
    }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { id: number; result: CallToolResult };
  expect(body.id).toBe(7);
  expect(JSON.parse(text(body.result))[0]).toMatchObject({ file_id: fileId });
  // No event stream without a session, and a session this process does not know is 404 (the client initializes).
  const auth = { Authorization: `Bearer ${quarry.token}`, Accept: "text/event-stream" };
  const get = await fetch(`${quarry.url}/api/mcp`, { headers: auth });
  expect([get.status, await get.json()]).toEqual([405, { detail: "Method Not Allowed" }]);
  const forgotten = await fetch(`${quarry.url}/api/mcp`, { headers: { ...auth, "Mcp-Session-Id": "gone" } });
  expect([forgotten.status, await forgotten.json()]).toEqual([404, { detail: "Session not found" }]);
  // What is not a JSON-RPC message, or holds U+0000, or asks without the protocol's headers: 4xx {detail}.
  const post = (body: string, accept = "application/json, text/event-stream") =>
    fetch(`${quarry.url}/api/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${quarry.token}`, "Content-Type": "application/json", Accept: accept },
      body,
    });
  const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  for (const [res, status, detail] of [
    [await post('{"query": "granite"}'), 400, /^Invalid MCP message/],
    [await post('{"jsonrpc": "2.0", "id": 1, "method": "tools/\\u0000list"}'), 400, /NUL/],
    [await post("{"), 400, /^Invalid JSON body$/],
    [await post(list, "text/html"), 406, /Accept/],
  ] as const) {
    expect(res.status).toBe(status);
    expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
  }
});

it("shows another project's token neither the sources nor the flows", async () => {
  quarryCli(quarry, "flow", "import", "--project", "default", "--file", path.join(ROOT, `examples/flows/${FLOW}.json`));
  await deploy({});
  expect(await toolNames(client)).toContain(FLOW);
  const otherToken = createToken(quarry, "mcp-other");
  // A's session is not B's to use, even with its id.
  const stolen = await fetch(`${quarry.url}/api/mcp`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${otherToken}`,
      "Mcp-Session-Id": (client.transport as StreamableHTTPClientTransport).sessionId!,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(stolen.status).toBe(404);
  const other = await connect(otherToken);
  expect(await toolNames(other)).toEqual(SOURCE_TOOLS);
  expect(json(await other.callTool({ name: "list_sources", arguments: {} }))).toEqual([]);
  const build = json(await other.callTool({ name: "get_build_status", arguments: { build_id: buildId } }));
  expect(build).toMatchObject({ status: "not_found" });
  expect(await other.callTool({ name: FLOW, arguments: { query: "granite" } })).toMatchObject({ isError: true });
  expect((await other.listResources()).resources).toEqual([]);
  await other.close();
}, 60_000);

it("ingests text with ingest_file and deletes the source with delete_source", async () => {
  const started = json(
    await client.callTool({
      name: "ingest_file",
      arguments: { file_content: "# Blasting log\n\nThe north bench was blasted on Monday.", file_name: "log.md" },
    }),
  );
  expect(started).toMatchObject({ success: true });
  let status = { status: "Pending", file_id: "" };
  for (let i = 0; i < 200 && ["Pending", "Processing", "not_found"].includes(status.status); i++) {
    await new Promise((r) => setTimeout(r, 300));
    status = json(await client.callTool({ name: "get_build_status", arguments: { build_id: started.build_id } }));
  }
  expect(status.status).toBe("Completed");
  const elements = json(await client.callTool({ name: "get_elements", arguments: { file_id: status.file_id } }));
  expect(elements.items.map((e: { text: string }) => e.text).join("\n")).toContain("north bench");
  const deleted = json(await client.callTool({ name: "delete_source", arguments: { file_id: status.file_id } }));
  expect(deleted).toMatchObject({ status: "success", file_id: status.file_id, file_name: "log.md" });
}, 120_000);
