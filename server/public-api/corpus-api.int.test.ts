import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/** Real documents from the shared corpus through the public API (runs whenever ../shared is there). */

const CORPUS = path.resolve(import.meta.dirname, "../../../shared/corpus");

describe.runIf(existsSync(CORPUS))("corpus documents through the API", () => {
  let quarry: QuarryProcess;
  let api: ReturnType<typeof apiClient>;
  beforeAll(async () => {
    quarry = await startQuarry();
    api = apiClient(quarry);
  });
  afterAll(async () => quarry?.dispose());

  it("ingests the 13-page two-column paper and retrieves its passages", async () => {
    const res = await api.upload(
      "dpr-paper-multi-column-13p.pdf",
      readFileSync(path.join(CORPUS, "dpr-paper-multi-column-13p.pdf")),
    );
    const { build_id } = (await res.json()) as { build_id: string };
    const build = await api.waitForBuild(build_id);
    expect(build).toMatchObject({ status: "Completed", error: null });
    const status = await (await api.get(`/builds/${build_id}?suppress_elements=true`)).json();
    expect(status.total_pages).toBe(13);
    expect(status.total_partitions).toBeGreaterThan(100);

    const first = await (await api.get(`/get-elements?file_id=${status.file_id}&page_numbers=1`)).json();
    const text = first.items.map((e: { text: string }) => e.text).join("\n");
    expect(text).toMatch(/Dense Passage Retrieval for Open-Domain Question Answering/);
    expect(text.indexOf("Abstract")).toBeLessThan(text.indexOf("Introduction"));

    let seen = 0;
    for (let page = 1; ; page++) {
      const body = await (await api.get(`/get-elements?file_id=${status.file_id}&page=${page}&page_size=100`)).json();
      seen += body.items.length;
      if (page >= body.total_pages) break;
    }
    expect(seen).toBe(status.total_partitions);

    const rag = await (
      await api.post("/prebuilt-rag", { query: "How does the dual encoder score passages for a question?" })
    ).json();
    expect(rag.total).toBeGreaterThan(0);
    expect(rag.chunks.every((c: { score: number }) => c.score >= 0 && c.score <= 1)).toBe(true);
    expect(rag.chunks.map((c: { text: string }) => c.text).join(" ")).toMatch(/encoder/i);

    const del = await api.del({ file_id: status.file_id });
    expect(del.status).toBe(200);
    expect((await api.get(`/get-elements?file_id=${status.file_id}`)).status).toBe(404);
  });

  it("reports a scanned PDF's missing text layer under fast instead of inventing text; auto reads it", async () => {
    const scan = readFileSync(path.join(CORPUS, "loremipsum-flat-image-only.pdf"));
    const fast = await api.upload("scan.pdf", scan, { method: "fast" });
    const fastBuild = ((await fast.json()) as { build_id: string }).build_id;
    expect(await api.waitForBuild(fastBuild)).toMatchObject({
      status: "Processing failed",
      error: expect.stringMatching(/^No text could be read from this \.pdf file: Page 1 has no text layer/),
    });
    const res = await api.upload("scan.pdf", scan, { method: "auto" });
    const { build_id } = (await res.json()) as { build_id: string };
    expect(await api.waitForBuild(build_id)).toMatchObject({ status: "Completed" });
    const status = await (await api.get(`/builds/${build_id}`)).json();
    expect(status.page_methods).toEqual({ 1: "balanced" });
    expect(status.elements.map((e: { text: string }) => e.text).join(" ")).toMatch(/lorem ipsum/i);
  });
});
