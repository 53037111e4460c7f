import { AppError } from "@/server/errors";
import { discardPdfium, loadPdfium, type Pdfium } from "./module";

/** An affine map [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Matrix = [number, number, number, number, number, number];

export const applyMatrix = (m: Matrix, x: number, y: number): [number, number] => [
  m[0] * x + m[2] * y + m[4],
  m[1] * x + m[3] * y + m[5],
];

/** `m` after `n`: a point mapped by `n`, then by `m`. */
export const multiplyMatrix = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

export type PdfPage = {
  pageNumber: number;
  /** FPDF_PAGE. */
  handle: number;
  /** Size as displayed (page rotation applied), in points. */
  width: number;
  height: number;
  /** From PDF user space to the page as displayed: points, origin top-left. */
  toDisplay: Matrix;
  /** FPDF_TEXTPAGE, loaded on first use. */
  textPage: () => number;
};

export type PdfDocument = {
  pdfium: Pdfium;
  pageCount: number;
  /** 256 bytes of engine memory for out-parameters, valid until `close`. */
  scratch: number;
  /** Runs `read` on a loaded page (1-based); the page stays loaded for the next call on the same page. */
  withPage: <T>(pageNumber: number, read: (page: PdfPage) => T) => T;
  close: () => void;
};

const unprocessable = (message: string) => new AppError("UNPROCESSABLE", message);

/** FPDF_GetLastError codes. */
const LOAD_ERRORS: Record<number, string> = {
  2: "the file could not be read",
  3: "not a PDF, or damaged beyond repair",
  5: "an unsupported security handler",
};
const PASSWORD_ERROR = 4;

/**
 * Device coordinates come back as integers; at this many device units per point the matrix read from them is exact
 * to a thousandth of a point.
 */
const UNITS_PER_POINT = 1024;

/** The page's display matrix, read off three mapped points (PDFium applies the crop box and /Rotate). */
const displayMatrix = (pdfium: Pdfium, handle: number, width: number, height: number, scratch: number): Matrix => {
  const { api } = pdfium;
  const sizeX = Math.max(1, Math.round(width * UNITS_PER_POINT));
  const sizeY = Math.max(1, Math.round(height * UNITS_PER_POINT));
  const map = (x: number, y: number): [number, number] => {
    api.FPDF_PageToDevice(handle, 0, 0, sizeX, sizeY, 0, x, y, scratch, scratch + 4);
    const { i32 } = pdfium.heap();
    return [i32[scratch >> 2]! / UNITS_PER_POINT, i32[(scratch >> 2) + 1]! / UNITS_PER_POINT];
  };
  const STEP = 1000;
  const [e, f] = map(0, 0);
  const [xx, xy] = map(STEP, 0);
  const [yx, yy] = map(0, STEP);
  return [(xx - e) / STEP, (xy - f) / STEP, (yx - e) / STEP, (yy - f) / STEP, e, f];
};

/**
 * Opens a PDF held in memory. The bytes are copied into the engine, which reads from them until `close`; a document
 * that cannot be opened fails with a sentence (a password, a file that is not a PDF).
 */
export const openPdf = async (bytes: Uint8Array): Promise<PdfDocument> => {
  const pdfium = await loadPdfium();
  const { api } = pdfium;
  const data = api.malloc(Math.max(1, bytes.length));
  const scratch = api.malloc(256);
  if (!data || !scratch) {
    api.free(data);
    api.free(scratch);
    throw unprocessable("The PDF is too large to open");
  }
  pdfium.heap().u8.set(bytes, data);
  const handle = api.FPDF_LoadMemDocument64(data, bytes.length, 0);
  if (!handle) {
    const code = api.FPDF_GetLastError();
    api.free(data);
    api.free(scratch);
    if (code === PASSWORD_ERROR) {
      throw unprocessable("The PDF is password-protected; remove the password and upload it again");
    }
    throw unprocessable(`The file is not a readable PDF (${LOAD_ERRORS[code] ?? "it could not be opened"})`);
  }

  let open: { page: PdfPage; text: number } | null = null;
  const closePage = () => {
    if (!open) return;
    if (open.text) api.FPDFText_ClosePage(open.text);
    api.FPDF_ClosePage(open.page.handle);
    open = null;
  };
  const loadPage = (pageNumber: number): PdfPage => {
    const pageHandle = api.FPDF_LoadPage(handle, pageNumber - 1);
    // Callers name the page ("Page 3 could not be read (…)").
    if (!pageHandle) throw unprocessable("The page is damaged in the file or missing from it");
    const width = api.FPDF_GetPageWidthF(pageHandle);
    const height = api.FPDF_GetPageHeightF(pageHandle);
    const entry: { page: PdfPage; text: number } = {
      text: 0,
      page: {
        pageNumber,
        handle: pageHandle,
        width,
        height,
        toDisplay: displayMatrix(pdfium, pageHandle, width, height, scratch),
        textPage: () => (entry.text ||= api.FPDFText_LoadPage(pageHandle)),
      },
    };
    return (open = entry).page;
  };

  let closed = false;
  let failed = false;
  return {
    pdfium,
    pageCount: api.FPDF_GetPageCount(handle),
    scratch,
    withPage: (pageNumber, read) => {
      if (closed) throw new Error("The PDF was closed");
      if (failed) throw unprocessable("Not read: the PDF engine failed on an earlier page");
      try {
        if (open?.page.pageNumber !== pageNumber) {
          closePage();
          loadPage(pageNumber);
        }
        return read(open!.page);
      } catch (error) {
        if (!(error instanceof WebAssembly.RuntimeError || error instanceof RangeError)) throw error;
        // The engine is in no state to go on: this document stops here, and the next one gets a new engine.
        failed = true;
        discardPdfium();
        throw unprocessable("The PDF engine failed on this page");
      }
    },
    close: () => {
      if (closed) return;
      closed = true;
      if (failed) return;
      closePage();
      api.FPDF_CloseDocument(handle);
      api.free(data);
      api.free(scratch);
    },
  };
};
