import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfDoc } from "../testing/fixtures";
import { startGithubStandIn, type GithubStandIn } from "../testing/github-stand-in";
import { apiClient, freePort, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { startWebSite, type WebSite } from "../testing/web-site-server";
import { startYoutubeStandIn, type YoutubeStandIn } from "../testing/youtube-stand-in";

/**
 * The connector endpoints over real HTTP against the running app, with local stand-ins for a web site, GitHub and
 * YouTube. The app reaches the stand-ins only because QUARRY_FETCH_ALLOW_HOSTS names their host:port; every other
 * loopback address stays refused. Requests are sent in the shapes the official clients send them.
 */

let quarry: QuarryProcess;
let api: ReturnType<typeof apiClient>;
let site: WebSite;
let github: GithubStandIn;
let youtube: YoutubeStandIn;
let pdf: Buffer;

type Fate = { url: string; status: string; reason_code: string | null; reason: string | null; page_number?: number };
type BuildStatus = {
  status: string;
  error: string | null;
  file_id: string;
  total_pages: number | null;
  pages: Fate[] | null;
  acquired: Record<string, unknown> | null;
  step: string | null;
};
type Element = { element_type: string; text: string; page_number: number | null; metadata: Record<string, unknown> };

const build = async (buildId: string) =>
  (await (await api.get(`/builds/${buildId}?suppress_elements=true`)).json()) as BuildStatus;

const finished = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  const { build_id } = (await res.json()) as { build_id: string };
  await api.waitForBuild(build_id, 180_000);
  return build(build_id);
};

const elementsOf = async (fileId: string) =>
  ((await (await api.get(`/get-elements?file_id=${fileId}`)).json()) as { items: Element[] }).items;

const expectDetail = async (res: Response, status: number, detail: string | RegExp) => {
  const body = (await res.json()) as { detail: string };
  expect({ status: res.status, detail: body.detail }).toEqual({ status, detail: expect.stringMatching(detail) });
};

beforeAll(async () => {
  pdf = await pdfDoc({ pages: 2, title: "Safety manual" });
  site = await startWebSite({ pdf, bigPdf: await pdfDoc({ pages: 60, title: "Quarry annual report" }) });
  github = await startGithubStandIn({
    "quarry-co/tools": {
      defaultBranch: "main",
      branches: ["main"],
      sha: "abc1234def",
      files: [
        { path: "README.md", content: "# Quarry tools\n\nScripts the crew uses to plan blasts.\n" },
        { path: "src/blast.ts", content: "export const charge = (volume: number) => volume * 0.42;\n" },
        { path: "node_modules/x/index.js", content: "module.exports = 1;\n" },
      ],
    },
  });
  youtube = await startYoutubeStandIn();
  const allowed = [site.port, github.port, github.codeloadPort, youtube.port].map((p) => `127.0.0.1:${p}`).join(",");
  quarry = await startQuarry({
    env: { QUARRY_FETCH_ALLOW_HOSTS: allowed, GITHUB_API_BASE_URL: github.origin, YOUTUBE_BASE_URL: youtube.origin },
  });
  api = apiClient(quarry);
});
afterAll(async () => {
  await quarry?.dispose();
  await Promise.all([site?.close(), github?.close(), youtube?.close()]);
});

