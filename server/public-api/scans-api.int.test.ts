import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, startQuarry, type QuarryProcess } from "../testing/quarry-process";

/** Scans (an image file, an image-only PDF) through the public API: text and digits read, the engine reported. */

let quarry: QuarryProcess;
let api: ReturnType<typeof apiClient>;

const LINES = ["Shipment Ledger", "Invoice 2024-03-15 total 1,204.50 EUR", "ISBN 978-3-16-148410-0 ordered 12 copies"];

const scanPng = () => {
  GlobalFonts.registerFromPath("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "DejaVu Sans");
  const canvas = createCanvas(1240, 700);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, 1240, 700);
  ctx.fillStyle = "#000000";
  ctx.font = '44px "DejaVu Sans"';
  ctx.fillText(LINES[0] as string, 100, 120);
  ctx.font = '30px "DejaVu Sans"';
  ctx.fillText(LINES[1] as string, 100, 260);
  ctx.fillText(LINES[2] as string, 100, 330);
  return canvas.toBuffer("image/png");
};

const scanPdf = async (png: Buffer) => {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(png);
  // 150 dpi: 1240 px across is 595 pt.
  const page = doc.addPage([(image.width * 72) / 150, (image.height * 72) / 150]);
  page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  return Buffer.from(await doc.save());
};

type Build = {
  status: string;
  page_methods: Record<string, string> | null;
  elements: { text: string; metadata: Record<string, unknown> }[];
};

const read = async (fileName: string, content: Buffer, method: string): Promise<Build> => {
  const res = await api.upload(fileName, content, { method });
  expect(res.status, await res.clone().text()).toBe(200);
  const { build_id } = (await res.json()) as { build_id: string };
  expect(await api.waitForBuild(build_id, 300_000)).toMatchObject({ status: "Completed" });
  return (await (await api.get(`/builds/${build_id}`)).json()) as Build;
};

const expectReading = (build: Build) => {
  const text = build.elements.map((e) => e.text).join("\n");
  for (const line of LINES) expect(text).toContain(line);
  expect(build.elements.length).toBeGreaterThan(0);
  for (const e of build.elements) expect(e.metadata.ocr_engine).toMatch(/^(tesseract|ppocr)$/);
};

beforeAll(async () => {
  quarry = await startQuarry();
  api = apiClient(quarry);
}, 600_000);
afterAll(async () => quarry?.dispose());

describe("scans through the API", () => {
  it("reads an image under auto and balanced, reported as balanced, never fast", async () => {
    const png = scanPng();
    for (const method of ["auto", "balanced"]) {
      const build = await read(`ledger-${method}.png`, png, method);
      expect(build.page_methods).toEqual({ 1: "balanced" });
      expectReading(build);
    }
  }, 600_000);

  it("reads an image-only PDF under auto and accurate", async () => {
    const pdf = await scanPdf(scanPng());
    const auto = await read("ledger-scan.pdf", pdf, "auto");
    expect(Object.values(auto.page_methods ?? {})).toHaveLength(1);
    expect(auto.page_methods?.[1]).not.toBe("fast");
    expectReading(auto);
    const accurate = await read("ledger-scan-accurate.pdf", pdf, "accurate");
    expect(accurate.page_methods).toEqual({ 1: "accurate" });
    expectReading(accurate);
  }, 600_000);
});
