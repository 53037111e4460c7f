import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { isOcrRunning, openWorker, recognize, resolveLangPath, setOcrIdleTimeout, shutdownOcr } from "./engine";
import { drawTextPage } from "./test-fixtures";

const LINE = "Offline recognition works";

describe("ocr engine", () => {
  afterAll(async () => {
    setOcrIdleTimeout(60_000);
    await shutdownOcr();
  });

  it("finds the installed English model, and says what is missing when it is not there", () => {
    expect(resolveLangPath()).toMatch(/@tesseract\.js-data[/\\]eng[/\\]4\.0\.0_best_int$/);
    const elsewhere = path.join(mkdtempSync(path.join(tmpdir(), "quarry-ocr-")), "package.json");
    expect(() => resolveLangPath([elsewhere])).toThrow(/@tesseract\.js-data\/eng/);
  });

  it("a model directory without the model fails cleanly instead of downloading or crashing", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "quarry-ocr-"));
    const error = await openWorker(empty).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("UNPROCESSABLE");
    expect((error as AppError).message).toMatch(/OCR engine could not start.*eng\.traineddata/);
  });

  it("reads words with pixel boxes and confidences", async () => {
    const png = drawTextPage(LINE);
    const page = await recognize(png, { width: 900, height: 300 });
    expect(page.width).toBe(900);
    const words = page.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words)));
    expect(words.map((w) => w.text).join(" ")).toBe(LINE);
    for (const w of words) {
      expect(w.confidence).toBeGreaterThan(70);
      // The line is drawn at x=60, y=120 in 36 px type.
      expect(w.left).toBeGreaterThanOrEqual(55);
      expect(w.top).toBeGreaterThan(110);
      expect(w.bottom).toBeLessThan(175);
      expect(w.right).toBeGreaterThan(w.left);
    }
    const line = page.blocks[0]?.paragraphs[0]?.lines[0];
    expect(line?.text).toBe(LINE);
  });

  it("bad image bytes fail the call, not the worker", async () => {
    const error = await recognize(Buffer.from("this is not an image at all"), { width: 1, height: 1 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("UNPROCESSABLE");
    const page = await recognize(drawTextPage("Still working"), { width: 900, height: 300 });
    expect(page.text).toContain("Still working");
  });

  it("a call past its time limit is stopped and the next call gets a fresh worker", async () => {
    const slow = recognize(drawTextPage(LINE, 2400, 1600), { width: 2400, height: 1600 }, { timeoutMs: 1 });
    await expect(slow).rejects.toThrow(/OCR took longer than/);
    const page = await recognize(drawTextPage("Fresh worker"), { width: 900, height: 300 });
    expect(page.text).toContain("Fresh worker");
  });

  it("calls made together are served one after another, each with its own result", async () => {
    const [a, b] = await Promise.all([
      recognize(drawTextPage("Alpha line"), { width: 900, height: 300 }),
      recognize(drawTextPage("Bravo line"), { width: 900, height: 300 }),
    ]);
    expect(a.text).toContain("Alpha");
    expect(b.text).toContain("Bravo");
  });

  it("an idle worker is ended", async () => {
    setOcrIdleTimeout(50);
    await recognize(drawTextPage("Idle soon"), { width: 900, height: 300 });
    expect(await isOcrRunning()).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(await isOcrRunning()).toBe(false);
  });
});
