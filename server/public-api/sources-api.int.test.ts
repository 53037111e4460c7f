import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALLOWED_EXTENSIONS } from "../sources/sources.schema";
import { markdownDoc, pdfDoc, textDoc } from "../testing/fixtures";
import { multipartHead } from "../testing/multipart-head";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/** The public sources API over real HTTP against the running app (embedded Postgres, in-process jobs). */

let quarry: QuarryProcess;
let api: ReturnType<typeof apiClient>;

/** The CLI, against the running app's database (it finds it through the data dir's lock). */
const cli = (...args: string[]) =>
  execFileSync(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/quarry.ts", ...args], {
    env: {
      ...process.env,
      QUARRY_DATA_DIR: quarry.dataDir,
      LOG_LEVEL: "warn",
      // The app's own database when it runs on an outside Postgres (the real-Postgres run).
      ...(quarry.databaseUrl ? { DATABASE_URL: quarry.databaseUrl } : {}),
    },
    encoding: "utf8",
  }).trim();

const ingest = async (fileName: string, content: Buffer | string, fields: Record<string, string> = {}) => {
  const res = await api.upload(fileName, content, fields);
  expect(res.status, await res.clone().text()).toBe(200);
  const body = (await res.json()) as { build_id: string; success: boolean; error: null };
  expect(body).toMatchObject({ success: true, error: null });
  return body.build_id;
};

const fileIdOf = async (buildId: string) =>
  ((await (await api.get(`/builds/${buildId}?suppress_elements=true`)).json()) as { file_id: string }).file_id;

beforeAll(async () => {
  quarry = await startQuarry();
  api = apiClient(quarry);
});
afterAll(async () => quarry?.dispose());

describe("auth", () => {
  it("answers 401 with WWW-Authenticate for a missing or unknown token", async () => {
    for (const headers of [{}, { Authorization: "Bearer qry_nope" }, { Authorization: "Basic abc" }] as Record<
      string,
      string
    >[]) {
      const res = await fetch(`${api.base}/config`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      expect(await res.json()).toEqual({ detail: "Invalid authentication credentials" });
    }
  });

  it("issues tokens from the CLI while the app runs, checks permissions, and honours revocation", async () => {
    const readOnly = cli("token", "create", "--project", "auth-test", "--permissions", "read");
    expect(readOnly).toMatch(/^qry_[0-9A-Za-z]{40,}$/);
    const ro = apiClient(quarry, readOnly);
    expect((await ro.get("/config")).status).toBe(200);
    const denied = await ro.upload("a.txt", "hello");
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ detail: "Permission denied" });
    expect((await ro.del({ file_id: crypto.randomUUID() })).status).toBe(403);

    cli("token", "revoke", readOnly);
    expect((await ro.get("/config")).status).toBe(401);
  });
});

