import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { createVisionModel } from "@/server/providers/vision/client";
import { pageList, partitionImageAgentic, partitionPdfAgentic, readPagesWithVision } from "./agentic";
import {
  buildMixedPdf,
  drawScannedPage,
  mixedPdfAnswer,
  PAGE,
  PAGE_PIXELS_150DPI,
  SCANNED_PAGE,
  startFakeVisionServer,
  type FakeVisionServer,
  type Reply,
  type SeenRequest,
} from "../vision/test-fixtures";

describe("agentic (vision model) PDF parsing", () => {
  let server: FakeVisionServer;
  let mixedPdf: Uint8Array;
  let reply: (request: SeenRequest) => Reply = (r) => ({ status: 200, content: mixedPdfAnswer(r.pageNumber) });

  beforeAll(async () => {
    server = await startFakeVisionServer((request) => reply(request));
    mixedPdf = await buildMixedPdf();
  });
  afterAll(() => server.close());
  afterEach(() => {
    reply = (r) => ({ status: 200, content: mixedPdfAnswer(r.pageNumber) });
  });
  const fakeModel = () => createVisionModel({ baseUrl: server.baseUrl, apiKey: "sk-vision", model: "fake-vision" });

  it("refuses to run without a vision model, naming the settings", async () => {
    const error = await partitionPdfAgentic({ bytes: mixedPdf }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "BAD_REQUEST",
      message:
        "Method 'agentic' needs a vision model: set VISION_MODEL (and VISION_BASE_URL / VISION_API_KEY) to an OpenAI-compatible vision model",
    });
  });

  it("reads every page from a 150 dpi render, boxes in PDF points", async () => {
    const vision = fakeModel();
    const before = server.requests.length;
    const result = await partitionPdfAgentic({ bytes: mixedPdf, vision });
    const requests = server.requests.slice(before);
    expect(requests.map((r) => r.pageNumber).sort()).toEqual([1, 2, 3]);
    for (const r of requests) {
      expect(r).toMatchObject({
        model: "fake-vision",
        width: PAGE_PIXELS_150DPI.width,
        authorization: "Bearer sk-vision",
      });
      // 792 pt × 150/72 is 1650 up to float rounding, which the renderer rounds up.
      expect(r.height - PAGE_PIXELS_150DPI.height).toBeGreaterThanOrEqual(0);
      expect(r.height - PAGE_PIXELS_150DPI.height).toBeLessThanOrEqual(1);
    }

    expect(result.totalPages).toBe(3);
    expect(result.warnings).toEqual([]);
    expect(result.pageMethods).toEqual({ 1: "agentic", 2: "agentic", 3: "agentic" });
    expect(result.elements.map((e) => [e.pageNumber, e.type])).toEqual([
      [1, "Title"],
      [1, "NarrativeText"],
      [2, "FigureCaption"],
      [2, "Table"],
      [3, "Title"],
      [3, "NarrativeText"],
      [3, "NarrativeText"],
    ]);
    for (const e of result.elements) {
      expect(e.pageLayout).toEqual(PAGE);
      expect(e.metadata).toEqual({ method: "agentic", model: "fake-vision-2025-01-01" });
    }
    expect(result.elements[0]?.boundingBox).toEqual({ left: 72, top: 80, width: 268, height: 22 });
    const table = result.elements[3];
    expect(table?.html).toContain("<th>Region</th><th>Orders</th><th>Returns</th>");
    expect(table?.html).toContain("<td>West</td><td>1430</td><td>40</td>");
    expect(table?.text).toBe("Region Orders Returns\nNorth 1200 31\nSouth 980 22\nWest 1430 40");
    expect(table?.boundingBox).toEqual({ left: 72, top: 160, width: 450, height: 96 });
    expect(result.elements[4]?.boundingBox?.top).toBeCloseTo(0.08 * PAGE.height, 1);
  });

  it("reads only the pages asked for", async () => {
    const vision = fakeModel();
    const result = await partitionPdfAgentic({ bytes: mixedPdf, vision, pages: [3, 9] });
    expect(result.pageMethods).toEqual({ 3: "agentic" });
    expect(result.elements.every((e) => e.pageNumber === 3)).toBe(true);
    expect(result.elements[0]?.text).toBe(SCANNED_PAGE.title.text);
  });

  it("fails the parse when the model server fails, with status and model", async () => {
    const vision = fakeModel();
    reply = (r) =>
      r.pageNumber === 2
        ? { status: 500, error: "CUDA out of memory" }
        : { status: 200, content: mixedPdfAnswer(r.pageNumber) };
    const error = await partitionPdfAgentic({ bytes: mixedPdf, vision }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toBe("The model fake-vision failed (HTTP 500): CUDA out of memory");
  });

  it("reads image files with boxes in pixels", async () => {
    const vision = fakeModel();
    const before = server.requests.length;
    reply = () => ({ status: 200, content: mixedPdfAnswer(3) });
    const png = drawScannedPage(800, 1000);
    const result = await partitionImageAgentic([{ png, width: 800, height: 1000 }], { vision });
    expect(server.requests[before]).toMatchObject({ width: 800, height: 1000, pageNumber: 1 });
    expect(result.totalPages).toBe(1);
    expect(result.pageMethods).toEqual({ 1: "agentic" });
    expect(result.elements[0]).toMatchObject({
      type: "Title",
      pageNumber: 1,
      pageLayout: { width: 800, height: 1000 },
      boundingBox: { left: 80, top: 80, width: 416, height: 40 },
    });
  });

  it("reports the pages it had no time for instead of reading them", async () => {
    const before = server.requests.length;
    const png = drawScannedPage(400, 500);
    const run = await readPagesWithVision(
      createVisionModel({ baseUrl: server.baseUrl, model: "fake-vision" }),
      [1, 2, 3, 5],
      async (pageNumber) => ({ png, width: 400, height: 500, layout: { width: 400, height: 500 }, pageNumber }),
      { onFailure: "continue", timeBudgetMs: -1 },
    );
    expect(run).toMatchObject({ read: [], failed: [], skipped: [1, 2, 3, 5], elements: [] });
    expect(server.requests.length).toBe(before);
    expect(pageList(run.skipped)).toBe("1–3, 5");
  });
});
