import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pdfDoc, textDoc } from "../testing/fixtures";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";
import { startFakeChatServer, type FakeChatServer } from "../testing/fake-chat-server";
import { LOCAL_ENRICHMENT_MODEL } from "./local-extractor";

/**
 * Enrichment and indexing over real HTTP against the running app. The chat model is a local OpenAI-compatible
 * server (LLM_PROVIDER=openai), whose JSON answers are computed from the page text it is sent; making it fail
 * shows the local extractor standing in.
 */

type Element = {
  element_id: string;
  page_number: number | null;
  text: string;
  page_annotation: string | null;
  page_keywords: string[] | null;
  page_topics: string[] | null;
  metadata: Record<string, unknown>;
};
type Build = {
  status: string;
  document_annotation: string | null;
  enrichment_model: string | null;
  warnings: string[];
  elements: Element[];
  file_id: string;
};

let quarry: QuarryProcess;
let chat: FakeChatServer;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  chat = await startFakeChatServer();
  quarry = await startQuarry({
    env: { LLM_PROVIDER: "openai", LLM_BASE_URL: chat.baseUrl, LLM_MODEL: "fake-gpt-mini", LLM_API_KEY: "sk-test" },
  });
  api = apiClient(quarry);
});
afterAll(async () => {
  await quarry?.dispose();
  await chat?.close();
});
beforeEach(() => {
  chat.requests.length = 0;
  chat.failWith(null);
});

const ingest = async (fileName: string, content: Buffer | string, fields: Record<string, string> = {}) => {
  const res = await api.upload(fileName, content, fields);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { build_id: string }).build_id;
};

const finished = async (buildId: string): Promise<Build> => {
  await api.waitForBuild(buildId);
  return (await (await api.get(`/builds/${buildId}`)).json()) as Build;
};

const rag = async (query: string, fileId: string) =>
  (await (await api.post("/prebuilt-rag", { query, file_ids: [fileId] })).json()) as {
    chunks: { file_id: string; text: string }[];
    total: number;
    message?: string;
  };

const postIndex = async (body: unknown) => {
  const res = await api.post("/index", body);
  return { status: res.status, body: (await res.json()) as { build_id?: string; detail?: string } };
};

describe("enrichment", () => {
  it("enrichment=full with a model: per-page annotations from that page's text, and a document summary", async () => {
    const build = await finished(await ingest("report.pdf", await pdfDoc({ pages: 3 })));
    expect(build.status).toBe("Completed");
    expect(build.enrichment_model).toBe("fake-gpt-mini");
    expect(build.document_annotation).toMatch(/^Overall: This page is about \w+\./);
    // One call per page and one for the document, all in JSON mode.
    expect(chat.requests).toHaveLength(4);
    expect(chat.requests.every((r) => r.response_format?.type === "json_object")).toBe(true);

    for (const page of [1, 2, 3]) {
      const onPage = build.elements.filter((e) => e.page_number === page);
      expect(onPage.length).toBeGreaterThan(0);
      for (const e of onPage) {
        expect(e.page_annotation).toContain(
          `It begins: ${page === 1 ? "Sandstone Report" : `Page ${page} paragraph 1`}`,
        );
        expect(e.page_keywords).toEqual(expect.arrayContaining(["sandstone", "quarry"]));
        expect(e.page_topics?.length).toBeGreaterThan(0);
        expect(e.metadata.enrichment_model).toBe("fake-gpt-mini");
      }
    }
  });

  it("falls back to the local extractor when the model fails, with a warning, and the build still completes", async () => {
    chat.failWith(() => 503);
    const build = await finished(await ingest("notes.txt", textDoc(4, "marble")));
    expect(build.status).toBe("Completed");
    expect(build.enrichment_model).toBe(LOCAL_ENRICHMENT_MODEL);
    expect(build.warnings.join(" ")).toMatch(/Enrichment used the local extractor for 1 of 1 parts: .*HTTP 503/);
    expect(build.document_annotation).toMatch(/marble/i);
    const first = build.elements[0]!;
    expect(first.page_keywords).toContain("marble");
    expect(first.page_annotation).toMatch(/marble/i);
    expect(first.metadata.enrichment_model).toBe(LOCAL_ENRICHMENT_MODEL);
  });

  it("enrichment=none leaves every enrichment field null and asks no model", async () => {
    const build = await finished(await ingest("plain.txt", textDoc(3, "slate"), { enrichment: "none" }));
    expect(build.status).toBe("Completed");
    expect(build).toMatchObject({ document_annotation: null, enrichment_model: null });
    for (const e of build.elements) {
      expect(e).toMatchObject({ page_annotation: null, page_keywords: null, page_topics: null });
      expect(e.metadata.enrichment_model).toBeUndefined();
    }
    expect(chat.requests).toHaveLength(0);
  });
});

