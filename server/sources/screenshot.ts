import { Readable } from "node:stream";
import type { Source } from "../generated/prisma/client";
import { env } from "../env";
import { AppError } from "../errors";
import { logger } from "../logger";
import { officePdfIsolated, pageImageIsolated } from "../parsing/isolated";
import { findTool, missingToolMessage, requireTool } from "../parsing/system-tools";
import { createSemaphore } from "../concurrency/semaphore";
import { fileStore } from "../storage";
import { findSource } from "./service";

/** Page screenshots (contract §5.11): a PNG of one page of a stored source, for previews next to its elements. */

export const SCREENSHOT_WIDTH = { default: 900, min: 300, max: 1600 } as const;

/** Out-of-range widths are clamped, not refused (contract §5.11). */
export const screenshotWidth = (maxWidth: number | undefined) =>
  Math.min(SCREENSHOT_WIDTH.max, Math.max(SCREENSHOT_WIDTH.min, maxWidth ?? SCREENSHOT_WIDTH.default));

type ScreenshotKind = "pdf" | "office" | "image";

const KINDS: Record<string, ScreenshotKind> = {
  pdf: "pdf",
  png: "image",
  jpg: "image",
  jpeg: "image",
  tiff: "image",
  tif: "image",
  webp: "image",
  bmp: "image",
  heic: "image",
  doc: "office",
  docx: "office",
  ppt: "office",
  pptx: "office",
  odt: "office",
  ods: "office",
  odp: "office",
  rtf: "office",
};

export const screenshotKind = (fileType: string): ScreenshotKind | null => KINDS[fileType.toLowerCase()] ?? null;

/**
 * Where an Office source's PDF rendition is kept: beside the original, in the source's folder, so deleting the
 * source removes it too. The original never changes (reprocess re-reads the same bytes), so it never goes stale.
 */
export const convertedPdfKey = (storageKey: string) => storageKey.replace(/[^/]*$/, "converted.pdf");

/** Conversions under way, so concurrent screenshots of one new document start LibreOffice once. */
const converting = new Map<string, Promise<Uint8Array>>();

const readCachedPdf = async (key: string): Promise<Uint8Array | null> => {
  try {
    return new Uint8Array(await fileStore().read(key));
  } catch {
    return null; // not converted yet
  }
};

const convertAndCache = async (storageKey: string, fileType: string, key: string): Promise<Uint8Array> => {
  // In a worker process: the ZIP check and LibreOffice run under a time limit that kills both, not in the app.
  const pdf = await officePdfIsolated({ bytes: new Uint8Array(await fileStore().read(storageKey)), fileType });
  // A failed write only costs the next screenshot another conversion.
  await fileStore()
    .put(key, Readable.from([Buffer.from(pdf)]))
    .catch((err: unknown) => logger.warn({ err, key }, "converted PDF could not be cached"));
  return pdf;
};

/** The PDF rendition of an Office source: converted with LibreOffice on first use, then read from the store. */
const officePdf = async (source: Pick<Source, "fileType"> & { storageKey: string }): Promise<Uint8Array> => {
  const key = convertedPdfKey(source.storageKey);
  const cached = await readCachedPdf(key);
  if (cached) return cached;
  // Not the document's fault: 503, the server can draw it once LibreOffice is installed (README, "Using the API").
  await requireTool("soffice", `Page images of .${source.fileType.toLowerCase()} files`, "UNAVAILABLE");
  let pending = converting.get(key);
  if (!pending) {
    pending = convertAndCache(source.storageKey, source.fileType, key).finally(() => converting.delete(key));
    converting.set(key, pending);
  }
  return pending;
};

/**
 * Each screenshot is drawn by a worker process of up to 1.5 GB: at most QUARRY_SCREENSHOT_CONCURRENCY at once, a
 * bounded line behind them, and 429 past that (ten parallel requests once took 4.2 GB).
 */
const renderPool = createSemaphore({
  limit: () => env.QUARRY_SCREENSHOT_CONCURRENCY,
  maxWaiting: 32,
  onFull: () => new AppError("TOO_MANY_REQUESTS", "Too many requests", { retryAfterS: 5 }),
});

