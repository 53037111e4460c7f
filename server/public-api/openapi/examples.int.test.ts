import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startFakeChatServer, type FakeChatServer } from "@/server/testing/fake-chat-server";
import { markdownDoc } from "@/server/testing/fixtures";
import { flowCall } from "@/server/testing/flow-client";
import { quarryCli, startQuarry, type QuarryProcess } from "@/server/testing/quarry-process";
import { EXAMPLE_FILE_NAME, EXAMPLE_FLOW, EXAMPLE_IDS } from "./examples";
import { API_BASE, PUBLIC_OPERATIONS, type PublicOperation } from "./registry";

/**
 * Every documented example, replayed against the running app in the registry's order (ingest before build status,
 * the dataset patch before the deploy before the run), each answer checked against the schema the document served
 * by the app gives for it (ajv, JSON Schema 2020-12). Ids in the examples are replaced by the ones the app made.
 */

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
};

let quarry: QuarryProcess;
let chat: FakeChatServer;

beforeAll(async () => {
  chat = await startFakeChatServer();
  quarry = await startQuarry({
    env: { LLM_PROVIDER: "openai", LLM_BASE_URL: chat.baseUrl, LLM_MODEL: "stand-in-chat", LLM_API_KEY: "sk-test" },
  });
  const flowFile = path.resolve(import.meta.dirname, `../../../examples/flows/${EXAMPLE_FLOW.name}.json`);
  quarryCli(quarry, "flow", "import", "--project", "default", "--file", flowFile);
}, 300_000);

afterAll(async () => {
  await quarry?.dispose();
  await chat?.close();
});

type Answer = { status: number; text: string };

/** The example's request, with the ids the app made in place of the documented ones. */
const send = async (op: PublicOperation, live: Map<string, string>): Promise<Answer> => {
  let raw = JSON.stringify(op.example);
  for (const [documented, real] of live) raw = raw.replaceAll(documented, real);
  const example = JSON.parse(raw) as NonNullable<PublicOperation["example"]>;
  const filled = op.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(example.params?.[k] ?? ""));
  const method = op.method.toUpperCase();
  if (op.form === "flow-host")
    return flowCall(
      quarry.url,
      quarry.token,
      "host",
      EXAMPLE_FLOW.name,
      method,
      filled === "/" ? "" : filled,
      example.body,
    );
  const query = new URLSearchParams(example.query ?? {}).toString();
  const auth: Record<string, string> = op.permission ? { Authorization: `Bearer ${quarry.token}` } : {};
  let body: BodyInit | undefined;
  if (op.body && "multipart" in op.body) {
    const form = new FormData();
    // The example names the file; the test sends a small Markdown document under that name.
    for (const [k, v] of Object.entries(example.body ?? {})) if (k !== "file") form.set(k, String(v));
    form.set("file", new Blob([markdownDoc()]), EXAMPLE_FILE_NAME);
    body = form;
  } else if (example.body) {
    body = JSON.stringify(example.body);
    auth["Content-Type"] = "application/json";
  }
  const res = await fetch(`${quarry.url}${API_BASE}${filled}${query ? `?${query}` : ""}`, {
    method,
    headers: auth,
    body,
  });
  return { status: res.status, text: await res.text() };
};

/** An ingest's build, waited for; its id and its source's id then stand in for the documented ones. */
const followBuild = async (buildId: string, live: Map<string, string>) => {
  const url = `${quarry.url}${API_BASE}/sources/builds/${buildId}?suppress_elements=true`;
  for (const deadline = Date.now() + 180_000; Date.now() < deadline;) {
    const build = (await (await fetch(url, { headers: { Authorization: `Bearer ${quarry.token}` } })).json()) as {
      status: string;
      file_id: string;
    };
    if (!["Pending", "Processing"].includes(build.status)) {
      expect(build.status).toBe("Completed");
      live.set(EXAMPLE_IDS.buildId, buildId).set(EXAMPLE_IDS.fileId, build.file_id);
      return;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`build ${buildId} did not finish`);
};

it("answers every documented example as the document says", async () => {
  const served = await fetch(`${quarry.url}${API_BASE}/openapi.json`);
  expect(served.status).toBe(200);
  const doc = (await served.json()) as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const live = new Map<string, string>();
  const examples = PUBLIC_OPERATIONS.filter((op) => op.example);
  expect(examples.length).toBeGreaterThan(15);
  const problems: string[] = [];
  const replayed: string[] = [];

  for (const op of examples) {
    const name = `${op.method.toUpperCase()} ${op.path} (${op.operationId})`;
    const answer = await send(op, live);
    if (answer.status !== op.example!.status) {
      problems.push(`${name}: ${answer.status} ${answer.text.slice(0, 300)}`);
      continue;
    }
    const schema =
      doc.paths[op.path]![op.method]!.responses[String(answer.status)]!.content!["application/json"]!.schema;
    const body: unknown = JSON.parse(answer.text);
    const validate = ajv.compile(schema);
    if (!validate(body)) problems.push(`${name}: ${ajv.errorsText(validate.errors)}`);
    else replayed.push(name);
    const buildId = (body as { build_id?: string }).build_id;
    if (op.operationId === "ingestFile" && buildId) await followBuild(buildId, live);
  }
  expect(problems).toEqual([]);
  expect(replayed).toHaveLength(examples.length);
  expect(replayed).toEqual(
    expect.arrayContaining(["POST / (runFlowViaHost)", "POST /sources/ask-sources (askSources)"]),
  );
}, 600_000);

it("answers every operation without a token with the documented 401", async () => {
  const doc = (await (await fetch(`${quarry.url}${API_BASE}/openapi.json`)).json()) as {
    components: { schemas: { Error: object } };
  };
  const validate = new Ajv2020({ strict: false }).compile(doc.components.schemas.Error);
  const problems: string[] = [];
  const guarded = PUBLIC_OPERATIONS.filter((op) => op.permission && op.form !== "flow-host");
  for (const op of guarded) {
    const filled = op.path.replace(/\{(\w+)\}/g, (_, k: string) => (k === "flow_name" ? EXAMPLE_FLOW.name : "x"));
    const res = await fetch(`${quarry.url}${API_BASE}${filled}`, { method: op.method.toUpperCase() });
    const body: unknown = await res.json();
    const ok = res.status === 401 && res.headers.get("www-authenticate") === "Bearer" && validate(body);
    if (!ok) problems.push(`${op.method} ${op.path}: ${res.status} ${JSON.stringify(body)}`);
  }
  expect(guarded.length).toBeGreaterThan(40);
  expect(problems).toEqual([]);
});