describe("indexing", () => {
  it("indexing=none: parsed and enriched but not searchable; POST /index makes it searchable without parsing again", async () => {
    const parentId = await ingest("basalt.txt", textDoc(5, "basalt"), { indexing: "none" });
    const parent = await finished(parentId);
    expect(parent.status).toBe("Completed");
    expect(parent.elements.length).toBeGreaterThan(0);
    expect(await rag("basalt", parent.file_id)).toMatchObject({
      chunks: [],
      total: 0,
      message: "No indexed sources in scope; run POST /index or reprocess with indexing=full",
    });

    chat.requests.length = 0;
    const indexed = await postIndex({ build_id: parentId });
    expect(indexed.status).toBe(200);
    expect(indexed.body).toEqual({ build_id: expect.any(String), success: true, error: null });
    const childId = indexed.body.build_id!;
    expect(childId).not.toBe(parentId);
    const child = await finished(childId);
    expect(child.status).toBe("Completed");
    expect(child.file_id).toBe(parent.file_id);
    // Same elements (ids, text, enrichment), no new model calls: nothing was parsed or enriched again.
    expect(child.elements.map((e) => [e.element_id, e.text, e.page_annotation])).toEqual(
      parent.elements.map((e) => [e.element_id, e.text, e.page_annotation]),
    );
    expect(child.document_annotation).toBe(parent.document_annotation);
    expect(chat.requests).toHaveLength(0);

    const found = await rag("basalt", parent.file_id);
    expect(found.total).toBeGreaterThan(0);
    expect(found.chunks[0]?.text).toMatch(/basalt/);
    const elements = await (await api.get(`/get-elements?file_id=${parent.file_id}`)).json();
    expect(elements.total).toBe(parent.elements.length);

    for (const body of [{ build_id: parentId }, { build_id: childId }, { file_id: parent.file_id }]) {
      expect(await postIndex(body)).toEqual({ status: 409, body: { detail: "Build is already indexed" } });
    }
  });

  it("reprocess with indexing=none drops the source's chunks until it is indexed again", async () => {
    const first = await finished(await ingest("gneiss.txt", textDoc(4, "gneiss")));
    expect((await rag("gneiss", first.file_id)).total).toBeGreaterThan(0);

    const res = await api.post("/reprocess", { file_id: first.file_id, indexing: "none", enrichment: "none" });
    expect(res.status).toBe(200);
    const again = await finished(((await res.json()) as { build_id: string }).build_id);
    expect(again.status).toBe("Completed");
    expect(await rag("gneiss", first.file_id)).toMatchObject({
      total: 0,
      message: expect.stringMatching(/POST \/index/),
    });

    const indexed = await postIndex({ file_id: first.file_id });
    expect(indexed.status).toBe(200);
    expect((await finished(indexed.body.build_id!)).status).toBe("Completed");
    expect((await rag("gneiss", first.file_id)).total).toBeGreaterThan(0);
  });

  it("answers POST /index errors in the contract's words", async () => {
    const unknown = crypto.randomUUID();
    expect(await postIndex({})).toEqual({
      status: 400,
      body: { detail: "Invalid input: build_id or file_id is required" },
    });
    expect(await postIndex({ build_id: "  " })).toMatchObject({ status: 400 });
    for (const body of [{ build_id: unknown }, { build_id: "not-a-uuid" }, { file_id: unknown }]) {
      expect(await postIndex(body)).toEqual({ status: 404, body: { detail: "Build not found" } });
    }

    // A build that failed is not completed (deterministic, unlike racing a running one).
    const failedId = await ingest("broken.pdf", Buffer.from("%PDF-1.7 this is not really a pdf"), { indexing: "none" });
    expect((await api.waitForBuild(failedId)).status).toBe("Processing failed");
    expect(await postIndex({ build_id: failedId })).toEqual({
      status: 409,
      body: { detail: "Build is not completed" },
    });

    // A build still queued or running (a build takes several job steps; this call comes right after the upload).
    const runningId = await ingest("later.txt", textDoc(60, "chert"), { indexing: "none" });
    expect(await postIndex({ build_id: runningId })).toEqual({
      status: 409,
      body: { detail: "Build is not completed" },
    });
    expect((await api.waitForBuild(runningId)).status).toBe("Completed");

    // A build made with indexing=full.
    const fullId = await ingest("indexed.txt", textDoc(2, "flint"));
    await api.waitForBuild(fullId);
    expect(await postIndex({ build_id: fullId })).toEqual({
      status: 409,
      body: { detail: "Build is already indexed" },
    });
    const res = await fetch(`${api.base}/index`, {
      method: "GET",
      headers: { Authorization: `Bearer ${quarry.token}` },
    });
    expect(res.status).toBe(405);
  });
});
