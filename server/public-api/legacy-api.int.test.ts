import { execFileSync } from "node:child_process";
import path from "node:path";
import { existsSync, statSync } from "node:fs";
import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfDoc, textDoc } from "../testing/fixtures";
import { multipartHead } from "../testing/multipart-head";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/** The legacy sources endpoints (contract §6) and page screenshots (§5.11) over real HTTP against the running app. */

let quarry: QuarryProcess;
let api: ReturnType<typeof apiClient>;

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

/** POST /upload (multipart) with the given token. */
const legacyUpload = (
  fileName: string,
  content: Buffer | string,
  fields: Record<string, string> = {},
  token = quarry.token,
) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new Blob([typeof content === "string" ? Buffer.from(content) : new Uint8Array(content)]), fileName);
  return fetch(`${api.base}/upload`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
};

type SourceDto = {
  file_id: string;
  project_id: string;
  file_name: string;
  status: string;
  method: string | null;
  partition_method: string | null;
};

const uploaded = async (fileName: string, content: Buffer | string, fields: Record<string, string> = {}) => {
  const res = await legacyUpload(fileName, content, fields);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as SourceDto;
};

const expectDetail = async (res: Response, status: number, detail: string) => {
  expect({ status: res.status, body: await res.json() }).toEqual({ status, body: { detail } });
};

/** A two-page .docx (a page break between two paragraphs), built the way Word lays out the package. */
const docxDoc = async () => {
  const zip = new JSZip();
  zip.file(
    "[Content_Types].xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`,
  );
  zip.file(
    "_rels/.rels",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`,
  );
  zip.file(
    "word/document.xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>
<w:p><w:r><w:t>Quarry safety plan, page one.</w:t></w:r></w:p>
<w:p><w:r><w:br w:type="page"/></w:r><w:r><w:t>Blasting schedule, page two.</w:t></w:r></w:p>
</w:body></w:document>`,
  );
  return zip.generateAsync({ type: "nodebuffer" });
};

