import { createCanvas, GlobalFonts, type SKRSContext2D } from "@napi-rs/canvas";
import { PDFDocument } from "pdf-lib";
import { analyzePage } from "./page";

/**
 * Page images drawn in code for the OCR tests (a "scan" of a short report) and small writers for formats sharp
 * cannot produce (BMP, multi-page TIFF). Nothing in the app imports this.
 */

const FONT_DIR = "/usr/share/fonts/truetype/dejavu";
let fontsReady = false;

const registerFonts = () => {
  if (fontsReady) return;
  GlobalFonts.registerFromPath(`${FONT_DIR}/DejaVuSans.ttf`, "DejaVu Sans");
  GlobalFonts.registerFromPath(`${FONT_DIR}/DejaVuSans-Bold.ttf`, "DejaVu Sans Bold");
  GlobalFonts.registerFromPath(`${FONT_DIR}/DejaVuSerif.ttf`, "DejaVu Serif");
  GlobalFonts.registerFromPath(`${FONT_DIR}/DejaVuSansMono.ttf`, "DejaVu Sans Mono");
  fontsReady = true;
};

/** A white page to draw on: black ink, text placed by its top, the DejaVu faces registered. */
export const blankPage = (width: number, height: number) => {
  registerFonts();
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = "#000000";
  ctx.textBaseline = "top";
  return { canvas, ctx };
};

/** A page image read as the OCR methods read it (Tesseract, no second reading), at a known resolution. */
export const readTestPage = (png: Buffer, page: { width: number; height: number; dpi: number }, tables = false) =>
  analyzePage({
    pageNumber: 1,
    png,
    width: page.width,
    height: page.height,
    dpi: page.dpi,
    enlargeSmallText: false,
    tables,
    reocr: null,
    keepEmptyPage: "inked",
    deadline: Date.now() + 120_000,
  });

export const SCAN = { width: 1000, height: 1300 } as const;

export const SCAN_TITLE = "Quarterly Ingestion Report";
export const SCAN_PARAGRAPH = [
  "Quarry parses uploaded documents into typed elements,",
  "splits them into chunks and indexes every chunk for",
  "hybrid retrieval. Each element keeps its page and box.",
];
export const SCAN_BULLETS = [
  "First finding about parsing speed",
  "Second finding about chunk sizes",
  "Third finding about recall",
];
export const SCAN_TABLE = [
  ["Format", "Pages", "Seconds"],
  ["PDF", "12", "3.4"],
  ["DOCX", "8", "1.2"],
  ["Image", "1", "2.7"],
];

const text = (ctx: SKRSContext2D, value: string, x: number, y: number, size: number, bold = false) => {
  ctx.font = `${size}px "${bold ? "DejaVu Sans Bold" : "DejaVu Sans"}"`;
  ctx.fillStyle = "#000000";
  ctx.textBaseline = "top";
  ctx.fillText(value, x, y);
};

/** A ruled table: full grid of 2 px lines, cell text left-aligned with padding. Returns its bottom edge. */
const drawTable = (
  ctx: SKRSContext2D,
  rows: string[][],
  x: number,
  y: number,
  colWidths: number[],
  rowHeight: number,
) => {
  ctx.strokeStyle = "#000000";
  ctx.lineWidth = 2;
  const width = colWidths.reduce((a, b) => a + b, 0);
  for (let r = 0; r <= rows.length; r++) {
    ctx.beginPath();
    ctx.moveTo(x, y + r * rowHeight);
    ctx.lineTo(x + width, y + r * rowHeight);
    ctx.stroke();
  }
  let cx = x;
  for (let c = 0; c <= colWidths.length; c++) {
    ctx.beginPath();
    ctx.moveTo(cx, y);
    ctx.lineTo(cx, y + rows.length * rowHeight);
    ctx.stroke();
    cx += colWidths[c] ?? 0;
  }
  rows.forEach((row, r) => {
    let left = x;
    row.forEach((cell, c) => {
      text(ctx, cell, left + 16, y + r * rowHeight + (rowHeight - 26) / 2, 26, r === 0);
      left += colWidths[c] ?? 0;
    });
  });
  return y + rows.length * rowHeight;
};

