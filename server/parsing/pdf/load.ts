import { createRequire } from "node:module";
import path from "node:path";
import { AppError, errorMessage } from "@/server/errors";
import { readingPage } from "../page-watch";
import type { PageText, RotatedText, Run } from "./types";

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
type PdfDocument = Awaited<ReturnType<PdfJs["getDocument"]>["promise"]>;

let pdfjsPromise: Promise<PdfJs> | null = null;

/**
 * pdfjs inflates a compressed stream with the platform's `DecompressionStream` when there is one. In Node that is a
 * web stream over a zlib handle of its own for every stream of the file (contents, fonts), which cost a PDF parse
 * 10-15 % more CPU than pdfjs's built-in synchronous inflate of the same bytes (same output). Without it pdfjs uses
 * its own. PDFs are read in parse worker processes, which have no other use for it.
 */
const withoutPlatformInflate = () => {
  Reflect.deleteProperty(globalThis, "DecompressionStream");
};

/**
 * pdfjs's legacy build (the one that runs on Node 20) brings core-js, which replaces `Array.prototype.push` with a
 * JavaScript version for an edge case of arrays longer than 2^32 (V8 issue 12681). That made every push in the
 * process several times slower, pdfjs's own and the layout code's (about a tenth of a fast parse). The native push
 * is put back once both modules are loaded; its worker half is loaded here too, so it cannot replace it later (pdfjs
 * uses `globalThis.pdfjsWorker`, which that module sets, instead of importing it on first use).
 * The minified files of the same build are loaded: a parse worker runs under tsx, whose loader rewrites every module
 * with a dynamic import and maps it back with a source map; for pdfjs's 3.4 MB that cost each new worker about 0.55 s
 * more CPU than for the 1.8 MB minified files.
 */
const importPdfJs = async (): Promise<PdfJs> => {
  withoutPlatformInflate();
  const nativePush = Array.prototype.push;
  try {
    const pdfjs = (await import("pdfjs-dist/legacy/build/pdf.min.mjs")) as PdfJs;
    await import("pdfjs-dist/legacy/build/pdf.worker.min.mjs");
    return pdfjs;
  } finally {
    Array.prototype.push = nativePush;
  }
};

/** Loaded on first use: most uploads are not PDFs, and pdfjs is a large module. */
const loadPdfJs = (): Promise<PdfJs> => (pdfjsPromise ??= importPdfJs());

/**
 * Where pdfjs keeps its CMaps (needed for CJK text with predefined encodings) and standard font data. Resolved from
 * the installed package; if that fails (unusual bundling), text extraction still works for most files.
 */
const pdfjsAssetDir = (): string | null => {
  try {
    return path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));
  } catch {
    return null;
  }
};

const unprocessable = (message: string, cause?: unknown) => new AppError("UNPROCESSABLE", message, { cause });

export const openPdf = async (bytes: Uint8Array): Promise<{ pdfjs: PdfJs; doc: PdfDocument }> => {
  const pdfjs = await loadPdfJs();
  const assets = pdfjsAssetDir();
  // pdfjs takes ownership of (and detaches) the buffer it is given; hand it a copy.
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    ...(assets
      ? { cMapUrl: `${assets}/cmaps/`, cMapPacked: true, standardFontDataUrl: `${assets}/standard_fonts/` }
      : {}),
  });
  try {
    return { pdfjs, doc: await task.promise };
  } catch (error) {
    await task.destroy().catch(() => undefined);
    const name = error instanceof Error ? error.name : "";
    if (name === "PasswordException") {
      throw unprocessable("The PDF is password-protected; remove the password and upload it again", error);
    }
    throw unprocessable(`The file is not a readable PDF (${errorMessage(error)})`, error);
  }
};

const ASCENT_DEFAULT = 0.8;
const DESCENT_DEFAULT = -0.2;

const cleanText = (text: string): string =>
  // NFKC folds ligatures (ﬁ → fi) and full-width forms so search and embeddings see ordinary letters.
  text.normalize("NFKC").replace(/[\u0000-\u001f\u007f\u00ad\u200b]/g, "");

/**
 * The text layer of one page as runs with boxes in top-left page coordinates. Text printed at an angle goes to
 * `rotated`; the layout code reads horizontal text only.
 */
export const readPage = (input: { pdfjs: PdfJs; doc: PdfDocument; pageNumber: number }): Promise<PageText> =>
  readingPage(input.pageNumber, () => readPageText(input));

const readPageText = async ({
  pdfjs,
  doc,
  pageNumber,
}: {
  pdfjs: PdfJs;
  doc: PdfDocument;
  pageNumber: number;
}): Promise<PageText> => {
  const page = await doc.getPage(pageNumber);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const runs: Run[] = [];
    const rotated: RotatedText[] = [];
    for (const item of content.items) {
      if (!("str" in item)) continue;
      const text = cleanText(item.str);
      if (text.trim() === "") continue;
      const tx = pdfjs.Util.transform(viewport.transform, item.transform) as number[];
      const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = tx;
      const fontSize = Math.hypot(c, d);
      if (!(fontSize > 0.5) || !Number.isFinite(e) || !Number.isFinite(f)) continue;
      const style = content.styles[item.fontName];
      const ascent = Math.min(Math.max(style?.ascent || ASCENT_DEFAULT, 0.5), 1.1);
      const descent = Math.max(Math.min(style?.descent || DESCENT_DEFAULT, 0), -0.5);
      // Unit vectors along the baseline and towards the glyph tops, in device space (y grows downwards).
      const along = Math.hypot(a, b) || 1;
      const [ux, uy] = [a / along, b / along];
      const [vx, vy] = [c / fontSize, d / fontSize];
      const width = Math.max(item.width, 0);
      const corners = [
        [e + vx * descent * fontSize, f + vy * descent * fontSize],
        [e + vx * ascent * fontSize, f + vy * ascent * fontSize],
        [e + ux * width + vx * descent * fontSize, f + uy * width + vy * descent * fontSize],
        [e + ux * width + vx * ascent * fontSize, f + uy * width + vy * ascent * fontSize],
      ];
      const xs = corners.map((p) => p[0] ?? e);
      const ys = corners.map((p) => p[1] ?? f);
      const box = { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
      const horizontal = ux > 0.98 && Math.abs(uy) < 0.2;
      if (horizontal) {
        runs.push({
          ...box,
          text,
          fontSize,
          fontName: item.fontName,
          mono: style?.fontFamily === "monospace",
          baseline: f,
        });
      } else {
        rotated.push({ ...box, text, fontSize });
      }
    }
    return { pageNumber, width: viewport.width, height: viewport.height, runs, rotated };
  } finally {
    page.cleanup();
  }
};
