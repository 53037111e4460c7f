import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { pdfDoc } from "../testing/fixtures";
import {
  apiClient,
  appDatabaseUrl,
  createToken,
  quarryCli,
  startQuarry,
  type QuarryProcess,
} from "../testing/quarry-process";

/**
 * The tenant-isolation matrix, generated from the route files: every public route × every method it implements is
 * called with project B's token carrying project A's ids in every slot a route could take them (path parameters,
 * query keys, JSON keys). Each answer must be the not-found one (404, or 200 `not_found` / empty), hold nothing of
 * A, and leave A's sources, builds, elements and chunks exactly as they were. A route added later is covered
 * without editing this file; one the matrix cannot call at all (an unknown path parameter, only 405s) fails loudly.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const API_DIR = path.join(ROOT, "app/api/public/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

type Route = { file: string; template: string; methods: Method[]; body: "json" | "multipart" | "none" };

const routeFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? routeFiles(full) : name === "route.ts" ? [full] : [];
  });

/** Methods a route file implements: every exported method name except those taken from `notAllowed`. */
const implementedMethods = (source: string): Method[] => {
  const refused = new Set(
    [...source.matchAll(/export const \{([^}]*)\}\s*=\s*notAllowed/g)].flatMap((m) =>
      m[1]!.split(",").map((s) => s.trim()),
    ),
  );
  const exported = new Set([
    ...[...source.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g)].map(
      (m) => m[1]!,
    ),
    ...[...source.matchAll(/export \{([^}]*)\}/g)].flatMap((m) =>
      m[1]!.split(",").map((s) =>
        s
          .trim()
          .split(/\s+as\s+/)
          .at(-1)!,
      ),
    ),
  ]);
  return METHODS.filter((m) => exported.has(m) && !refused.has(m));
};

const discoverRoutes = (): Route[] =>
  routeFiles(API_DIR)
    .map((file) => {
      const rel = path.relative(API_DIR, path.dirname(file)).split(path.sep);
      const source = readFileSync(file, "utf8");
      return {
        file: path.relative(ROOT, file),
        template: `/api/public/v1/${rel.join("/")}`,
        methods: implementedMethods(source),
        body: source.includes("uploadRequest(") ? "multipart" : source.includes("readJson(") ? "json" : "none",
      } satisfies Route;
    })
    // The catch-all only answers 404 for unknown paths; it holds nothing.
    .filter((r) => !r.template.includes("[..."));

let quarry: QuarryProcess;
let db: pg.Client;
/** Project A's identifiers and words: none may appear in an answer to B. */
let a: {
  projectId: string;
  fileIds: string[];
  fileNames: string[];
  buildIds: string[];
  elementIds: string[];
  endpointId: string;
};
const SECRET = "zanthorite";
/** A's webhook receiver: a public address literal (no name to resolve), never called (A has no events after it). */
const A_HOOK = "https://93.184.215.14/zanthorite-hooks";
/** A's flow (the example plain RAG flow, its dataset pointed at A's files). */
const A_FLOW = { name: "plain-rag", datasetNodeId: "dataset-1764000000001" };

/** Values of A for every path parameter name a route can have; a new name must be taught here. */
const pathValue = (param: string): string | null => {
  if (param === "flowName") return A_FLOW.name;
  if (param === "kind") return "datasets";
  if (param === "nodeId") return A_FLOW.datasetNodeId;
  if (param === "endpointId") return a.endpointId;
  if (/file|source/i.test(param)) return a.fileIds[0]!;
  if (/build/i.test(param)) return a.buildIds[0]!;
  if (/page/i.test(param)) return "1";
  return null;
};

/** Every slot a query or JSON body could carry A's ids in, one variant each (so no slot hides behind another). */
const slotVariants = (): Record<string, unknown>[] => [
  { file_id: a.fileIds[0] },
  { file_ids: a.fileIds },
  { file_name: a.fileNames[0] },
  { file_names: a.fileNames },
  { build_id: a.buildIds[0] },
  { file_id: a.fileIds[0], element_ids: a.elementIds },
  { file_id: a.fileIds[0], filter: { type: "NarrativeText" } },
  { source_id: a.fileIds[0], project_id: a.projectId },
];
/** Fields many routes require besides the ids, so a call reaches the id lookup instead of stopping at a 400. */
const BASE = { query: SECRET, question: SECRET, page: 1, page_size: 10 };

const snapshot = async () => {
  const one = async (sql: string) => (await db.query(sql, [a.projectId])).rows;
  return {
    sources: await one(
      `SELECT id, file_name, status, indexed_build_id, updated_at FROM public.sources WHERE project_id = $1 ORDER BY id`,
    ),
    builds: await one(`SELECT id, status, step, updated_at FROM public.builds WHERE project_id = $1 ORDER BY id`),
    elements: await one(
      `SELECT count(*)::int AS n, md5(string_agg(element_id || text, ',' ORDER BY build_id, position)) AS h FROM public.elements WHERE project_id = $1`,
    ),
    chunks: await one(
      `SELECT count(*)::int AS n, md5(string_agg(text || coalesce(embedding::text, ''), ',' ORDER BY build_id, position)) AS h FROM public.chunks WHERE project_id = $1`,
    ),
    webhooks: await one(
      `SELECT id, url, events, enabled, encrypted_secret, updated_at FROM public.webhook_endpoints WHERE project_id = $1 ORDER BY id`,
    ),
  };
};