describe("POST /ingest-url", () => {
  it("crawls the site: every URL with its fate, robots and sitemap obeyed, one source", async () => {
    // TypeScript client: client.sources.ingestURL({ url, crawlUrls: true })
    const status = await finished(await api.post("/ingest-url", { url: `${site.origin}/docs/`, crawlUrls: true }));
    expect(status.status, status.error ?? "").toBe("Completed");
    const fate = (path: string) =>
      status.pages!.find((p) => p.url === (path.startsWith("http") ? path : `${site.origin}${path}`));
    expect(status.pages!.filter((p) => p.status === "ingested").map((p) => p.url.replace(site.origin, ""))).toEqual([
      "/docs/",
      "/docs/about.html",
      "/docs/guide.html",
      "/docs/manual.pdf",
      "/docs/deep.html",
      "/docs/privacy.html",
      "/docs/sitemap-only.html",
    ]);
    expect(fate("/docs/guide-copy.html")).toMatchObject({ status: "skipped", reason_code: "duplicate" });
    expect(fate("/docs/private/notes.html")).toMatchObject({
      reason_code: "robots",
      reason: "disallowed by robots.txt",
    });
    expect(fate("/docs/challenge.html")).toMatchObject({
      reason_code: "challenge",
      reason: "bot-challenge page (Cloudflare), HTTP 403 Forbidden",
    });
    expect(fate("/docs/app.html")).toMatchObject({ reason_code: "javascript_only" });
    expect(fate("/docs/moved.html")?.reason).toMatch(
      /redirects to http:\/\/169\.254\.169\.254\/latest\/meta-data\/, and 169\.254\.169\.254 is a link-local address/,
    );
    expect(fate("/docs/missing.html")).toMatchObject({ reason_code: "fetch_error", reason: "HTTP 404 Not Found" });
    expect(fate("/docs/photo.gif")).toMatchObject({ reason_code: "not_html" });
    expect(fate("/blog/outside.html")).toMatchObject({ reason_code: "out_of_scope" });
    expect(fate("https://example.org/elsewhere")).toMatchObject({ reason_code: "out_of_scope" });
    expect(fate("/docs/deeper.html")).toMatchObject({ reason_code: "limit", reason: "deeper than max_depth 1" });
    expect(status.acquired).toMatchObject({
      robots: "found",
      max_pages: 20,
      max_depth: 1,
      progress: { ingested: 7, queued: 0 },
    });
    expect(status.total_pages).toBe(7);
    // Robots-disallowed pages, non-pages and pages beyond the depth were never requested.
    expect(site.requests).not.toContain("/docs/private/notes.html");
    expect(site.requests).not.toContain("/docs/photo.gif");
    expect(site.requests).not.toContain("/docs/deeper.html");

    const elements = await elementsOf(status.file_id);
    const text = elements.map((e) => e.text).join("\n");
    expect(text).toContain("thirty years of work");
    expect(text).not.toMatch(/premium diamond wire saw|Docs home|Checking if the site connection|enable JavaScript/);
    expect(elements.find((e) => e.page_number === 1 && e.element_type === "Table")).toBeDefined();
    const manual = elements.filter((e) => e.page_number === 4);
    expect(manual[0]).toMatchObject({
      text: "Safety manual",
      metadata: { url: `${site.origin}/docs/manual.pdf`, document_page_number: 1 },
    });
    const sources = (await (await api.get(`?file_ids=${status.file_id}`)).json()) as Record<string, unknown>[];
    expect(sources).toEqual([
      expect.objectContaining({
        file_name: `${site.origin}/docs/`,
        file_source: "url",
        file_type: "html",
        status: "Completed",
      }),
    ]);
    expect(sources[0]!.file_size).toBeGreaterThan(0);
  });

  it("takes crawl_urls, max_pages and max_depth: later pages are skipped with the limit as reason", async () => {
    const status = await finished(
      await api.post("/ingest-url", {
        url: `${site.origin}/docs/`,
        crawl_urls: true,
        max_pages: 3,
        max_depth: 2,
        method: null,
      }),
    );
    expect(status.status).toBe("Completed");
    expect(status.pages!.filter((p) => p.status === "ingested")).toHaveLength(3);
    expect(status.pages!.filter((p) => p.reason === "page limit reached (max_pages 3)").length).toBeGreaterThan(3);
  });

  it("reads a file URL exactly like an upload of the file, whatever the URL or header say", async () => {
    const fromUrl = await finished(
      await api.post("/ingest-url", { url: `${site.origin}/docs/report`, crawlUrls: true }),
    );
    expect(fromUrl.status).toBe("Completed");
    const upload = await api.upload("report.pdf", pdf, { method: "fast" });
    const { build_id } = (await upload.json()) as { build_id: string };
    await api.waitForBuild(build_id);
    const uploaded = await build(build_id);
    const strip = (items: Element[]) => items.map((e) => [e.element_type, e.text, e.page_number]);
    expect(strip(await elementsOf(fromUrl.file_id))).toEqual(strip(await elementsOf(uploaded.file_id)));
    const [source] = (await (await api.get(`?file_ids=${fromUrl.file_id}`)).json()) as Record<string, unknown>[];
    expect(source).toMatchObject({ file_type: "pdf", file_size: pdf.length, file_source: "url" });
    // Named .html, served as text/html, bytes of a PDF: read as the PDF it is.
    const lying = await finished(await api.post("/ingest-url", { url: `${site.origin}/docs/lying.html` }));
    expect(lying.status).toBe("Completed");
    expect((await elementsOf(lying.file_id))[0]?.text).toBe("Safety manual");
  });

  it("answers 400 at request time for what can be known then", async () => {
    await expectDetail(
      await api.post("/ingest-url", { url: `${site.origin}/docs/photo.gif` }),
      400,
      /^Unsupported file type detected from URL/,
    );
    await expectDetail(await api.post("/ingest-url", { url: "ftp://example.com/a.pdf" }), 400, /^Invalid URL$/);
    await expectDetail(await api.post("/ingest-url", { url: "not a url" }), 400, /^Invalid URL$/);
    await expectDetail(await api.post("/ingest-url", {}), 400, /^Invalid input: url is required$/);
    await expectDetail(
      await api.post("/ingest-url", { url: `${site.origin}/docs/`, method: "vlm" }),
      400,
      /^Invalid method 'vlm'/,
    );
    await expectDetail(
      await api.post("/ingest-url", { url: `${site.origin}/docs/`, max_pages: 0 }),
      400,
      /^max_pages must be between 1 and 500$/,
    );
    await expectDetail(
      await api.post("/ingest-url", { url: `${site.origin}/docs/private-redirect` }),
      400,
      /redirects to http:\/\/10\.0\.0\.7\/admin, and 10\.0\.0\.7 is a private address; only public addresses are fetched$/,
    );
    // Loopback stays refused: only the stand-ins' host:port are allowed, not the app itself nor another port.
    const other = await freePort();
    await expectDetail(
      await api.post("/ingest-url", { url: `http://127.0.0.1:${other}/` }),
      400,
      /127\.0\.0\.1 is a loopback address/,
    );
    await expectDetail(await api.post("/ingest-url", { url: `${quarry.url}/api/health` }), 400, /loopback address/);
    await expectDetail(
      await api.post("/ingest-url", { url: "http://169.254.169.254/latest/meta-data/" }),
      400,
      /link-local/,
    );
  });

  it("fails a build that reads nothing, saying why, and stores no content", async () => {
    const shell = await finished(await api.post("/ingest-url", { url: `${site.origin}/docs/app.html` }));
    expect(shell).toMatchObject({ status: "Processing failed" });
    expect(shell.error).toMatch(
      /^Nothing could be read from .*\/docs\/app\.html: the page was skipped: JavaScript-only page/,
    );
    expect(await elementsOf(shell.file_id)).toEqual([]);
    const challenge = await finished(await api.post("/ingest-url", { url: `${site.origin}/shop/`, crawlUrls: true }));
    expect(challenge.error).toBe(
      `Nothing could be read from ${site.origin}/shop/: the page was skipped: bot-challenge page (Cloudflare), HTTP 503 Service Unavailable`,
    );
    expect(challenge.pages).toEqual([expect.objectContaining({ reason_code: "challenge" })]);
    // The request's look found a page; the build's fetch was redirected to cloud metadata and refused.
    const turncoat = await finished(await api.post("/ingest-url", { url: `${site.origin}/docs/turncoat.html` }));
    expect(turncoat.error).toMatch(
      /redirects to http:\/\/169\.254\.169\.254\/latest\/meta-data\/, and 169\.254\.169\.254 is a link-local address/,
    );
  });

  it("reprocess re-parses the stored snapshot; refresh fetches again", async () => {
    const first = await finished(await api.post("/ingest-url", { url: `${site.origin}/docs/guide.html` }));
    expect(first.status).toBe("Completed");
    const before = site.requests.length;
    const again = await finished(await api.post("/reprocess", { file_id: first.file_id, method: "balanced" }));
    expect(again.status).toBe("Completed");
    expect(site.requests.length).toBe(before);
    const refreshed = await finished(await api.post("/reprocess", { file_id: first.file_id, refresh: true }));
    expect(refreshed.status).toBe("Completed");
    expect(site.requests.slice(before)).toEqual(["/docs/guide.html"]);
    expect((await elementsOf(first.file_id))[0]).toMatchObject({ element_type: "Title", text: "Cutting guide" });
    const upload = await api.upload("notes.txt", "granite notes");
    const { build_id } = (await upload.json()) as { build_id: string };
    await api.waitForBuild(build_id);
    const uploaded = await build(build_id);
    await expectDetail(
      await api.post("/reprocess", { file_id: uploaded.file_id, refresh: true }),
      400,
      /^Only url, github and youtube sources can be fetched again/,
    );
  });

  it("legacy POST /upload-url-source answers at once with the source (the Python client's upload_url)", async () => {
    // Python client: upload_url(url=..., crawl_urls=True, partition_method=None) sends crawlUrls and a null method.
    const res = await api.post("/upload-url-source", {
      url: `${site.origin}/docs/guide.html`,
      crawlUrls: false,
      partition_method: null,
    });
    expect(res.status).toBe(200);
    const source = (await res.json()) as Record<string, unknown>;
    expect(source).toMatchObject({
      file_name: `${site.origin}/docs/guide.html`,
      file_source: "url",
      file_size: 0,
      status: "Processing",
      message: "Source is being processed",
      partition_method: "basic",
      error: null,
    });
    await expectDetail(
      await api.post("/upload-url-source", { url: `${site.origin}/docs/`, partition_method: "turbo" }),
      400,
      /^Invalid partition_method 'turbo'/,
    );
  });

  it("legacy POST /upload-url-source of a page that fails: the source record says why", async () => {
    const res = await api.post("/upload-url-source", { url: `${site.origin}/docs/missing.html` });
    const { file_id } = (await res.json()) as { file_id: string };
    let source: Record<string, unknown> = {};
    for (let i = 0; i < 300 && !["Failed", "Completed"].includes(source.status as string); i++) {
      await new Promise((r) => setTimeout(r, 200));
      source = ((await (await api.get(`?file_ids=${file_id}`)).json()) as Record<string, unknown>[])[0]!;
    }
    expect(source).toMatchObject({
      status: "Failed",
      message: "Source processing failed",
      error: expect.stringMatching(/HTTP 404/),
    });
  });
});

