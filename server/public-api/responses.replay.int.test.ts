import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { flowCall } from "../testing/flow-client";
import { markdownDoc, pdfDoc, textDoc } from "../testing/fixtures";
import { quarryCli, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/**
 * A guard that the public API answers byte-for-byte the same while the code behind it is reshaped: a fixed set of
 * requests (sources, answers, legacy, flows, errors) was recorded against main before the reshaping, and is replayed
 * here and compared, key order included. Ids, timestamps and durations differ from run to run, so both sides are
 * normalised first: each distinct id becomes a numbered placeholder (so "the same id as before" still holds).
 *
 * To record again (only when a response is meant to change): QUARRY_RECORD_RESPONSES=1 npx vitest run <this file>.
 */

const RECORDING = path.join(import.meta.dirname, "responses.recorded.json");
const RECORD = process.env.QUARRY_RECORD_RESPONSES === "1";
const FLOW_FILE = path.resolve(import.meta.dirname, "../../examples/flows/plain-rag.json");
const MISSING_ID = "00000000-0000-4000-8000-000000000000";

type Exchange = { step: string; request: string; status: number; contentType: string | null; body: unknown };

/** The fixture PDF with fixed dates: pdf-lib stamps the current time, whose length varies the file's size. */
const fixedPdf = async () => {
  const doc = await PDFDocument.load(await pdfDoc({ pages: 2 }), { updateMetadata: false });
  doc.setCreationDate(new Date(0));
  doc.setModificationDate(new Date(0));
  return Buffer.from(await doc.save());
};

let quarry: QuarryProcess;
let chat: FakeChatServer;

beforeAll(async () => {
  chat = await startFakeChatServer();
  quarry = await startQuarry({
    env: { LLM_PROVIDER: "openai", LLM_BASE_URL: chat.baseUrl, LLM_MODEL: "stand-in-chat", LLM_API_KEY: "sk-test" },
  });
  quarryCli(quarry, "flow", "import", "--project", "default", "--file", FLOW_FILE);
}, 300_000);

afterAll(async () => {
  await quarry?.dispose();
  await chat?.close();
});

/** Replaces what differs between runs, keeping every key, every null and the order of keys. */
const normaliser = (origin: string) => {
  const ids = new Map<string, string>();
  const idOf = (raw: string, kind: string) => {
    const key = raw.toLowerCase();
    if (!ids.has(key)) ids.set(key, `<${kind}${[...ids.values()].filter((v) => v.startsWith(`<${kind}`)).length + 1}>`);
    return ids.get(key)!;
  };
  const text = (s: string) =>
    s.length > 256 && /^[A-Za-z0-9+/=]+$/.test(s)
      ? "<base64>"
      : s
          .replaceAll(origin, "<origin>")
          .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (m) => idOf(m, "uuid"))
          .replace(/\b[0-9a-f]{32}\b/g, (m) => idOf(m, "hex"))
          .replace(/\bqry_[0-9A-Za-z]+/g, "<token>")
          .replace(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?/g, "<time>");
  const VOLATILE = /elapsed|duration|_ms$|latency|seconds|took/i;
  const walk = (value: unknown, key = ""): unknown => {
    if (typeof value === "string") return text(value);
    if (typeof value === "number") return VOLATILE.test(key) ? "<number>" : value;
    if (Array.isArray(value)) return value.map((v) => walk(v, key));
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return walk;
};

it("answers the recorded requests exactly as recorded", async () => {
  const normalise = normaliser(quarry.url);
  const base = `${quarry.url}/api/public/v1/sources`;
  const auth = { Authorization: `Bearer ${quarry.token}` };
  const exchanges: Exchange[] = [];

  const keep = async (
    step: string,
    request: string,
    res: { status: number; contentType: string | null; text: string },
  ) => {
    let body: unknown = res.text;
    try {
      body = JSON.parse(res.text);
    } catch {
      // not JSON: kept as text
    }
    exchanges.push({ step, request, status: res.status, contentType: res.contentType, body: normalise(body) });
    // The ids later requests refer to.
    return body as { build_id: string; file_id: string };
  };
  const send = async (step: string, method: string, p: string, init: { json?: unknown; body?: BodyInit } = {}) => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: { ...auth, ...(init.json === undefined ? {} : { "Content-Type": "application/json" }) },
      body: init.json === undefined ? init.body : JSON.stringify(init.json),
    });
    return keep(step, `${method} ${normalise(p)}`, {
      status: res.status,
      contentType: res.headers.get("content-type"),
      text: await res.text(),
    });
  };
  const form = (fileName: string, content: Buffer | string, fields: Record<string, string> = {}) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) data.set(k, v);
    data.set(
      "file",
      new Blob([typeof content === "string" ? Buffer.from(content) : new Uint8Array(content)]),
      fileName,
    );
    return data;
  };
  const waitForBuild = async (buildId: string) => {
    for (const deadline = Date.now() + 180_000; Date.now() < deadline;) {
      const res = await fetch(`${base}/builds/${buildId}?suppress_elements=true`, { headers: auth });
      const { status } = (await res.json()) as { status: string };
      if (!["Pending", "Processing"].includes(status)) return;
      await new Promise((r) => setTimeout(r, 300));
    }
    throw new Error(`build ${buildId} did not finish`);
  };
  const flow = async (step: string, suffix: string) => {
    const res = await flowCall(quarry.url, quarry.token, "path", "plain-rag", "GET", suffix);
    return keep(step, `GET /flows/plain-rag${suffix}`, { status: res.status, contentType: null, text: res.text });
  };

  // Sources: upload → build status → list → elements → retrieval → answers → config → delete.
  const md = await send("ingest markdown", "POST", "/ingest-file", { body: form("granite.md", markdownDoc()) });
  await waitForBuild(md.build_id);
  const pdf = await send("ingest pdf", "POST", "/ingest-file", {
    body: form("sandstone.pdf", await fixedPdf(), { enrichment: "none", method: "fast" }),
  });
  await waitForBuild(pdf.build_id);
  const status = await send("build status", "GET", `/builds/${md.build_id}?suppress_elements=true`);
  await send("build with elements", "GET", `/builds/${md.build_id}`);
  await send("build elements paged", "GET", `/builds/${pdf.build_id}?page=1&page_size=2&suppress_img_base64=true`);
  await send("list", "GET", "/");
  await send("list by id", "GET", `/?file_ids=${status.file_id}`);
  await send("get-elements", "GET", `/get-elements?file_id=${status.file_id}`);
  const pdfId = (await send("pdf status", "GET", `/builds/${pdf.build_id}?suppress_elements=true`)).file_id;
  await send("get-elements paged", "GET", `/get-elements?file_id=${pdfId}&page=1&page_size=2&page_numbers=1`);
  await send("prebuilt-rag", "POST", "/prebuilt-rag", { json: { query: "how are granite blocks cut?" } });
  await send("ask-sources", "POST", "/ask-sources", {
    json: { question: "How are granite blocks cut?", thinking_level: "fast" },
  });
  await send("run-extraction", "POST", "/run-extraction", {
    json: {
      file_ids: [status.file_id],
      user_instruction: "Describe the quarry",
      output_schema: { type: "object", properties: { rock: { type: "string" } }, required: ["rock"] },
    },
  });
  await send("config", "GET", "/config");
  await send("screenshot", "GET", `/${pdfId}/pages/1/screenshot?max_width=200`);

  // Legacy (contract §6).
  const legacy = await send("legacy upload", "POST", "/upload", { body: form("legacy-notes.txt", textDoc(3)) });
  await send("legacy elements", "POST", "/elements", { json: { file_id: legacy.file_id } });
  await send("legacy elements paged", "POST", "/elements", {
    json: { file_name: "sandstone.pdf", page: 1, page_size: 2, filter: { page_numbers: [2] } },
  });
  await send("legacy process", "POST", "/process", { json: { file_id: legacy.file_id, partition_method: "fast" } });

  // Errors.
  await send("unknown source elements", "GET", `/get-elements?file_id=${MISSING_ID}`);
  await send("unknown build", "GET", `/builds/${MISSING_ID}`);
  await send("rag without query", "POST", "/prebuilt-rag", { json: {} });
  await send("invalid json", "POST", "/prebuilt-rag", { body: "{not json" });
  await send("ask without question", "POST", "/ask-sources", { json: { thinking_level: "fast" } });
  await send("bad page", "GET", `/get-elements?file_id=${pdfId}&page=0&page_size=2`);
  await send("legacy process unknown", "POST", "/process", { json: { file_id: MISSING_ID } });
  await send("legacy process without id", "POST", "/process", { json: {} });
  await send("delete unknown", "DELETE", "/delete", { json: { file_id: MISSING_ID } });

  // Flows (contract §7).
  await flow("flow get", "");
  await flow("flow datasets", "/datasets");
  await flow("flow prompts", "/prompts");
  const missingFlow = await flowCall(quarry.url, quarry.token, "path", "nope", "GET", "/retrieval");
  await keep("unknown flow", "GET /flows/nope/retrieval", {
    status: missingFlow.status,
    contentType: null,
    text: missingFlow.text,
  });

  await send("delete", "DELETE", "/delete", { json: { file_id: status.file_id } });
  await send("delete by name", "DELETE", "/delete", { json: { file_name: "legacy-notes.txt" } });
  await send("list after delete", "GET", "/");

  if (RECORD) writeFileSync(RECORDING, JSON.stringify(exchanges, null, 2) + "\n");
  const recorded = JSON.parse(readFileSync(RECORDING, "utf8")) as Exchange[];
  expect(exchanges.map((e) => e.step)).toEqual(recorded.map((e) => e.step));
  // Soft, so that one run shows every response that drifted.
  for (const [i, exchange] of exchanges.entries()) {
    expect.soft(exchange, exchange.step).toEqual(recorded[i]);
    // toEqual ignores key order; the bytes on the wire do not.
    expect.soft(JSON.stringify(exchange), exchange.step).toBe(JSON.stringify(recorded[i]));
  }
}, 600_000);
