import { describe, expect, it } from "vitest";
import { enginePolicy, readChosen, repairDigits, sureShare } from "./engine-choice";
import type { OcrPage } from "./types";

/** A one-line page of the given words and confidences. */
const page = (words: [string, number][]): OcrPage => {
  const ws = words.map(([text, confidence], i) => ({
    text,
    confidence,
    left: i * 50,
    right: i * 50 + 40,
    top: 0,
    bottom: 20,
  }));
  const text = ws.map((w) => w.text).join(" ");
  const box = { left: 0, top: 0, right: ws.length * 50, bottom: 20 };
  const line = { ...box, text, confidence: 90, words: ws, rowHeight: 20 };
  return {
    width: 500,
    height: 100,
    text,
    confidence: 90,
    blocks: ws.length
      ? [{ ...box, text, confidence: 90, paragraphs: [{ ...box, text, confidence: 90, lines: [line] }] }]
      : [],
  };
};

const reader = (pages: { tesseract: OcrPage; ppocr: OcrPage | Error }) => {
  const calls: string[] = [];
  return {
    calls,
    read: {
      tesseract: async () => (calls.push("tesseract"), structuredClone(pages.tesseract)),
      ppocr: async () => {
        calls.push("ppocr");
        if (pages.ppocr instanceof Error) throw pages.ppocr;
        return structuredClone(pages.ppocr);
      },
    },
  };
};

describe("engine choice", () => {
  it("keeps a sure Tesseract reading without running PP-OCR, digits repaired", async () => {
    const r = reader({
      tesseract: page([
        ["Total", 95],
        ["1,2O4.50", 91],
      ]),
      ppocr: page([["Tota1", 60]]),
    });
    const chosen = await readChosen(r.read, "auto");
    expect(chosen.engine).toBe("tesseract");
    expect(r.calls).toEqual(["tesseract"]);
    expect(chosen.page.text).toBe("Total 1,204.50");
    expect(chosen.page.blocks[0]?.paragraphs[0]?.lines[0]?.text).toBe("Total 1,204.50");
  });

  it("reads an unsure page with PP-OCR too and keeps the surer reading", async () => {
    const r = reader({
      tesseract: page([
        ["Tctal", 60],
        ["l2", 50],
      ]),
      ppocr: page([
        ["Total", 99],
        ["12", 97],
      ]),
    });
    const chosen = await readChosen(r.read, "auto");
    expect(r.calls).toEqual(["tesseract", "ppocr"]);
    expect(chosen).toMatchObject({ engine: "ppocr", page: { text: "Total 12" } });
    const worse = reader({ tesseract: page([["Total", 70]]), ppocr: page([["T", 60]]) });
    expect((await readChosen(worse.read, "auto")).engine).toBe("tesseract");
  });

  it("keeps Tesseract's reading when PP-OCR's surer reading misses text", async () => {
    // A ruled table page: PP-OCR read its cells surely but skipped some that Tesseract read.
    const cells: [string, number][] = ["821-11/2013-DS", "25-02-2014", "9742744811", "Hyderabad-500004"].map((t) => [
      t,
      70,
    ]);
    const missing = reader({ tesseract: page(cells), ppocr: page(cells.slice(1).map(([t]) => [t, 99])) });
    expect((await readChosen(missing.read, "auto")).engine).toBe("tesseract");
    const whole = reader({ tesseract: page(cells), ppocr: page(cells.map(([t]) => [t, 99])) });
    expect((await readChosen(whole.read, "auto")).engine).toBe("ppocr");
  });

  it("keeps Tesseract's reading when PP-OCR cannot run, unless both are asked for", async () => {
    const r = reader({ ppocr: new Error("no models"), tesseract: page([["Total", 60]]) });
    expect((await readChosen(r.read, "auto")).engine).toBe("tesseract");
    await expect(readChosen(r.read, "both")).rejects.toThrow("no models");
  });

  it("pins one engine when told, and reads the policy from its setting", async () => {
    const r = reader({ ppocr: page([["a", 99]]), tesseract: page([["b", 95]]) });
    expect((await readChosen(r.read, "tesseract")).page.text).toBe("b");
    expect(r.calls).toEqual(["tesseract"]);
    expect(enginePolicy("ppocr")).toBe("ppocr");
    expect(enginePolicy("auto")).toBe("auto");
    expect(enginePolicy("nonsense")).toBe("tesseract");
    expect(enginePolicy(undefined)).toBe("tesseract");
  });

  it("measures sure text on each engine's own scale", () => {
    const p = page([
      ["abcd", 85],
      ["ef", 95],
    ]);
    expect(sureShare(p, "tesseract")).toBe(1);
    expect(sureShare(p, "ppocr")).toBeCloseTo(2 / 6);
    expect(sureShare(page([]), "ppocr")).toBe(0);
    expect(repairDigits(page([["2O21", 90]])).text).toBe("2021");
  });

  it("joins the words of a number split by OCR into one word spanning their boxes", () => {
    const repaired = repairDigits(
      page([
        ["pp.", 95],
        ["1021-", 90],
        ["1O33", 70],
      ]),
    );
    const words = repaired.blocks[0]?.paragraphs[0]?.lines[0]?.words;
    expect(repaired.text).toBe("pp. 1021-1033");
    expect(words?.map((w) => [w.text, w.left, w.right, w.confidence])).toEqual([
      ["pp.", 0, 40, 95],
      ["1021-1033", 50, 140, 70],
    ]);
  });
});
