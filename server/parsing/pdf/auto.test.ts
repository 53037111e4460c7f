import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createVisionModel } from "@/server/providers/vision/client";
import {
  buildMixedPdf,
  mixedPdfAnswer,
  PAGE_PIXELS_150DPI,
  SCANNED_PAGE,
  startFakeVisionServer,
  type FakeVisionServer,
  type Reply,
  type SeenRequest,
} from "../vision/test-fixtures";
import { partitionPdfAuto, planPdfPages } from "./auto";

const CORPUS = path.resolve(import.meta.dirname, "../../../../shared/corpus");
const corpusFile = (name: string) => new Uint8Array(readFileSync(path.join(CORPUS, name)));

const routesOf = (plan: Awaited<ReturnType<typeof planPdfPages>>) =>
  Object.fromEntries(plan.routes.map((r) => [r.pageNumber, r.method]));

describe("auto routing of PDF pages", () => {
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
  const fakeModel = () => createVisionModel({ baseUrl: server.baseUrl, model: "fake-vision" });

  it("text → fast, ruled table → accurate, scan → balanced or agentic", async () => {
    const plain = await planPdfPages(mixedPdf, { vision: false });
    expect(plain.totalPages).toBe(3);
    expect(plain.routes).toEqual([
      { pageNumber: 1, method: "fast", reason: "text" },
      { pageNumber: 2, method: "accurate", reason: "ruled-table" },
      { pageNumber: 3, method: "balanced", reason: "scan" },
    ]);
    expect(routesOf(await planPdfPages(mixedPdf, { vision: true }))).toEqual({
      1: "fast",
      2: "accurate",
      3: "agentic",
    });
  });

  it("runs each page through its method and merges them in page order", async () => {
    const vision = fakeModel();
    const before = server.requests.length;
    const result = await partitionPdfAuto({ bytes: mixedPdf, vision });
    // Only the scan went to the vision model.
    expect(server.requests.slice(before).map((r) => r.pageNumber)).toEqual([3]);
    expect(result.pageMethods).toEqual({ 1: "fast", 2: "accurate", 3: "agentic" });
    expect(result.totalPages).toBe(3);
    expect(result.warnings).toEqual([]);
    const pages = result.elements.map((e) => e.pageNumber);
    expect(pages).toEqual([...pages].sort());
    expect(new Set(pages)).toEqual(new Set([1, 2, 3]));
    for (const e of result.elements) {
      expect(e.metadata?.method).toBe(result.pageMethods?.[e.pageNumber ?? 0]);
    }
    expect(result.elements.find((e) => e.pageNumber === 1 && e.type === "Title")?.text).toBe(
      "Routing Pages by Content",
    );
    const table = result.elements.find((e) => e.pageNumber === 2 && e.type === "Table");
    expect(table?.html).toMatch(/<table>/);
    expect(table?.text).toMatch(/North.*1200/s);
    expect(result.elements.filter((e) => e.pageNumber === 3).map((e) => e.text)).toEqual([
      SCANNED_PAGE.title.text,
      ...SCANNED_PAGE.lines.map((l) => l.text),
    ]);
  });

  it("falls back to balanced, with a warning naming the page, when the vision model fails", async () => {
    const vision = fakeModel();
    reply = () => ({ status: 500, error: "model overloaded" });
    // The text page and the scan: the table page's OCR is covered above.
    const doc = await PDFDocument.create();
    const source = await PDFDocument.load(mixedPdf);
    for (const page of await doc.copyPages(source, [0, 2])) doc.addPage(page);
    const result = await partitionPdfAuto({ bytes: await doc.save(), vision });
    expect(result.pageMethods).toEqual({ 1: "fast", 2: "balanced" });
    expect(result.warnings).toEqual([
      "Page 2: method agentic failed (The model fake-vision failed (HTTP 500): model overloaded); read with balanced instead",
    ]);
    const scanText = result.elements
      .filter((e) => e.pageNumber === 2)
      .map((e) => e.text)
      .join(" ");
    expect(scanText).toContain("Quarterly Scan Report");
    expect(result.elements.filter((e) => e.pageNumber === 2).every((e) => e.metadata?.method === "balanced")).toBe(
      true,
    );
  });

  describe.runIf(existsSync(CORPUS))("corpus", () => {
    it("layout-parser page with Table 1 → accurate", async () => {
      const plan = await planPdfPages(corpusFile("layout-parser-paper-with-table.pdf"), { vision: false });
      expect(plan.routes).toEqual([{ pageNumber: 1, method: "accurate", reason: "text-table" }]);
    });

    it("DPR paper: pages with result tables → accurate, prose pages → fast", async () => {
      const plan = await planPdfPages(corpusFile("dpr-paper-multi-column-13p.pdf"), { vision: true });
      const routes = routesOf(plan);
      console.log("dpr routes", JSON.stringify(plan.routes.map((r) => `${r.pageNumber}:${r.method}/${r.reason}`)));
      for (const n of [4, 5, 6, 8, 12, 13]) expect(routes[n], `page ${n}`).toBe("accurate");
      for (const n of [1, 2, 7, 9, 10, 11]) expect(routes[n], `page ${n}`).toBe("fast");
      expect(Object.values(routes).filter((m) => m === "agentic" || m === "balanced")).toEqual([]);
    });

    it("image-only scan → balanced without a vision model, agentic with one", async () => {
      const bytes = corpusFile("loremipsum-flat-image-only.pdf");
      expect(routesOf(await planPdfPages(bytes, { vision: false }))).toEqual({ 1: "balanced" });

      const vision = fakeModel();
      const before = server.requests.length;
      reply = () => ({ status: 200, content: mixedPdfAnswer(3) });
      const result = await partitionPdfAuto({ bytes, vision });
      expect(result.pageMethods).toEqual({ 1: "agentic" });
      expect(server.requests.slice(before)).toHaveLength(1);
      expect(server.requests[before]?.width).toBe(PAGE_PIXELS_150DPI.width);
      expect(result.elements.every((e) => e.metadata?.method === "agentic")).toBe(true);
    });
  });
});
