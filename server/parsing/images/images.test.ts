import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import type { InternalMethod } from "../methods.schema";
import { shutdownOcr } from "../ocr/engine";
import {
  drawScanPage,
  drawTextPage,
  encodeBmp,
  encodeGrayTiff,
  SCAN,
  SCAN_BULLETS,
  SCAN_TABLE,
  SCAN_TITLE,
} from "../ocr/test-fixtures";
import { peerText, textSimilarity } from "../text-similarity";
import type { PartitionResult } from "../types";
import { partitionImage } from ".";
import { decodeImage, MAX_IMAGE_PAGES } from "./decode";

const CORPUS = path.resolve(import.meta.dirname, "../../../../shared/corpus");

const parse = async (bytes: Uint8Array, fileType: string, method: InternalMethod): Promise<PartitionResult> =>
  partitionImage({ bytes, fileName: `image.${fileType}`, fileType, method });

const failure = async (promise: Promise<unknown>): Promise<AppError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("UNPROCESSABLE");
  return error as AppError;
};

const cellCount = (html: string) => (html.match(/<t[hd][ >]/g) ?? []).length;

/** A PNG whose header claims `width`×`height` (the pixel data is a 1×1 image's: only the header is read). */
const pngClaiming = async (width: number, height: number) => {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer(),
  );
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
};

const grayPage = (width: number, height: number, value = 255) => ({
  gray: new Uint8Array(width * height).fill(value),
  width,
  height,
});