describe("ingest → retrieve", () => {
  it("parses, chunks, embeds and indexes a markdown file, then finds it", async () => {
    const buildId = await ingest("granite.md", markdownDoc());
    const build = await api.waitForBuild(buildId);
    expect(build).toMatchObject({ status: "Completed", error: null });

    const full = await (await api.get(`/builds/${buildId}`)).json();
    expect(full).toMatchObject({
      success: true,
      file_name: "granite.md",
      // Contract §3: an ingest without a method runs `auto` (for a text file, read as fast).
      method: "auto",
      message: "Build completed successfully",
    });
    expect(full.total_elements).toBeGreaterThan(3);
    expect(full.elements[0]).toMatchObject({ element_type: "Title", text: "Granite quarries", position: 0 });
    expect(full.elements[0].element_id).toMatch(/^[0-9a-f]{32}$/);
    expect(full.elements.map((e: { element_type: string }) => e.element_type)).toEqual(
      expect.arrayContaining(["Title", "NarrativeText", "ListItem", "Table"]),
    );

    const rag = await (await api.post("/prebuilt-rag", { query: "how are granite blocks cut with wire saws?" })).json();
    expect(rag.total).toBeGreaterThan(0);
    expect(rag.chunks[0]).toMatchObject({ file_id: full.file_id, file_name: "granite.md" });
    expect(rag.chunks[0].text).toMatch(/wire saw/i);
    for (const chunk of rag.chunks) {
      expect(chunk.score).toBeGreaterThanOrEqual(0);
      expect(chunk.score).toBeLessThanOrEqual(1);
      expect(chunk.metadata).toMatchObject({ file_id: full.file_id, file_name: "granite.md" });
    }
    const scores = rag.chunks.map((c: { score: number }) => c.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));

    // A small JSON answer goes out as it is, even to a client that accepts gzip (public-route.ts).
    const plain = await fetch(`${api.base}/prebuilt-rag`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${quarry.token}`,
        "Content-Type": "application/json",
        "Accept-Encoding": "gzip",
      },
      body: JSON.stringify({ query: "how are granite blocks cut with wire saws?" }),
    });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("content-type")).toBe("application/json");
    expect(plain.headers.get("cache-control")).toBe("no-transform");
    expect(await plain.json()).toEqual(rag);
  });

  it("ingests a text PDF with pages and boxes, and pages through its elements", async () => {
    const buildId = await ingest("sandstone.pdf", await pdfDoc({ pages: 3 }));
    expect(await api.waitForBuild(buildId)).toMatchObject({ status: "Completed" });
    const fileId = await fileIdOf(buildId);
    const all = await (await api.get(`/get-elements?file_id=${fileId}`)).json();
    expect(all.page).toBeNull();
    expect(all.items[0]).toMatchObject({ element_type: "Title", text: "Sandstone Report", page_number: 1 });
    expect(all.items[0].bounding_box).toMatchObject({ left: expect.any(Number), top: expect.any(Number) });
    expect(all.items[0].page_layout).toEqual({ width: 612, height: 792 });
    expect(new Set(all.items.map((e: { page_number: number }) => e.page_number))).toEqual(new Set([1, 2, 3]));

    const first = await (await api.get(`/get-elements?file_id=${fileId}&page=1&page_size=2`)).json();
    const second = await (await api.get(`/get-elements?file_id=${fileId}&page=2&page_size=2`)).json();
    expect(first).toMatchObject({ total: all.total, page: 1, page_size: 2, total_pages: Math.ceil(all.total / 2) });
    expect(first.items.map((e: { position: number }) => e.position)).toEqual([0, 1]);
    expect(second.items.map((e: { position: number }) => e.position)).toEqual([2, 3]);

    const page2 = await (await api.get(`/get-elements?file_id=${fileId}&page_numbers=2`)).json();
    expect(page2.items.every((e: { page_number: number }) => e.page_number === 2)).toBe(true);
    const noTitles = await (await api.get(`/get-elements?file_id=${fileId}&elementsToRemove=Title`)).json();
    expect(noTitles.total).toBe(all.total - 1);
  });

  it("parses txt, html and csv, and scopes retrieval with file_ids", async () => {
    const ids = {
      txt: await ingest("limestone.txt", textDoc(6)),
      html: await ingest(
        "page.html",
        "<html><body><h1>Marble</h1><p>Carrara marble is white.</p><script>x()</script></body></html>",
      ),
      csv: await ingest("stones.csv", "stone,hardness\nmarble,3\ngranite,6\n"),
    };
    for (const buildId of Object.values(ids))
      expect(await api.waitForBuild(buildId)).toMatchObject({ status: "Completed" });
    const htmlFile = await fileIdOf(ids.html);
    const html = await (await api.get(`/get-elements?file_id=${htmlFile}`)).json();
    expect(html.items.map((e: { text: string }) => e.text).join(" ")).not.toMatch(/x\(\)/);
    const csv = await (await api.get(`/get-elements?file_id=${await fileIdOf(ids.csv)}`)).json();
    expect(csv.items[0]).toMatchObject({ element_type: "Table" });
    expect(csv.items[0].html).toMatch(/<table/);

    const scoped = await (await api.post("/prebuilt-rag", { query: "marble", file_ids: [htmlFile] })).json();
    expect(scoped.chunks.length).toBeGreaterThan(0);
    expect(scoped.chunks.every((c: { file_id: string }) => c.file_id === htmlFile)).toBe(true);
  });

  it("keeps a source with indexing=none out of retrieval and says so", async () => {
    const buildId = await ingest("hidden.txt", textDoc(2, "basalt"), { indexing: "none" });
    expect(await api.waitForBuild(buildId)).toMatchObject({ status: "Completed" });
    const fileId = await fileIdOf(buildId);
    expect((await (await api.get(`/get-elements?file_id=${fileId}`)).json()).total).toBeGreaterThan(0);
    const rag = await (await api.post("/prebuilt-rag", { query: "basalt", file_ids: [fileId] })).json();
    expect(rag).toMatchObject({
      query: "basalt",
      chunks: [],
      total: 0,
      message: "No indexed sources in scope; run POST /index or reprocess with indexing=full",
    });
  });

  it("accepts a file that turns out broken and fails its build with a clear error", async () => {
    const buildId = await ingest("notes.docx", Buffer.from("PK\u0003\u0004 not really a docx"));
    const build = await api.waitForBuild(buildId);
    expect(build.status).toBe("Processing failed");
    expect(build.error).toMatch(/not a valid Office document/);
    const sources = await (await api.get(`?file_ids=${await fileIdOf(buildId)}`)).json();
    expect(sources[0]).toMatchObject({ status: "Failed", message: "Source processing failed", file_type: "docx" });
  });
});

describe("sources lifecycle", () => {
  it("lists, reprocesses (409 while running) and deletes a source for good", async () => {
    const buildId = await ingest("cycle.txt", textDoc(40, "chalk"));
    const fileId = await fileIdOf(buildId);
    const busy = await api.post("/reprocess", { file_id: fileId });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toEqual({ detail: "A build is already running for this source" });
    await api.waitForBuild(buildId);

    const list = await (await api.get(`?file_ids=${fileId}`)).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      file_id: fileId,
      file_name: "cycle.txt",
      file_source: "local file",
      status: "Completed",
      method: "auto",
      // The official Python client's strict mode refuses a list holding `auto` there (contract §3).
      partition_method: null,
    });

    // Every record the list holds passes the official Python client's strict mode: its PublicSource.partition_method
    // is Optional[Literal[...]] of these names (synapseops/graphor-python-sdk, src/graphor/types/public_source.py).
    const clientMethods = [null, "basic", "hi_res", "hi_res_ft", "mai", "graphorlm", "ocr", "advanced", "yolox"];
    const all = (await (await api.get("/")).json()) as { partition_method: string | null }[];
    for (const s of all) expect(clientMethods).toContain(s.partition_method);

    const again = await api.post("/reprocess", { file_id: fileId, method: "auto" });
    expect(again.status).toBe(200);
    const rebuilt = (await again.json()).build_id;
    expect(rebuilt).not.toBe(buildId);
    expect(await api.waitForBuild(rebuilt)).toMatchObject({ status: "Completed" });
    expect(await fileIdOf(rebuilt)).toBe(fileId);

    const del = await api.del({ file_id: fileId });
    expect(await del.json()).toMatchObject({
      status: "success",
      message: "Source deleted successfully",
      file_id: fileId,
      file_name: "cycle.txt",
      project_name: "default",
    });
    expect((await api.get(`/get-elements?file_id=${fileId}`)).status).toBe(404);
    expect((await (await api.get(`/builds/${rebuilt}`)).json()).status).toBe("not_found");
    expect((await api.post("/prebuilt-rag", { query: "chalk", file_ids: [fileId] })).status).toBe(404);
    expect((await api.del({ file_id: fileId })).status).toBe(404);
  });
});

describe("errors", () => {
  const expectDetail = async (res: Response, status: number, detail: string | RegExp) => {
    expect(res.status).toBe(status);
    const body = await res.json();
    if (typeof detail === "string") expect(body).toEqual({ detail });
    else expect(body.detail).toMatch(detail);
  };

  it("validates uploads", async () => {
    await expectDetail(await api.upload("README", "x"), 400, "File must have a filename with an extension");
    await expectDetail(await api.upload("evil.exe", "x"), 400, "Unsupported file type: .exe");
    await expectDetail(
      await api.upload("a.txt", "x", { method: "vlm" }),
      400,
      "Invalid method 'vlm'. Valid values: auto, fast, balanced, accurate, agentic",
    );
    await expectDetail(
      await api.upload("a.txt", "x", { enrichment: "some" }),
      400,
      "Invalid enrichment 'some'. Valid values: full, none",
    );
    await expectDetail(
      await api.upload("a.txt", "x", { indexing: "half" }),
      400,
      "Invalid indexing 'half'. Valid values: full, none",
    );
    await expectDetail(
      await fetch(`${api.base}/ingest-file`, {
        method: "POST",
        headers: { Authorization: `Bearer ${quarry.token}`, "Content-Type": "application/json" },
        body: "{}",
      }),
      400,
      "Expected multipart/form-data",
    );
  });

  it("answers 411 without Content-Length and 413 past 100 MB, without reading the body", async () => {
    const raw = (headers: Record<string, string>) => multipartHead(`${api.base}/ingest-file`, quarry.token, headers);
    const chunked = await raw({ "Transfer-Encoding": "chunked" });
    expect(chunked).toEqual({ status: 411, body: JSON.stringify({ detail: "Content-Length header is required" }) });
    const huge = await raw({ "Content-Length": String(150 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body)).toEqual({ detail: "File exceeds the maximum size of 100 MB" });
  });

  it("validates builds, elements, reprocess, delete and retrieval input", async () => {
    await expectDetail(await api.get("/builds/not-a-uuid"), 404, "Build not found");
    const unknown = crypto.randomUUID();
    expect(await (await api.get(`/builds/${unknown}`)).json()).toMatchObject({
      build_id: unknown,
      status: "not_found",
      success: false,
      message: "No build found for this build_id",
    });
    await expectDetail(await api.get("/get-elements"), 400, "Invalid input: file_id is required");
    await expectDetail(await api.get(`/get-elements?file_id=${unknown}`), 404, "Source not found");
    await expectDetail(
      await api.get(`/get-elements?file_id=${unknown}&page=1&page_size=500`),
      400,
      "page_size must be between 1 and 100",
    );
    await expectDetail(await api.post("/reprocess", {}), 400, "Invalid input: file_id is required");
    await expectDetail(await api.post("/reprocess", { file_id: unknown }), 404, "Source node not found");
    await expectDetail(
      await api.post("/reprocess", { file_id: unknown, method: "hi_res" }),
      400,
      /^Invalid method 'hi_res'/,
    );
    await expectDetail(await api.del({}), 400, "Invalid input: file_id is required");
    await expectDetail(await api.post("/prebuilt-rag", { query: "  " }), 400, "Invalid input: query is required");
    await expectDetail(await api.post("/prebuilt-rag", { query: "x", file_ids: [unknown] }), 404, "Source not found");
    const bad = await fetch(`${api.base}/prebuilt-rag`, {
      method: "POST",
      headers: { Authorization: `Bearer ${quarry.token}` },
      body: "{oops",
    });
    await expectDetail(bad, 400, "Invalid JSON body");
  });

  it("answers unknown paths and methods in the contract's shape, with or without a trailing slash", async () => {
    await expectDetail(await api.get("/nope"), 404, "Not Found");
    await expectDetail(
      await fetch(`${api.base}/config`, { method: "DELETE", headers: { Authorization: `Bearer ${quarry.token}` } }),
      405,
      "Method Not Allowed",
    );
    const config = await (await api.get("/config/")).json();
    expect(config).toMatchObject({
      indexing_options: ["full", "none"],
      default_method: "auto",
      max_file_size_bytes: 104857600,
    });
    // The contract's list and its "also accepted" formats (§5.2).
    expect(config.allowed_extensions).toEqual([...ALLOWED_EXTENSIONS]);
    expect(config.allowed_extensions).toEqual(
      expect.arrayContaining(["tif", "webp", "ods", "odp", "epub", "rtf", "vtt", "srt"]),
    );
    expect(config.allowed_extensions).toHaveLength(39);
  });
});

describe("tenancy", () => {
  it("hides project A's sources, elements, builds and chunks from project B's token", async () => {
    const buildId = await ingest("tenant-a.txt", textDoc(3, "slate"));
    await api.waitForBuild(buildId);
    const fileId = await fileIdOf(buildId);
    const b = apiClient(quarry, cli("token", "create", "--project", "tenant-b"));

    expect(await (await b.get("")).json()).toEqual([]);
    expect(await (await b.get(`?file_ids=${fileId}`)).json()).toEqual([]);
    expect((await b.get(`/get-elements?file_id=${fileId}`)).status).toBe(404);
    // A build of another project answers exactly like an unknown one (contract §5.1): no existence leak.
    const foreign = await b.get(`/builds/${buildId}`);
    expect(foreign.status).toBe(200);
    expect(await foreign.json()).toEqual(
      await (
        await b.get(`/builds/${crypto.randomUUID()}`)
      )
        .json()
        .then((unknown: Record<string, unknown>) => ({ ...unknown, build_id: buildId })),
    );
    expect((await b.post("/prebuilt-rag", { query: "slate", file_ids: [fileId] })).status).toBe(404);
    const unscoped = await (await b.post("/prebuilt-rag", { query: "slate" })).json();
    expect(unscoped.chunks).toEqual([]);
    expect((await b.post("/reprocess", { file_id: fileId })).status).toBe(404);
    expect((await b.del({ file_id: fileId })).status).toBe(404);
    // Still there for its owner.
    expect((await api.get(`/get-elements?file_id=${fileId}`)).status).toBe(200);
  });
});