/** A PNG with a line of text, drawn with the bundled DejaVu font. */
const pngImage = (width: number, height: number) => {
  GlobalFonts.registerFromPath("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "DejaVu Sans");
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = "#000000";
  ctx.font = "40px DejaVu Sans";
  ctx.fillText("Core sample 17", 40, height / 2);
  return canvas.toBuffer("image/png");
};

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (base64: string) => {
  const png = Buffer.from(base64, "base64");
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
};

let pdf: SourceDto;
let txt: SourceDto;

beforeAll(async () => {
  quarry = await startQuarry();
  api = apiClient(quarry);
  pdf = await uploaded("legacy-report.pdf", await pdfDoc({ pages: 2 }));
  txt = await uploaded("legacy-notes.txt", textDoc(3, "marl"));
});
afterAll(async () => quarry?.dispose());

describe("POST /upload", () => {
  it("builds the upload before answering and returns the final source with both method names", async () => {
    const project = await (await api.get("")).json();
    expect(pdf).toMatchObject({
      file_name: "legacy-report.pdf",
      file_type: "pdf",
      file_source: "local file",
      status: "Completed",
      message: "Source processed successfully",
      method: "fast",
      partition_method: "basic",
      project_name: "default",
    });
    expect(project.map((s: SourceDto) => s.file_id)).toContain(pdf.file_id);
    // Elements are there as soon as the call returns.
    expect((await (await api.get(`/get-elements?file_id=${pdf.file_id}`)).json()).total).toBeGreaterThan(3);
  });

  it("runs legacy-only methods as the method that does their job", async () => {
    // Reported as stored (contract §3): mai has no v2 name, so both fields say mai.
    const vlm = await uploaded("manuscript.txt", textDoc(1, "chert"), { partition_method: "mai" });
    expect(vlm).toMatchObject({ status: "Completed", method: "mai", partition_method: "mai" });
    const yolox = await uploaded("yolox.txt", textDoc(1, "chert"), { partition_method: "yolox" });
    expect(yolox).toMatchObject({ status: "Completed", method: "balanced", partition_method: "yolox" });
    const agentic = await legacyUpload("a.txt", "x", { partition_method: "graphorlm" });
    expect(agentic.status).toBe(400);
    expect((await agentic.json()).detail).toMatch(
      /^Method 'agentic' needs a vision model: choose one at \/[0-9a-f-]{36}\/settings\/models \(providers are added at \/teams\/[0-9a-f-]{36}\/providers\), or set VISION_MODEL/,
    );
    const v2 = await uploaded("v2-name.txt", textDoc(1, "chert"), { partition_method: "accurate" });
    expect(v2).toMatchObject({ status: "Completed", method: "accurate", partition_method: "hi_res_ft" });
  });

  it("returns a document that cannot be parsed as a Failed source", async () => {
    const broken = await uploaded("broken.pdf", "this is not a PDF at all");
    expect(broken).toMatchObject({ status: "Failed", message: "Source processing failed", partition_method: "basic" });
    // Why, in the field the legacy shape leaves free (clients ignore it); null while nothing failed.
    expect((broken as SourceDto & { error: string | null }).error).toMatch(/PDF/i);
    expect(txt).toMatchObject({ status: "Completed", error: null });
  });

  it("validates like ingest-file", async () => {
    await expectDetail(
      await legacyUpload("a.txt", "x", { partition_method: "turbo" }),
      400,
      "Invalid partition_method 'turbo'. Valid values: basic, hi_res, hi_res_ft, mai, graphorlm",
    );
    await expectDetail(await legacyUpload("README", "x"), 400, "File must have a filename with an extension");
    await expectDetail(await legacyUpload("evil.exe", "x"), 400, "Unsupported file type: .exe");
    await expectDetail(await api.post("/upload", {}), 400, "Expected multipart/form-data");

    const raw = (headers: Record<string, string>) => multipartHead(`${api.base}/upload`, quarry.token, headers);
    expect(await raw({ "Transfer-Encoding": "chunked" })).toEqual({
      status: 411,
      body: JSON.stringify({ detail: "Content-Length header is required" }),
    });
    expect(await raw({ "Content-Length": String(150 * 1024 * 1024) })).toEqual({
      status: 413,
      body: JSON.stringify({ detail: "File exceeds the maximum size of 100 MB" }),
    });
  });
});

describe("POST /process", () => {
  it("re-runs the pipeline by id or by name and returns the final source, same file_id", async () => {
    const res = await api.post("/process", { file_id: txt.file_id, partition_method: "hi_res" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      file_id: txt.file_id,
      status: "Completed",
      method: "balanced",
      partition_method: "hi_res",
    });
    const byName = await (await api.post("/process", { file_name: "legacy-notes.txt" })).json();
    expect(byName).toMatchObject({ file_id: txt.file_id, status: "Completed", partition_method: "basic" });
  });

  it("answers 409 while a build of the source is running", async () => {
    // Over the small-build size (server/ingestion/limits.ts): a build of separate steps, still running when asked.
    const ingest = await api.upload("busy.txt", textDoc(2000, "chalk"));
    const { build_id } = (await ingest.json()) as { build_id: string };
    const { file_id } = (await (await api.get(`/builds/${build_id}?suppress_elements=true`)).json()) as {
      file_id: string;
    };
    await expectDetail(await api.post("/process", { file_id }), 409, "A build is already running for this source");
    await api.waitForBuild(build_id);
  });

  it("refuses bad input with the contract's texts", async () => {
    const required = "Invalid input: file_id or file_name is required";
    await expectDetail(await api.post("/process", {}), 400, required);
    await expectDetail(await api.post("/process", { file_id: "", file_name: "  " }), 400, required);
    await expectDetail(await api.post("/process", { file_id: crypto.randomUUID() }), 404, "Source node not found");
    await expectDetail(await api.post("/process", { file_id: "not-a-uuid" }), 404, "Source node not found");
    await expectDetail(await api.post("/process", { file_name: "nothing.txt" }), 404, "Source node not found");
    await expectDetail(
      await api.post("/process", { file_id: txt.file_id, partition_method: "vlm2" }),
      400,
      "Invalid partition_method 'vlm2'. Valid values: basic, hi_res, hi_res_ft, mai, graphorlm",
    );
    await uploaded("twin.txt", "first twin");
    await uploaded("twin.txt", "second twin");
    await expectDetail(
      await api.post("/process", { file_name: "twin.txt" }),
      400,
      "Multiple sources named 'twin.txt'; use file_id",
    );
    const bad = await fetch(`${api.base}/process`, {
      method: "POST",
      headers: { Authorization: `Bearer ${quarry.token}` },
      body: "{oops",
    });
    await expectDetail(bad, 400, "Invalid JSON body");
  });
});

describe("POST /elements", () => {
  type LegacyElement = {
    id: null;
    page_content: string;
    type: string;
    metadata: {
      element_id: string;
      element_type: string;
      page_number: number | null;
      position: number;
      coordinates: { points: number[][]; system: string; layout_width: number; layout_height: number } | null;
    };
  };
  type Page = { items: LegacyElement[]; total: number; page: number | null; page_size: number | null };

  it("lists the elements as LangChain-style documents with unstructured coordinates", async () => {
    const all = (await (await api.post("/elements", { file_id: pdf.file_id })).json()) as Page;
    expect(all).toMatchObject({ page: null, page_size: null, total_pages: null });
    expect(all.items).toHaveLength(all.total);
    const title = all.items[0]!;
    expect(title).toMatchObject({
      id: null,
      page_content: "Sandstone Report",
      type: "Document",
      metadata: {
        element_type: "Title",
        page_number: 1,
        position: 0,
        filename: "legacy-report.pdf",
        filetype: "application/pdf",
        languages: expect.any(Array),
        last_modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        text_as_html: null,
        coordinates: { system: "PointSpace", layout_width: 612, layout_height: 792 },
      },
    });
    expect(title.metadata.element_id).toMatch(/^[0-9a-f]{32}$/);
    // Corners: top-left, bottom-left, bottom-right, top-right.
    const [tl, bl, br, tr] = title.metadata.coordinates!.points as [
      [number, number],
      [number, number],
      [number, number],
      [number, number],
    ];
    expect(bl[0]).toBe(tl[0]);
    expect(bl[1]).toBeGreaterThan(tl[1]);
    expect(br[0]).toBeGreaterThan(bl[0]);
    expect(tr).toEqual([br[0], tl[1]]);

    const text = (await (await api.post("/elements", { file_name: "legacy-notes.txt" })).json()) as Page;
    expect(text.total).toBeGreaterThan(0);
    expect(text.items[0]!.metadata).toMatchObject({ coordinates: null, filetype: "text/plain" });
  });

  it("pages only when both page and page_size are given, and filters through `filter`", async () => {
    const all = (await (await api.post("/elements", { file_id: pdf.file_id })).json()) as Page;
    const second = (await (
      await api.post("/elements", { file_id: pdf.file_id, page: 2, page_size: 2 })
    ).json()) as Page & { total_pages: number };
    expect(second).toMatchObject({ total: all.total, page: 2, page_size: 2, total_pages: Math.ceil(all.total / 2) });
    expect(second.items.map((e) => e.metadata.position)).toEqual([2, 3]);
    const onlyPage = (await (await api.post("/elements", { file_id: pdf.file_id, page: 2 })).json()) as Page;
    expect(onlyPage).toMatchObject({ page: null, page_size: null, total: all.total });

    const filtered = async (filter: unknown) =>
      (await (await api.post("/elements", { file_id: pdf.file_id, filter })).json()) as Page;
    const titles = await filtered({ type: "Title" });
    expect(titles.items.map((e) => e.page_content)).toEqual(["Sandstone Report"]);
    const page2 = await filtered({ page_numbers: [2] });
    expect(page2.total).toBeGreaterThan(0);
    expect(page2.items.every((e) => e.metadata.page_number === 2)).toBe(true);
    expect((await filtered({ elementsToRemove: ["Title"] })).total).toBe(all.total - 1);
    expect((await filtered(null)).total).toBe(all.total);
  });

  it("refuses bad input with the contract's texts", async () => {
    await expectDetail(await api.post("/elements", {}), 400, "Invalid input: file_id or file_name is required");
    await expectDetail(await api.post("/elements", { file_id: crypto.randomUUID() }), 404, "Source not found");
    await expectDetail(await api.post("/elements", { file_name: "nothing.txt" }), 404, "Source not found");
    await expectDetail(
      await api.post("/elements", { file_id: pdf.file_id, page: 1, page_size: 500 }),
      400,
      "page_size must be between 1 and 100",
    );
  });
});

describe("GET /{file_id}/pages/{page_number}/screenshot", () => {
  type Shot = {
    file_id: string;
    file_name: string;
    page_number: number;
    mime_type: string;
    width: number;
    height: number;
    image_base64: string;
  };
  const shot = (fileId: string, page: string | number, query = "") =>
    api.get(`/${fileId}/pages/${page}/screenshot${query}`);

  it("renders PDF pages as PNG at the default width, cacheable", async () => {
    const res = await shot(pdf.file_id, 1);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    const first = (await res.json()) as Shot;
    expect(first).toMatchObject({
      file_id: pdf.file_id,
      file_name: "legacy-report.pdf",
      page_number: 1,
      mime_type: "image/png",
      width: 900,
      height: Math.ceil((900 * 792) / 612),
    });
    expect(pngSize(first.image_base64)).toEqual({ width: first.width, height: first.height });

    const second = (await (await shot(pdf.file_id, 2, "/")).json()) as Shot;
    expect(second).toMatchObject({ page_number: 2, width: 900 });
    expect(second.image_base64).not.toBe(first.image_base64);
  });

  it("clamps max_width to 300–1600", async () => {
    for (const [asked, got] of [
      [10, 300],
      [640, 640],
      [5000, 1600],
    ] as const) {
      const body = (await (await shot(pdf.file_id, 1, `?max_width=${asked}`)).json()) as Shot;
      expect(pngSize(body.image_base64).width, `max_width=${asked}`).toBe(got);
    }
  });

  it("shows images as page 1, scaled down to the width asked for, never up", async () => {
    const wide = await uploaded("core-sample.png", pngImage(1200, 600));
    const body = (await (await shot(wide.file_id, 1)).json()) as Shot;
    expect(body).toMatchObject({ file_name: "core-sample.png", width: 900, height: 450, mime_type: "image/png" });
    expect(pngSize(body.image_base64)).toEqual({ width: 900, height: 450 });
    const full = (await (await shot(wide.file_id, 1, "?max_width=1600")).json()) as Shot;
    expect(pngSize(full.image_base64)).toEqual({ width: 1200, height: 600 });
    await expectDetail(await shot(wide.file_id, 2), 404, "Page 2 is out of range");

    const small = await uploaded("label.jpg", pngImage(320, 120));
    const label = (await (await shot(small.file_id, 1, "?max_width=300")).json()) as Shot;
    expect(pngSize(label.image_base64)).toEqual({ width: 300, height: label.height });
    expect(Math.abs(label.height - 112.5)).toBeLessThanOrEqual(0.5);
  });

  it("renders Office documents through a PDF converted once and kept with the source", async () => {
    const ingest = await api.upload("safety-plan.docx", await docxDoc());
    const { build_id } = (await ingest.json()) as { build_id: string };
    await api.waitForBuild(build_id);
    const { file_id } = (await (await api.get(`/builds/${build_id}?suppress_elements=true`)).json()) as {
      file_id: string;
    };
    const sourceDir = path.join(quarry.dataDir, "files/projects", pdf.project_id, "sources", file_id);
    const cached = () => existsSync(path.join(sourceDir, "converted.pdf"));

    const first = await shot(file_id, 2, "?max_width=400");
    expect(first.status, await first.clone().text()).toBe(200);
    expect(pngSize(((await first.json()) as Shot).image_base64).width).toBe(400);
    expect(cached()).toBe(true);
    const converted = statSync(path.join(sourceDir, "converted.pdf"));

    // The next page comes from the kept PDF: LibreOffice is not run again, so the file is not rewritten.
    expect((await shot(file_id, 1)).status).toBe(200);
    const after = statSync(path.join(sourceDir, "converted.pdf"));
    expect([after.ino, after.mtimeMs]).toEqual([converted.ino, converted.mtimeMs]);
    await expectDetail(await shot(file_id, 3), 404, "Page 3 is out of range");

    expect((await api.del({ file_id })).status).toBe(200);
    expect(cached()).toBe(false);
  });

  it("answers 404/400 for pages, types and sources it cannot show", async () => {
    await expectDetail(await shot(pdf.file_id, 3), 404, "Page 3 is out of range");
    await expectDetail(await shot(pdf.file_id, 0), 404, "Page 0 is out of range");
    await expectDetail(await shot(pdf.file_id, "first"), 400, "page_number must be an integer");
    await expectDetail(await shot(pdf.file_id, 1, "?max_width=wide"), 400, "max_width must be an integer");
    await expectDetail(await shot(txt.file_id, 1), 404, "Screenshots are not supported for this file type");
    await expectDetail(await shot(crypto.randomUUID(), 1), 404, "Source not found");
    // Static siblings keep their routes; their names here are just unknown sources.
    await expectDetail(await shot("config", 1), 404, "Source not found");
    await expectDetail(await api.get(`/${pdf.file_id}/pages/1`), 404, "Not Found");
  });
});

describe("permissions and tenancy", () => {
  it("needs write for the POSTs and read for screenshots, and hides other projects' sources", async () => {
    const readToken = cli("token", "create", "--project", "default", "--permissions", "read");
    const readOnly = apiClient(quarry, readToken);
    await expectDetail(await legacyUpload("a.txt", "x", {}, readToken), 403, "Permission denied");
    await expectDetail(await readOnly.post("/process", { file_id: txt.file_id }), 403, "Permission denied");
    await expectDetail(await readOnly.post("/elements", { file_id: txt.file_id }), 403, "Permission denied");
    expect((await readOnly.get(`/${pdf.file_id}/pages/1/screenshot`)).status).toBe(200);

    const other = apiClient(quarry, cli("token", "create", "--project", "legacy-other"));
    await expectDetail(await other.post("/process", { file_id: pdf.file_id }), 404, "Source node not found");
    await expectDetail(await other.post("/process", { file_name: "legacy-report.pdf" }), 404, "Source node not found");
    await expectDetail(await other.post("/elements", { file_id: pdf.file_id }), 404, "Source not found");
    await expectDetail(await other.get(`/${pdf.file_id}/pages/1/screenshot`), 404, "Source not found");
  });
});
