import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ModelCallReport } from "@/server/providers/usage-types";
import { createVisionModel } from "@/server/providers/vision/client";
import { textDoc } from "@/server/testing/fixtures";
import {
  busyParseWorkers,
  closeWorkerPools,
  officePdfIsolated,
  pageImageIsolated,
  parseWorkerPids,
  partitionIsolated,
} from "./isolated";
import { buildDocx, wPara } from "./office/test-fixtures";
import { findTool } from "./system-tools";
import { stallingPdf } from "./test-stall";
import { drawScannedPage, mixedPdfAnswer, startFakeVisionServer } from "./vision/test-fixtures";

afterAll(() => closeWorkerPools());

const text = new TextEncoder().encode("Quarterly report\n\nRevenue grew in every region this quarter.\n");
const txt = (bytes: Uint8Array) => ({ bytes, fileName: "r.txt", fileType: "txt", method: "basic" as const });
const bigText = (mb: number) => new TextEncoder().encode(textDoc(Math.round((mb * 1024 * 1024) / 230), "granite"));
// One warm worker, so which process parses what is predictable.
const limits = { timeoutMs: 120_000, maxRssMb: 3072, pageTimeoutMs: 60_000, workers: 1 };
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("partitionIsolated", () => {
  it("parses in a worker process and returns the elements", async () => {
    const result = await partitionIsolated(txt(text), limits);
    expect(result.elements.map((e) => e.text).join(" ")).toContain("Revenue grew");
  });

  it("keeps the worker warm for the next document, and replaces it after a document fails", async () => {
    await partitionIsolated(txt(text), limits);
    const [warm] = parseWorkerPids();
    await partitionIsolated(txt(text), limits);
    expect(parseWorkerPids()).toEqual([warm]);

    const bad = new TextEncoder().encode("%PDF-1.7 this is not really a pdf");
    await expect(
      partitionIsolated({ bytes: bad, fileName: "x.pdf", fileType: "pdf", method: "basic" }, limits),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE", message: expect.stringContaining("not a readable PDF") });
    await expect.poll(() => alive(warm!)).toBe(false);
    const result = await partitionIsolated(txt(text), limits);
    expect(result.elements).toHaveLength(2);
    expect(parseWorkerPids()).not.toContain(warm);
  });

  it("parses a document again in a fresh worker when a reused one dies under it", async () => {
    await partitionIsolated(txt(text), limits);
    await expect.poll(() => parseWorkerPids()).toHaveLength(1);
    const [warm] = parseWorkerPids();
    let finished = false;
    const parsing = partitionIsolated(txt(bigText(8)), limits).finally(() => (finished = true));
    // Killed while it works on the big document (as a leak left by an earlier document could have it killed).
    await new Promise((r) => setTimeout(r, 150));
    process.kill(warm!, "SIGKILL");
    expect(finished).toBe(false);
    const result = await parsing;
    expect(result.elements.length).toBeGreaterThan(30_000);
    expect(parseWorkerPids()).not.toContain(warm);
  });

  it("stops a document that outlives its time limit", async () => {
    await expect(
      partitionIsolated(txt(bigText(8)), { ...limits, timeoutMs: 50, timeoutSetting: "QUARRY_PARSE_TIMEOUT_S" }),
    ).rejects.toMatchObject({
      // A parser that names no step is reading the file.
      message: "Parsing ran out of time after 0 s (QUARRY_PARSE_TIMEOUT_S) while reading the .txt file",
    });
  });

  it("stops a document that outgrows its memory limit", async () => {
    await expect(partitionIsolated(txt(bigText(8)), { ...limits, maxRssMb: 60 })).rejects.toMatchObject({
      message: expect.stringContaining("memory"),
    });
  });

  it("ends a document that finished over its memory limit between two memory polls", async () => {
    // A short text parses in milliseconds, before the first memory poll: the limit is checked on the outcome, and the
    // worker's "idle" arrives with it. The idle used to release the worker first, so the stop that followed reached
    // no job: the document never ended.
    await expect(partitionIsolated(txt(text), { ...limits, maxRssMb: 64 })).rejects.toMatchObject({
      message: expect.stringContaining("more than 64 MB of memory"),
    });
  }, 30_000);

  it("stops a LibreOffice conversion at the time limit, says so, and leaves no LibreOffice behind", async () => {
    // A stand-in for soffice that never ends: its child (soffice.bin, for LibreOffice) runs in the process group
    // LibreOffice gets, which used to outlive the worker killed at the limit.
    const dir = mkdtempSync(path.join(tmpdir(), "quarry-fake-soffice-"));
    const pidFile = path.join(dir, "pid");
    const fake = path.join(dir, "soffice");
    writeFileSync(fake, `#!/bin/sh\nsleep 600 &\necho $! > ${pidFile}\nwait\n`);
    chmodSync(fake, 0o755);
    const saved = process.env.QUARRY_SOFFICE_PATH;
    process.env.QUARRY_SOFFICE_PATH = fake;
    try {
      const doc = { bytes: new Uint8Array(4096), fileName: "d.doc", fileType: "doc", method: "basic" as const };
      // Another heap cap: a pool of its own, whose worker starts with the stand-in on its path. The limit leaves a
      // loaded machine time to load the Office parsers (seconds) before the conversion starts.
      const tight = { ...limits, maxRssMb: 1500, timeoutMs: 15_000, timeoutSetting: "QUARRY_PARSE_TIMEOUT_S" };
      await expect(partitionIsolated(doc, tight)).rejects.toMatchObject({
        message: "Parsing ran out of time after 15 s (QUARRY_PARSE_TIMEOUT_S) while converting with LibreOffice",
      });
      const pid = Number(readFileSync(pidFile, "utf8"));
      await expect.poll(() => alive(pid), { timeout: 5000 }).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.QUARRY_SOFFICE_PATH;
      else process.env.QUARRY_SOFFICE_PATH = saved;
    }
  }, 45_000);

  it("parses short documents one after another on one worker, and a document waiting beside a long one on another", async () => {
    closeWorkerPools();
    // Short documents at once: one worker takes them in turn (two parses at once double each one's CPU time). The
    // wait for a busy worker is made long here, so a loaded machine's slow short parse does not start a second one.
    const patient = { ...limits, workers: 2, shareAfterMs: 60_000 };
    // A started worker first: a worker's start (a second or more on a busy machine) is not a short parse to wait for.
    await partitionIsolated(txt(text), patient);
    await Promise.all([1, 2, 3].map(() => partitionIsolated(txt(text), patient)));
    expect(parseWorkerPids()).toHaveLength(1);
    closeWorkerPools();
    // A long parse (a PDF page of 400,000 text objects, seconds) does not hold a short one back: the short one goes
    // to a second worker after the default wait and ends first (a short text is milliseconds of work).
    const two = { ...limits, workers: 2 };
    const parse = () => partitionIsolated(txt(text), two);
    await parse();
    // Idle (a worker stays busy a moment after its result, while it reports its memory), then the long parse.
    await expect.poll(busyParseWorkers, { timeout: 30_000 }).toBe(0);
    let longDone = false;
    const long = partitionIsolated(
      { bytes: await stallingPdf(), fileName: "s.pdf", fileType: "pdf", method: "basic" },
      two,
    ).finally(() => (longDone = true));
    // On its worker before the short one is sent: its bytes go through a file first, and the short one could overtake.
    await expect.poll(busyParseWorkers, { timeout: 30_000 }).toBe(1);
    await parse();
    expect(longDone).toBe(false);
    expect(parseWorkerPids()).toHaveLength(2);
    await long;
    closeWorkerPools();
  }, 60_000);

  it("skips a PDF page that runs past the per-page budget and reads the rest", async () => {
    const result = await partitionIsolated(
      { bytes: await stallingPdf(), fileName: "s.pdf", fileType: "pdf", method: "basic" },
      { ...limits, pageTimeoutMs: 1500 },
    );
    expect(result.elements.map((e) => e.text)).toEqual(["Granite survives the winter"]);
    expect(result.warnings).toContain("Page 1 was skipped: reading it took longer than 2 s");
  });
});

describe("models in the worker", () => {
  const scan = {
    bytes: drawScannedPage(400, 500),
    fileName: "scan.png",
    fileType: "png",
    method: "graphorlm" as const,
  };
  const visionAt = (baseUrl: string) => createVisionModel({ baseUrl, apiKey: "sk-in-job", model: "fake-vision" });

  it("reach the worker as plain configs and are called from there; without one, agentic is refused", async () => {
    const server = await startFakeVisionServer(() => ({ status: 200, content: mixedPdfAnswer(3) }));
    try {
      const vision = visionAt(server.baseUrl);
      const result = await partitionIsolated(scan, limits, { providers: { vision } });
      expect(result.pageMethods).toEqual({ 1: "agentic" });
      expect(result.elements[0]?.metadata).toMatchObject({ method: "agentic" });
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]).toMatchObject({ model: "fake-vision", authorization: "Bearer sk-in-job" });
      await expect(partitionIsolated(scan, limits)).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringContaining("VISION_MODEL"),
      });
    } finally {
      await server.close();
    }
  });

  it("report each call to the app (the worker has no database), which records it under its own context", async () => {
    const server = await startFakeVisionServer(() => ({ status: 200, content: mixedPdfAnswer(3) }));
    try {
      const calls: ModelCallReport[] = [];
      await partitionIsolated(scan, limits, {
        providers: { vision: visionAt(server.baseUrl) },
        onModelCall: (c) => calls.push(c),
      });
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ capability: "vision", model: "fake-vision", ok: true });
      expect(calls[0]!.tokensIn).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it("a model's 429 fails the document as worth retrying, a 400 as final", async () => {
    let status = 429;
    const server = await startFakeVisionServer(() => ({ status, error: "Rate limit reached for requests" }));
    try {
      const vision = visionAt(server.baseUrl);
      await expect(partitionIsolated(scan, limits, { providers: { vision } })).rejects.toMatchObject({
        code: "UNPROCESSABLE",
        retryable: true,
        message: expect.stringContaining("429"),
      });
      status = 400;
      await expect(partitionIsolated(scan, limits, { providers: { vision } })).rejects.toMatchObject({
        code: "UNPROCESSABLE",
        retryable: false,
      });
    } finally {
      await server.close();
    }
  });
});

