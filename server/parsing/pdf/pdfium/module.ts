import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

/**
 * PDFium (the PDF engine of Chromium), compiled to WebAssembly by `@embedpdf/pdfium`, reads every PDF: text with its
 * positions and fonts, the page's drawing (rules, pictures) and page images. Its C API is called straight on the
 * WebAssembly exports: pointers are numbers into the module's heap, out-parameters are read back from it.
 *
 * It replaced pdfjs, which read the same text at a third of pdftotext's speed (font programs converted for a canvas
 * that text extraction never draws, every page's content passed between two halves of the library as messages).
 */

/** A C function of the engine: numbers in (integers, doubles, pointers), a number out. */
type Fn = (...args: number[]) => number;

/** The functions used here. */
export type PdfiumApi = Record<
  | "malloc"
  | "free"
  | "FPDF_InitLibrary"
  | "FPDF_LoadMemDocument64"
  | "FPDF_CloseDocument"
  | "FPDF_GetLastError"
  | "FPDF_GetPageCount"
  | "FPDF_LoadPage"
  | "FPDF_ClosePage"
  | "FPDF_GetPageWidthF"
  | "FPDF_GetPageHeightF"
  | "FPDF_PageToDevice"
  | "FPDFText_LoadPage"
  | "FPDFText_ClosePage"
  | "FPDFText_CountChars"
  | "FPDFText_GetUnicode"
  | "FPDFText_IsGenerated"
  | "FPDFText_GetTextObject"
  | "FPDFText_GetFontSize"
  | "FPDFText_GetLooseCharBox"
  | "FPDFText_GetCharOrigin"
  | "FPDFText_GetMatrix"
  | "FPDFTextObj_GetFont"
  | "FPDFFont_GetBaseFontName"
  | "FPDFFont_GetFlags"
  | "FPDFFont_GetWeight"
  | "FPDFPage_CountObjects"
  | "FPDFPage_GetObject"
  | "FPDFPageObj_GetType"
  | "FPDFPageObj_GetMatrix"
  | "FPDFFormObj_CountObjects"
  | "FPDFFormObj_GetObject"
  | "FPDFPath_CountSegments"
  | "FPDFPath_GetPathSegment"
  | "FPDFPath_GetDrawMode"
  | "FPDFPathSegment_GetPoint"
  | "FPDFPathSegment_GetType"
  | "FPDFPathSegment_GetClose"
  | "FPDFImageObj_GetImagePixelSize"
  | "FPDFBitmap_Create"
  | "FPDFBitmap_FillRect"
  | "FPDFBitmap_GetBuffer"
  | "FPDFBitmap_GetStride"
  | "FPDFBitmap_Destroy"
  | "FPDF_RenderPageBitmapWithMatrix",
  Fn
>;

export type Pdfium = {
  api: PdfiumApi;
  /** Views of the heap: taken again after every call that may grow it. */
  heap: () => { u8: Uint8Array; i32: Int32Array; f32: Float32Array; f64: Float64Array };
  utf8: (pointer: number) => string;
};

type EmscriptenModule = {
  wasmExports: PdfiumApi;
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPF32: Float32Array;
  HEAPF64: Float64Array;
  UTF8ToString: (pointer: number) => string;
};

const load = async (): Promise<Pdfium> => {
  const require = createRequire(import.meta.url);
  const [{ init }, wasmBinary] = await Promise.all([
    import("@embedpdf/pdfium"),
    readFile(/*turbopackIgnore: true*/ require.resolve("@embedpdf/pdfium/pdfium.wasm")),
  ]);
  const silent = () => undefined;
  const wrapped = await init({ wasmBinary, print: silent, printErr: silent } as Parameters<typeof init>[0]);
  const engine = (wrapped as unknown as { pdfium: EmscriptenModule }).pdfium;
  const api = engine.wasmExports;
  api.FPDF_InitLibrary();
  return {
    api,
    heap: () => ({ u8: engine.HEAPU8, i32: engine.HEAP32, f32: engine.HEAPF32, f64: engine.HEAPF64 }),
    utf8: (pointer) => engine.UTF8ToString(pointer),
  };
};

let loaded: Promise<Pdfium> | null = null;

/** The engine, loaded once per process on first use (about 0.1 s): most uploads are not PDFs. */
export const loadPdfium = (): Promise<Pdfium> => (loaded ??= load());

/**
 * Drops the engine after it failed: a trap (an abort, a stack overflow) leaves its memory in an unknown state, so
 * the next document gets a new instance instead.
 */
export const discardPdfium = () => {
  loaded = null;
};