beforeAll(async () => {
  quarry = await startQuarry();
  const apiA = apiClient(quarry);
  const builds: string[] = [];
  for (const [name, content] of [
    ["a-notes.txt", `Notes on ${SECRET}.\n\nThe ${SECRET} seam runs under the north face of the quarry.`],
    ["a-report.pdf", await pdfDoc({ pages: 1, title: `${SECRET} report` })],
  ] as const) {
    const res = await apiA.upload(name, content);
    expect(res.status).toBe(200);
    builds.push(((await res.json()) as { build_id: string }).build_id);
  }
  const fileIds: string[] = [];
  const elementIds: string[] = [];
  for (const id of builds) {
    const build = (await apiA.waitForBuild(id)) as unknown as { status: string; file_id: string };
    expect(build.status).toBe("Completed");
    fileIds.push(build.file_id);
    const els = (await (await apiA.get(`/get-elements?file_id=${build.file_id}`)).json()) as {
      items: { element_id: string }[];
    };
    elementIds.push(...els.items.map((e) => e.element_id));
  }
  db = new pg.Client({ connectionString: appDatabaseUrl(quarry) });
  await db.connect();
  const projectId = (
    await db.query<{ project_id: string }>("SELECT project_id FROM public.sources WHERE id = $1", [fileIds[0]])
  ).rows[0]!.project_id;
  const hook = await fetch(`${quarry.url}/api/public/v1/webhooks`, {
    method: "POST",
    headers: { Authorization: `Bearer ${quarry.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ url: A_HOOK, events: ["build.completed"] }),
  });
  expect(hook.status).toBe(200);
  const endpointId = ((await hook.json()) as { id: string }).id;
  a = { projectId, fileIds, fileNames: ["a-notes.txt", "a-report.pdf"], buildIds: builds, elementIds, endpointId };
  quarryCli(
    quarry,
    "flow",
    "import",
    "--project",
    "default",
    "--file",
    path.join(ROOT, "examples/flows/plain-rag.json"),
  );
  const patched = await fetch(`${quarry.url}/api/public/v1/flows/${A_FLOW.name}/datasets/${A_FLOW.datasetNodeId}`, {
    method: "PATCH",
    headers: { Authorization: `Bearer ${quarry.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ config: { fileIds } }),
  });
  expect(patched.status).toBe(200);
}, 300_000);

afterAll(async () => {
  await db?.end();
  await quarry?.dispose();
});

