import type { Element, Source } from "@/server/generated/prisma/client";
import type { BoundingBox, PageLayout } from "@/server/parsing/types";

/** The legacy element shape (contract §2.5): a LangChain-style document whose metadata carries the element. */

/** MIME types of the extensions Quarry accepts (contract §5.2), for the legacy `filetype`. */
const MIME_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  odt: "application/vnd.oasis.opendocument.text",
  txt: "text/plain",
  text: "text/plain",
  md: "text/markdown",
  html: "text/html",
  htm: "text/html",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  tiff: "image/tiff",
  tif: "image/tiff",
  webp: "image/webp",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odp: "application/vnd.oasis.opendocument.presentation",
  epub: "application/epub+zip",
  rtf: "application/rtf",
  bmp: "image/bmp",
  heic: "image/heic",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  ogg: "audio/ogg",
  flac: "audio/flac",
  mp4: "video/mp4",
  mov: "video/quicktime",
  avi: "video/x-msvideo",
  mkv: "video/x-matroska",
  webm: "video/webm",
  vtt: "text/vtt",
  srt: "application/x-subrip",
};

export const mimeTypeOf = (fileType: string): string | null => MIME_TYPES[fileType.toLowerCase()] ?? null;

/** Raster formats: their element boxes are in pixels of the image; every other paged format uses PDF points. */
const PIXEL_SPACE_TYPES = new Set(["png", "jpg", "jpeg", "tiff", "tif", "bmp", "heic", "webp"]);

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

const asBox = (v: unknown): BoundingBox | null => {
  const b = v as Partial<BoundingBox> | null;
  return b && isNumber(b.left) && isNumber(b.top) && isNumber(b.width) && isNumber(b.height)
    ? (b as BoundingBox)
    : null;
};

const asLayout = (v: unknown): PageLayout | null => {
  const l = v as Partial<PageLayout> | null;
  return l && isNumber(l.width) && isNumber(l.height) ? (l as PageLayout) : null;
};

/**
 * Unstructured's coordinates: the box's corners from top-left, counter-clockwise as drawn on screen (top-left,
 * bottom-left, bottom-right, top-right), with the size of the space they live in.
 */
const coordinatesOf = (element: Pick<Element, "boundingBox" | "pageLayout">, fileType: string) => {
  const box = asBox(element.boundingBox);
  if (!box) return null;
  const layout = asLayout(element.pageLayout);
  const right = box.left + box.width;
  const bottom = box.top + box.height;
  return {
    points: [
      [box.left, box.top],
      [box.left, bottom],
      [right, bottom],
      [right, box.top],
    ],
    system: PIXEL_SPACE_TYPES.has(fileType.toLowerCase()) ? "PixelSpace" : "PointSpace",
    layout_width: layout?.width ?? null,
    layout_height: layout?.height ?? null,
  };
};

const languagesOf = (metadata: unknown): string[] => {
  const value = (metadata as { languages?: unknown } | null)?.languages;
  return Array.isArray(value) ? value.filter((l): l is string => typeof l === "string") : [];
};

export const toLegacyElementDto = (
  element: Omit<Element, "imgBase64">,
  source: Pick<Source, "fileName" | "fileType" | "createdAt">,
) => ({
  id: null,
  page_content: element.text,
  type: "Document" as const,
  metadata: {
    element_id: element.elementId,
    element_type: element.elementType,
    page_number: element.pageNumber,
    position: element.position,
    filename: source.fileName,
    filetype: mimeTypeOf(source.fileType),
    languages: languagesOf(element.metadata),
    // The upload time: the file's own modification time is not sent with an upload.
    last_modified: source.createdAt.toISOString(),
    text_as_html: element.html,
    coordinates: coordinatesOf(element, source.fileType),
  },
});