describe("the worker's environment", () => {
  it("holds none of the app's secrets", async () => {
    const saved = { LLM_API_KEY: process.env.LLM_API_KEY, DATABASE_URL: process.env.DATABASE_URL };
    process.env.LLM_API_KEY = "sk-must-not-reach-the-worker";
    process.env.DATABASE_URL = "postgres://quarry:must-not-reach@127.0.0.1:5432/quarry";
    try {
      closeWorkerPools();
      await partitionIsolated(txt(new TextEncoder().encode("Secrets stay in the app.")), limits);
      const pids = parseWorkerPids();
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) {
        const environ = readFileSync(`/proc/${pid}/environ`, "utf8");
        expect(environ).toContain("PATH=");
        expect(environ).not.toContain("must-not-reach");
      }
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

describe("pageImageIsolated", () => {
  it("draws a PDF page in a worker process at the width asked for", async () => {
    const { PDFDocument } = await import("pdf-lib");
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]).drawText("Granite", { x: 72, y: 700, size: 24 });
    const bytes = await doc.save();
    const page = await pageImageIsolated({ bytes, fileType: "pdf", pageNumber: 1, width: 400 });
    expect(page.width).toBe(400);
    expect(page.height).toBe(Math.ceil((792 * 400) / 612 - 1e-6));
    expect(page.png.subarray(1, 4).toString()).toBe("PNG");
    await expect(pageImageIsolated({ bytes, fileType: "pdf", pageNumber: 2, width: 400 })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Page 2 is out of range",
    });
  });
});

describe.runIf(await findTool("soffice"))("officePdfIsolated", () => {
  it("makes the PDF of an Office file in a worker process, and refuses a damaged package there", async () => {
    const docx = await buildDocx({ body: wPara("Granite survives the winter.") });
    const pdf = await officePdfIsolated({ bytes: docx, fileType: "docx" });
    expect(Buffer.from(pdf.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    await expect(
      officePdfIsolated({ bytes: new TextEncoder().encode("not a zip"), fileType: "docx" }),
    ).rejects.toMatchObject({ code: "UNPROCESSABLE", message: expect.stringContaining("not a valid Office document") });
  }, 120_000);
});