/** One page: a bold heading, a paragraph, a bulleted list and a 3×4 ruled table, black on white. */
export const drawScanPage = (): Buffer => {
  registerFonts();
  const canvas = createCanvas(SCAN.width, SCAN.height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, SCAN.width, SCAN.height);
  text(ctx, SCAN_TITLE, 80, 90, 48, true);
  let y = 200;
  for (const line of SCAN_PARAGRAPH) {
    text(ctx, line, 80, y, 28);
    y += 40;
  }
  y += 40;
  for (const item of SCAN_BULLETS) {
    ctx.beginPath();
    ctx.arc(100, y + 15, 7, 0, Math.PI * 2);
    ctx.fillStyle = "#000000";
    ctx.fill();
    text(ctx, item, 130, y, 28);
    y += 48;
  }
  drawTable(ctx, SCAN_TABLE, 80, y + 60, [260, 220, 260], 70);
  return canvas.toBuffer("image/png");
};

/** A page with a single line of text (multi-page image tests). */
export const drawTextPage = (line: string, width = 900, height = 300): Buffer => {
  registerFonts();
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, height);
  text(ctx, line, 60, 120, 36);
  return canvas.toBuffer("image/png");
};

/** A PDF whose pages are nothing but the given PNGs, drawn full-page at 144 dpi, like a scanner's output. */
export const buildScannedPdf = async (pngs: Buffer[]): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  for (const png of pngs) {
    const image = await doc.embedPng(png);
    const page = doc.addPage([image.width / 2, image.height / 2]);
    page.drawImage(image, { x: 0, y: 0, width: image.width / 2, height: image.height / 2 });
  }
  return doc.save();
};

/** An uncompressed 24-bit BMP (bottom-up rows) of raw RGB pixels. */
export const encodeBmp = (rgb: Uint8Array, width: number, height: number): Buffer => {
  const stride = Math.ceil((width * 3) / 4) * 4;
  const size = 54 + stride * height;
  const out = Buffer.alloc(size);
  out.write("BM", 0, "ascii");
  out.writeUInt32LE(size, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  out.writeUInt32LE(0, 30);
  out.writeUInt32LE(stride * height, 34);
  for (let y = 0; y < height; y++) {
    const row = 54 + (height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      out[row + x * 3] = rgb[i + 2] ?? 0;
      out[row + x * 3 + 1] = rgb[i + 1] ?? 0;
      out[row + x * 3 + 2] = rgb[i] ?? 0;
    }
  }
  return out;
};

/** A baseline TIFF with one uncompressed 8-bit greyscale page per entry (sharp writes single pages only). */
export const encodeGrayTiff = (pages: { gray: Uint8Array; width: number; height: number }[]): Buffer => {
  const ENTRIES = 8;
  const ifdSize = 2 + ENTRIES * 12 + 4;
  let offset = 8;
  const layout = pages.map((p) => {
    const dataAt = offset;
    offset += p.gray.length + (p.gray.length % 2);
    const ifdAt = offset;
    offset += ifdSize;
    return { ...p, dataAt, ifdAt };
  });
  const out = Buffer.alloc(offset);
  out.write("II", 0, "ascii");
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(layout[0]?.ifdAt ?? 0, 4);
  layout.forEach((p, i) => {
    Buffer.from(p.gray).copy(out, p.dataAt);
    let at = p.ifdAt;
    out.writeUInt16LE(ENTRIES, at);
    at += 2;
    const entry = (tag: number, type: number, value: number) => {
      out.writeUInt16LE(tag, at);
      out.writeUInt16LE(type, at + 2);
      out.writeUInt32LE(1, at + 4);
      if (type === 3) out.writeUInt16LE(value, at + 8);
      else out.writeUInt32LE(value, at + 8);
      at += 12;
    };
    entry(256, 4, p.width); // ImageWidth
    entry(257, 4, p.height); // ImageLength
    entry(258, 3, 8); // BitsPerSample
    entry(259, 3, 1); // Compression: none
    entry(262, 3, 1); // Photometric: black is zero
    entry(273, 4, p.dataAt); // StripOffsets
    entry(278, 4, p.height); // RowsPerStrip
    entry(279, 4, p.gray.length); // StripByteCounts
    out.writeUInt32LE(layout[i + 1]?.ifdAt ?? 0, at);
  });
  return out;
};