const call = async (token: string, route: Route, method: Method, url: string, input: Record<string, unknown>) => {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (method === "GET") {
    const u = new URL(url, quarry.url);
    for (const [k, v] of Object.entries(input)) {
      for (const item of Array.isArray(v) ? v : [v])
        u.searchParams.append(k, typeof item === "object" ? JSON.stringify(item) : String(item));
    }
    return fetch(u, { headers });
  }
  if (route.body === "multipart") {
    const form = new FormData();
    for (const [k, v] of Object.entries(input)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
    form.set("file", new Blob([`B's own note about granite.`]), "b-note.txt");
    return fetch(new URL(url, quarry.url), { method, headers, body: form });
  }
  return fetch(new URL(url, quarry.url), {
    method,
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(input),
  });
};

/** The not-found answer: 404, or 200 whose content is `not_found` or empty. */
const isNotFound = (status: number, body: unknown): boolean => {
  if (status === 404) return true;
  if (status !== 200) return false;
  if (Array.isArray(body)) return body.length === 0;
  const o = body as Record<string, unknown>;
  return (
    o.status === "not_found" ||
    (Array.isArray(o.items) && o.items.length === 0) ||
    (Array.isArray(o.chunks) && o.chunks.length === 0)
  );
};

it("answers project B's token exactly as if project A's ids did not exist, on every route and method", async () => {
  const routes = discoverRoutes();
  // Today's routes at least; new ones join by themselves.
  expect(routes.map((r) => r.template)).toEqual(
    expect.arrayContaining([
      "/api/public/v1/sources",
      "/api/public/v1/sources/builds/[buildId]",
      "/api/public/v1/sources/[fileId]/pages/[pageNumber]/screenshot",
      "/api/public/v1/sources/delete",
      "/api/public/v1/sources/prebuilt-rag",
      "/api/public/v1/flows/[flowName]",
      "/api/public/v1/flows/[flowName]/[kind]/[nodeId]",
      "/api/public/v1/webhooks",
      "/api/public/v1/webhooks/[endpointId]",
      "/api/public/v1/webhooks/[endpointId]/deliveries",
    ]),
  );
  const tokenB = createToken(quarry, "isolation-b");
  const before = await snapshot();
  const leaks = [
    a.projectId,
    ...a.fileIds,
    ...a.buildIds,
    ...a.elementIds,
    a.endpointId,
    SECRET,
    "a-notes",
    "a-report",
  ];
  const problems: string[] = [];
  const summary: string[] = [];

  for (const route of routes) {
    if (route.methods.length === 0) problems.push(`${route.file}: implements no method`);
    const params = [...route.template.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!);
    const unknown = params.filter((p) => pathValue(p) === null);
    if (unknown.length) {
      problems.push(
        `${route.file}: cannot be exercised: no value of project A for path parameter(s) ${unknown.join(", ")}`,
      );
      continue;
    }
    const url = route.template.replace(/\[([^\]]+)\]/g, (_, p: string) => encodeURIComponent(pathValue(p)!));
    for (const method of route.methods) {
      const statuses: number[] = [];
      let notFound = 0;
      for (const slots of slotVariants()) {
        const res = await call(tokenB, route, method, url, { ...BASE, ...slots });
        const text = await res.text();
        statuses.push(res.status);
        let body: unknown = null;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: judged by status only
        }
        const notFoundAnswer = isNotFound(res.status, body);
        if (notFoundAnswer) notFound++;
        // What B sent may come back as sent: its query (prebuilt-rag echoes it), and the id of the not-found answer
        // (`{build_id, status: "not_found"}`). Anything else of A in an answer is a leak.
        let judged = text.replace(new RegExp(`"(query|question)":"${SECRET}"`, "g"), "");
        if (notFoundAnswer) judged = judged.replace(/"(build_id|file_id)":"[^"]*"/g, "");
        const leaked = leaks.filter((l) => judged.includes(l));
        if (leaked.length)
          problems.push(`${method} ${url} ${JSON.stringify(slots)}: answer holds A's ${leaked.join(", ")}`);
        if (res.status >= 500)
          problems.push(`${method} ${url} ${JSON.stringify(slots)}: ${res.status} ${text.slice(0, 200)}`);
      }
      summary.push(`${method} ${route.template}: ${statuses.join(" ")}`);
      if (statuses.every((s) => s === 405)) problems.push(`${method} ${url}: cannot be exercised: always 405`);
      // A route that names A's resource in its path must answer not-found, whatever else is sent.
      if (params.some((p) => !/page/i.test(p)) && notFound !== statuses.length) {
        problems.push(`${method} ${url}: not the not-found answer for A's id in the path (${statuses.join(" ")})`);
      }
    }
  }
  expect(problems, summary.join("\n")).toEqual([]);
  expect(await snapshot()).toEqual(before);
}, 600_000);

/** The MCP endpoint (server/mcp/): every tool B's token is shown, called with A's ids in every slot. */
it("answers project B's token on the MCP endpoint as if A's sources and flows did not exist", async () => {
  const deployed = await fetch(`${quarry.url}/api/public/v1/flows/${A_FLOW.name}/deploy`, {
    method: "POST",
    headers: { Authorization: `Bearer ${quarry.token}`, "Content-Type": "application/json" },
    body: "{}",
  });
  expect(deployed.status, await deployed.text()).toBe(200);
  const before = await snapshot();
  const client = new Client({ name: "isolation-b", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${quarry.url}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${createToken(quarry, "isolation-b")}` } },
    }),
  );
  const leaks = [a.projectId, ...a.fileIds, ...a.buildIds, ...a.elementIds, SECRET, "a-notes", "a-report"];
  const args = { ...BASE, user_instruction: SECRET, output_schema: { type: "object" } };
  const problems: string[] = [];
  const tools = (await client.listTools()).tools.map((t) => t.name);
  if (tools.includes(A_FLOW.name)) problems.push(`B is shown A's flow ${A_FLOW.name} as a tool`);
  for (const name of [...tools, A_FLOW.name]) {
    for (const slots of slotVariants()) {
      const result = (await client.callTool({ name, arguments: { ...args, ...slots } })) as CallToolResult;
      const raw = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      let judged = raw;
      try {
        judged = JSON.stringify(JSON.parse(raw)); // the REST form, so the same echoes are recognised
      } catch {
        // an error's sentence: judged as it is
      }
      judged = judged.replace(new RegExp(`"(query|question)":"${SECRET}"`, "g"), "");
      judged = judged.replace(/"status":"not_found"/, "").replace(/"(build_id|file_id)":"[^"]*"/g, "");
      const leaked = leaks.filter((l) => judged.includes(l));
      if (leaked.length) problems.push(`${name} ${JSON.stringify(slots)}: answer holds A's ${leaked.join(", ")}`);
      const status = (result.structuredContent as { status?: number } | undefined)?.status;
      if (result.isError && status !== undefined && status >= 500) problems.push(`${name}: ${status} ${raw}`);
    }
  }
  const resources = JSON.stringify(await client.listResources());
  if (leaks.some((l) => resources.includes(l))) problems.push(`B's resources list holds A's sources: ${resources}`);
  await expect(client.readResource({ uri: `quarry://sources/${a.fileIds[0]}/elements` })).rejects.toThrow();
  await client.close();
  expect(problems).toEqual([]);
  expect(await snapshot()).toEqual(before);
}, 600_000);