describe("image decoding", () => {
  it("PNG with transparency comes out on white; JPEG turned upright by its EXIF orientation", async () => {
    const transparent = await sharp({
      create: { width: 30, height: 20, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const png = await decodeImage(transparent, "png");
    expect(png.pages).toHaveLength(1);
    const { data } = await sharp(png.pages[0]!.png).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([255, 255, 255]);

    const sideways = await sharp({ create: { width: 40, height: 20, channels: 3, background: "#ffffff" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const jpg = await decodeImage(sideways, "jpg");
    expect([jpg.pages[0]?.width, jpg.pages[0]?.height]).toEqual([20, 40]);
  });

  it("every page of a TIFF, a BMP through Skia, WebP and GIF through sharp", async () => {
    const tiff = await decodeImage(encodeGrayTiff([grayPage(30, 20), grayPage(50, 10, 0), grayPage(8, 8)]), "tiff");
    expect(tiff.totalPages).toBe(3);
    expect(tiff.pages.map((p) => [p.width, p.height])).toEqual([
      [30, 20],
      [50, 10],
      [8, 8],
    ]);
    const black = await sharp(tiff.pages[1]!.png).greyscale().raw().toBuffer();
    expect(Math.max(...black)).toBe(0);

    const rgb = new Uint8Array(7 * 5 * 3).fill(200);
    rgb.set([255, 0, 0], 0); // top-left pixel red: BMP rows are stored bottom-up
    const bmp = await decodeImage(encodeBmp(rgb, 7, 5), "bmp");
    expect([bmp.pages[0]?.width, bmp.pages[0]?.height]).toEqual([7, 5]);
    const { data } = await sharp(bmp.pages[0]!.png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([255, 0, 0]);

    for (const format of ["webp", "gif"] as const) {
      const bytes = await sharp({ create: { width: 12, height: 9, channels: 3, background: "#336699" } })
        .toFormat(format)
        .toBuffer();
      const decoded = await decodeImage(bytes, format);
      expect([decoded.pages.length, decoded.pages[0]?.width, decoded.pages[0]?.height]).toEqual([1, 12, 9]);
    }
  });

  it("limits: 60 megapixels per page, 200 pages", async () => {
    const huge = await failure(decodeImage(await pngClaiming(10_000, 8_000), "png"));
    expect(huge.message).toMatch(/10000×8000 pixels \(80 megapixels\).*at most 60 megapixels/);
    const hugeBmp = encodeBmp(new Uint8Array(3), 1, 1);
    hugeBmp.writeInt32LE(9000, 18);
    hugeBmp.writeInt32LE(9000, 22);
    await failure(decodeImage(hugeBmp, "bmp"));

    const many = await decodeImage(encodeGrayTiff(Array.from({ length: 201 }, () => grayPage(4, 4))), "tif");
    expect(many.totalPages).toBe(201);
    expect(many.pages).toHaveLength(MAX_IMAGE_PAGES);
  });

  it("damaged, truncated and empty files fail with a message, never hang", async () => {
    const png = drawTextPage("Truncated");
    const jpg = await sharp(png).jpeg().toBuffer();
    const tiff = encodeGrayTiff([grayPage(300, 200, 128)]);
    const bmp = encodeBmp(new Uint8Array(300 * 200 * 3).fill(90), 300, 200);
    const started = Date.now();
    for (const [ext, bytes] of [
      ["png", png],
      ["jpg", jpg],
      ["tiff", tiff],
      ["bmp", bmp],
    ] as const) {
      const error = await failure(decodeImage(bytes.subarray(0, Math.floor(bytes.length / 2)), ext));
      expect(error.message).toMatch(
        new RegExp(`The \\.${ext} image could not be decoded; the file is damaged, truncated`),
      );
      await failure(decodeImage(bytes.subarray(0, 40), ext));
    }
    await failure(decodeImage(Buffer.from("GIF89a but nothing else of an image here"), "gif"));
    await failure(decodeImage(new Uint8Array(0), "png"));
    await failure(decodeImage(Buffer.from("just some text pretending to be an image"), "jpeg"));
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe("image partition (OCR)", () => {
  const scan = drawScanPage();
  let balanced: PartitionResult;
  let accurate: PartitionResult;

  beforeAll(async () => {
    balanced = await parse(scan, "png", "hi_res");
    accurate = await parse(scan, "png", "hi_res_ft");
  });
  afterAll(() => shutdownOcr());

  it("balanced: a title, prose and list items with pixel boxes, confidence and method", () => {
    const { elements, warnings, totalPages, pageMethods } = balanced;
    expect(warnings).toEqual([]);
    expect(totalPages).toBe(1);
    expect(pageMethods).toEqual({ 1: "balanced" });
    const title = elements[0];
    expect([title?.type, title?.text]).toEqual(["Title", SCAN_TITLE]);
    expect(elements[1]?.type).toBe("NarrativeText");
    expect(elements[1]?.text).toMatch(/^Quarry parses uploaded documents into typed elements, .* page and box\.$/);
    expect(elements.filter((e) => e.type === "ListItem").map((e) => e.text)).toEqual(SCAN_BULLETS);
    for (const e of elements) {
      expect(e.pageNumber).toBe(1);
      expect(e.pageLayout).toEqual(SCAN);
      expect(e.metadata?.method).toBe("balanced");
      expect(e.metadata?.ocr_confidence).toBeGreaterThan(0.5);
      expect(e.metadata?.ocr_confidence).toBeLessThanOrEqual(1);
    }
    // The title is drawn at (80, 90) in 48 px type.
    expect(title?.boundingBox?.left).toBeGreaterThan(70);
    expect(title?.boundingBox?.left).toBeLessThan(95);
    expect(title?.boundingBox?.top).toBeGreaterThan(80);
    expect(title?.boundingBox?.height).toBeGreaterThan(30);
    expect(title?.boundingBox?.height).toBeLessThan(70);
    expect(elements.some((e) => e.type === "Table")).toBe(false);
  });

  it("accurate: the ruled table comes back as one Table with its 12 cells and a header row", () => {
    const tables = accurate.elements.filter((e) => e.type === "Table");
    expect(tables).toHaveLength(1);
    const html = tables[0]?.html ?? "";
    expect(cellCount(html)).toBe(12);
    expect(html).toContain(`<thead><tr>${SCAN_TABLE[0]!.map((c) => `<th>${c}</th>`).join("")}</tr></thead>`);
    for (const row of SCAN_TABLE.slice(1))
      expect(html).toContain(`<tr>${row.map((c) => `<td>${c}</td>`).join("")}</tr>`);
    expect(tables[0]?.text).toBe(SCAN_TABLE.map((r) => r.join(" ")).join("\n"));
    // The table's words are not repeated as text, and the rest of the page reads as in balanced.
    expect(accurate.elements.filter((e) => e.type !== "Table").map((e) => e.text)).toEqual(
      balanced.elements.filter((e) => !/^(Format|PDF|DOCX|Image)\b/.test(e.text)).map((e) => e.text),
    );
    expect(tables[0]?.metadata).toMatchObject({
      method: "accurate",
      table_rows: 4,
      table_columns: 3,
      table_source: "grid",
    });
  });

  it("fast still reads an image with OCR, and says so", async () => {
    const fast = await parse(drawTextPage("Fast method reads images too"), "png", "basic");
    expect(fast.warnings.join(" ")).toMatch(/no text layer.*fast method read it with OCR/);
    expect(fast.elements.map((e) => e.text)).toEqual(["Fast method reads images too"]);
    // Read by OCR, so not reported as fast; the engine that read it is named.
    expect(fast.elements[0]?.metadata?.method).toBe("balanced");
    expect(fast.pageMethods).toEqual({ 1: "balanced" });
    expect(fast.elements[0]?.metadata?.ocr_engine).toMatch(/^(ppocr|tesseract)$/);
  });

  it("an image without text is kept as one Image element, with a warning", async () => {
    const blank = await sharp({ create: { width: 200, height: 120, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer();
    const result = await parse(blank, "png", "hi_res");
    expect(result.elements).toHaveLength(1);
    const image = result.elements[0]!;
    expect(image.type).toBe("Image");
    expect(image.boundingBox).toEqual({ left: 0, top: 0, width: 200, height: 120 });
    const decoded = await sharp(Buffer.from(image.imgBase64 ?? "", "base64")).metadata();
    expect([decoded.format, decoded.width, decoded.height]).toEqual(["png", 200, 120]);
    expect(result.warnings).toEqual(["OCR found no text in the image; it is kept as an image"]);
  });

  it("each TIFF page is read on its own; page_number is the frame", async () => {
    const pages = await Promise.all(
      ["Page one of the fax", "Page two of the fax"].map(async (text) => {
        const { data, info } = await sharp(drawTextPage(text)).greyscale().raw().toBuffer({ resolveWithObject: true });
        return { gray: new Uint8Array(data), width: info.width, height: info.height };
      }),
    );
    const result = await parse(encodeGrayTiff(pages), "tiff", "hi_res");
    expect(result.totalPages).toBe(2);
    expect(result.elements.map((e) => [e.pageNumber, e.text])).toEqual([
      [1, "Page one of the fax"],
      [2, "Page two of the fax"],
    ]);
  });
});

describe.runIf(existsSync(CORPUS))("image corpus", () => {
  const read = (name: string) => new Uint8Array(readFileSync(path.join(CORPUS, name)));
  afterAll(() => shutdownOcr());

  it("english-and-korean.png: heading, numbered items, the e-mail address", async () => {
    const { elements } = await parse(read("english-and-korean.png"), "png", "hi_res");
    expect(elements[0]).toMatchObject({ type: "Title", text: "RULES AND INSTRUCTIONS" });
    const items = elements.filter((e) => e.type === "ListItem").map((e) => e.text);
    expect(items.length).toBeGreaterThanOrEqual(3);
    // The item's number is part of what it says, so it stays with the item.
    expect(items[0]).toMatch(/^1\. Template for day 1/);
    expect(items.some((t) => t.includes("Harutonations@gmail.com"))).toBe(true);
    expect(elements.find((e) => e.text.startsWith("Note: Remember"))?.type).toBe("NarrativeText");
    expect(elements[0]?.pageLayout).toEqual({ width: 650, height: 814 });
  });

  it("table-multi-row-column-cells.png, accurate: a table with its two-level header", async () => {
    const { elements } = await parse(read("table-multi-row-column-cells.png"), "png", "hi_res_ft");
    const table = elements.find((e) => e.type === "Table");
    expect(table?.metadata).toMatchObject({ table_rows: 6, table_columns: 6 });
    const html = table?.html ?? "";
    expect(html).toMatch(/<th colspan="2">Results<\/th>/);
    expect(html).toMatch(/<th rowspan="2">Disability Category<\/th>/);
    expect(html).toContain("<tr><th>Accuracy</th><th>Time to complete</th></tr>");
    expect(html).toMatch(
      /<tr><td>Low Vision<\/td><td>5<\/td><td>2<\/td><td>3<\/td><td>98\.3% n=2 \(97\.7%, n=3\)<\/td>/,
    );
    expect(html).toContain(
      "<tr><td>Mobility</td><td>3</td><td>3</td><td>0</td><td>95.4%, n=3</td><td>1416 sec, n=3</td></tr>",
    );
  });

  it("layout-parser-paper-with-table.jpg: close to the peer's text", async () => {
    const { elements } = await parse(read("layout-parser-paper-with-table.jpg"), "jpg", "hi_res");
    const expected = peerText(
      JSON.parse(readFileSync(path.join(CORPUS, "layout-parser-paper-with-table.jpg.expected.json"), "utf8")),
    );
    const similarity = textSimilarity(elements.map((e) => e.text).join("\n"), expected);
    console.log(`layout-parser-paper-with-table.jpg similarity to peer: ${similarity.toFixed(3)}`);
    expect(similarity).toBeGreaterThan(0.85);
    expect(elements.find((e) => e.text === "3.1 Layout Detection Models")?.type).toBe("Title");
  });

  it("layout-parser-paper-fast.tiff, pytesseract-test.bmp and DA-1p.heic", async () => {
    const tiff = await parse(read("layout-parser-paper-fast.tiff"), "tiff", "hi_res");
    expect(tiff.elements.find((e) => e.type === "Title")?.text).toBe(
      "LayoutParser: A Unified Toolkit for Deep Learning Based Document Image Analysis",
    );
    expect(
      tiff.elements.some((e) => e.type === "NarrativeText" && e.text.startsWith("Abstract. Recent advances")),
    ).toBe(true);

    const bmp = await parse(read("pytesseract-test.bmp"), "bmp", "hi_res");
    expect(bmp.elements.map((e) => e.type)).toEqual(["NarrativeText", "NarrativeText"]);
    expect(bmp.elements[0]?.text).toBe(
      "This is a lot of 12 point text to test the ocr code and see if it works on all types of file format.",
    );
    expect(bmp.elements[1]?.text).toMatch(/^The quick brown dog jumped over the lazy fox\./);

    const heic = await parse(read("DA-1p.heic"), "heic", "hi_res");
    const titles = heic.elements.filter((e) => e.type === "Title").map((e) => e.text);
    expect(titles).toEqual(expect.arrayContaining(["CREATURES", "Abomination", "Arcane Horror"]));
    expect(heic.elements.filter((e) => e.type === "NarrativeText").length).toBeGreaterThanOrEqual(8);
  });

  it("truncated copies of every corpus image fail cleanly", async () => {
    for (const [name, ext] of [
      ["english-and-korean.png", "png"],
      ["layout-parser-paper-with-table.jpg", "jpg"],
      ["layout-parser-paper-fast.tiff", "tiff"],
      ["pytesseract-test.bmp", "bmp"],
      ["DA-1p.heic", "heic"],
    ] as const) {
      const bytes = read(name);
      for (const share of [0.5, 0.05]) {
        const error = await failure(parse(bytes.subarray(0, Math.floor(bytes.length * share)), ext, "hi_res"));
        expect(error.message).toMatch(/could not be decoded/);
      }
    }
  });
});