const drawPage = (input: Parameters<typeof pageImageIsolated>[0]) =>
  renderPool.run(() => pageImageIsolated(input, { workers: env.QUARRY_SCREENSHOT_CONCURRENCY }));

export const pageScreenshot = async ({
  projectId,
  fileId,
  pageNumber,
  maxWidth,
}: {
  projectId: string;
  fileId: string;
  pageNumber: number;
  maxWidth?: number;
}) => {
  const source = await findSource({ projectId, fileId });
  if (!source) throw new AppError("NOT_FOUND", "Source not found");
  const kind = screenshotKind(source.fileType);
  // Sources without stored bytes (web pages, repositories) have nothing to draw either.
  if (!kind || !source.storageKey) {
    throw new AppError("NOT_FOUND", "Screenshots are not supported for this file type");
  }
  if (pageNumber < 1) throw new AppError("NOT_FOUND", `Page ${pageNumber} is out of range`);
  const width = screenshotWidth(maxWidth);
  const storageKey = source.storageKey;
  // Documents are drawn in a worker process: a hostile file must not stall the server.
  if (kind === "image") {
    const bytes = new Uint8Array(await fileStore().read(storageKey));
    return { source, ...(await drawPage({ bytes, fileType: source.fileType, pageNumber, width })) };
  }
  const pdf = kind === "office" ? await officePdf({ ...source, storageKey }) : await fileStore().read(storageKey);
  return { source, ...(await drawPage({ bytes: new Uint8Array(pdf), fileType: "pdf", pageNumber, width })) };
};

/** How the dashboard names an Office format in a sentence ("Page images of Word files …"). */
const OFFICE_NAMES: Record<string, string> = {
  doc: "Word",
  docx: "Word",
  rtf: "Word",
  odt: "OpenDocument text",
  ppt: "PowerPoint",
  pptx: "PowerPoint",
  odp: "OpenDocument presentation",
  ods: "OpenDocument spreadsheet",
};

export type PageImageRefusal = {
  status: number;
  /** For everyone who may see the source. */
  message: string;
  /** The server's reason, for admins (null for other roles). */
  detail: string | null;
};

/**
 * Why a page image cannot be drawn, as the element viewer shows it in place of the image; null for errors that stay
 * errors (a page out of range, a full queue to retry). A missing LibreOffice is the server's lack, not the file's.
 */
export const pageImageRefusal = (error: unknown, fileType: string, details: boolean): PageImageRefusal | null => {
  if (!(error instanceof AppError)) return null;
  const type = fileType.toLowerCase();
  const detail = (text: string) => (details ? text : null);
  if (error.code === "UNAVAILABLE") {
    const name = OFFICE_NAMES[type] ?? `.${type}`;
    return {
      status: error.status,
      message: "Page images cannot be shown for this file on this server. Its elements are still listed here.",
      detail: detail(`Page images of ${name} files need LibreOffice on the server. ${error.message}`),
    };
  }
  if (error.code === "UNPROCESSABLE" || error.code === "TIMEOUT") {
    return {
      status: error.status,
      message: "This page could not be drawn as an image. Its elements are still listed here.",
      detail: detail(error.message),
    };
  }
  return null;
};

/**
 * Why no page of this source can be drawn, known before any image is asked for: an Office file whose PDF rendition
 * is not kept yet, on a server without LibreOffice. The element viewer says so in place of the image instead of
 * asking and getting a 503 (issue 30: a page that works as designed shows no failed request).
 */
export const pageImagesRefusal = async (
  source: Pick<Source, "fileType" | "storageKey">,
  details: boolean,
): Promise<PageImageRefusal | null> => {
  if (screenshotKind(source.fileType) !== "office" || !source.storageKey) return null;
  if (await findTool("soffice")) return null;
  if ((await fileStore().size(convertedPdfKey(source.storageKey))) !== null) return null;
  const type = source.fileType.toLowerCase();
  const missing = new AppError("UNAVAILABLE", missingToolMessage("soffice", `Page images of .${type} files`));
  return pageImageRefusal(missing, source.fileType, details);
};