describe("POST /ingest-github", () => {
  it("ingests a public repository from one tarball, every element carrying its path", async () => {
    const status = await finished(await api.post("/ingest-github", { url: "https://github.com/quarry-co/tools" }));
    expect(status.status, status.error ?? "").toBe("Completed");
    expect(status.acquired).toMatchObject({ repository: "quarry-co/tools", commit: "abc1234", files: 2 });
    const elements = await elementsOf(status.file_id);
    expect(new Set(elements.map((e) => e.metadata.path))).toEqual(new Set(["README.md", "src/blast.ts"]));
    expect(elements.find((e) => e.element_type === "CodeSnippet")).toMatchObject({
      metadata: { language: "typescript", path: "src/blast.ts" },
    });
    const [source] = (await (await api.get(`?file_ids=${status.file_id}`)).json()) as Record<string, unknown>[];
    expect(source).toMatchObject({
      file_name: "https://github.com/quarry-co/tools",
      file_source: "github",
      file_type: "",
    });
    await expectDetail(
      await api.post("/ingest-github", { url: "https://gitlab.com/a/b" }),
      400,
      /^Invalid GitHub repository URL$/,
    );
  });

  it("legacy POST /upload-github-source waits and answers with the failed source and GitHub's reason in the build", async () => {
    const res = await api.post("/upload-github-source", { url: "https://github.com/quarry-co/missing" });
    expect(res.status).toBe(200);
    const source = (await res.json()) as { file_id: string; status: string; file_source: string };
    expect(source).toMatchObject({
      status: "Failed",
      file_source: "github",
      message: "Source processing failed",
      error: expect.stringMatching(/^GitHub could not find the repository quarry-co\/missing/),
    });
  });
});

describe("POST /ingest-youtube", () => {
  it("stores the captions with timestamps, title and channel", async () => {
    const status = await finished(
      await api.post("/ingest-youtube", { url: "https://www.youtube.com/watch?v=GraniteCut1" }),
    );
    expect(status.status, status.error ?? "").toBe("Completed");
    expect(status.acquired).toMatchObject({
      title: "How a granite block is cut",
      channel: "Stone Channel",
      language: "en",
    });
    const elements = await elementsOf(status.file_id);
    expect(elements[0]).toMatchObject({ element_type: "Title", text: "How a granite block is cut" });
    const transcript = elements.filter((e) => e.element_type === "NarrativeText");
    expect(transcript[0]?.text).toMatch(/^Welcome back to the quarry\. Today we cut a granite block/);
    expect(transcript[0]?.metadata).toMatchObject({
      start: 0.5,
      start_time: "00:00:00.500",
      video_title: "How a granite block is cut",
      channel: "Stone Channel",
      video_id: "GraniteCut1",
    });
    await expectDetail(await api.post("/ingest-youtube", { url: "https://vimeo.com/1" }), 400, /^Invalid YouTube URL$/);
  });

  it("never stores an empty transcript: a video without captions fails with the way out", async () => {
    const status = await finished(await api.post("/ingest-youtube", { url: "https://youtu.be/NoCaption01" }));
    expect(status.status).toBe("Processing failed");
    expect(status.error).toMatch(/^The video has no captions .* upload its captions as a \.vtt or \.srt file$/);
    expect(await elementsOf(status.file_id)).toEqual([]);
    // Legacy synchronous form.
    const res = await api.post("/upload-youtube-source", { url: "https://www.youtube.com/shorts/AndroidOnl1" });
    expect(await res.json()).toMatchObject({ status: "Completed", error: null });
    const failed = await api.post("/upload-youtube-source", { url: "https://www.youtube.com/watch?v=PrivateVid1" });
    expect(await failed.json()).toMatchObject({
      status: "Failed",
      message: "Source processing failed",
      error: expect.stringMatching(/This video is private/),
    });
  });
});

describe("a crash after acquiring", () => {
  it("resumes with the stored file and never fetches it again", { timeout: 300_000 }, async () => {
    const res = await api.post("/ingest-url", { url: `${site.origin}/docs/big.pdf`, method: "fast" });
    const { build_id } = (await res.json()) as { build_id: string };
    // The request's look and the acquire step: two requests. Kill while the stored file is being parsed.
    for (let i = 0; i < 600; i++) {
      const { step } = await build(build_id);
      if (step === "partition") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await build(build_id)).step).toBe("partition");
    await quarry.kill("SIGKILL");
    await quarry.restart();
    const done = await api.waitForBuild(build_id, 180_000);
    expect(done, quarry.output()).toMatchObject({ status: "Completed", error: null });
    expect(site.requests.filter((p) => p === "/docs/big.pdf")).toHaveLength(2);
    expect((await build(build_id)).total_pages).toBe(60);
  });
});
