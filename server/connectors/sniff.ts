import { extensionOf, isAllowedExtension } from "../sources/sources.schema";

/**
 * What a fetched body really is. The Content-Type header and the URL's extension are hints a server (or an
 * attacker) controls, so the first bytes decide whenever they can: a ".pdf" link that answers with an HTML login
 * page is an HTML page, and a "text/html" answer that starts with %PDF- is a PDF.
 */

export type Sniffed =
  /** An HTML page (the web connector reads it as a page, not as an uploaded .html file). */
  | { kind: "html" }
  /** A file of an allowed upload type, parsed exactly like an upload. */
  | { kind: "file"; fileType: string }
  /** Anything else; `what` names it for the refusal ("image/gif", ".zip"). */
  | { kind: "unsupported"; what: string };

const CONTENT_TYPES: Record<string, string> = {
  "application/pdf": "pdf",
  "application/msword": "doc",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.oasis.opendocument.text": "odt",
  "application/vnd.ms-powerpoint": "ppt",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
  "application/vnd.ms-excel": "xls",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "text/plain": "txt",
  "text/markdown": "md",
  "text/x-markdown": "md",
  "text/csv": "csv",
  "text/tab-separated-values": "tsv",
  "text/vtt": "vtt",
  "application/x-subrip": "srt",
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/tiff": "tiff",
  "image/bmp": "bmp",
  "image/heic": "heic",
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "audio/ogg": "ogg",
  "audio/flac": "flac",
  "video/mp4": "mp4",
  "video/quicktime": "mov",
  "video/x-msvideo": "avi",
  "video/x-matroska": "mkv",
  "video/webm": "webm",
};

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);

/** Extensions of pages rendered by a server: they say nothing about the answer's type. */
const PAGE_EXTENSIONS = new Set([
  "html",
  "htm",
  "xhtml",
  "shtml",
  "php",
  "asp",
  "aspx",
  "jsp",
  "jspx",
  "cfm",
  "cgi",
  "pl",
]);

export const mimeOf = (contentType: string | undefined) => (contentType ?? "").split(";")[0]!.trim().toLowerCase();

/** The extension of a URL's last path segment ("" when it has none). */
export const urlExtension = (url: string | URL) => {
  const path = typeof url === "string" ? new URL(url).pathname : url.pathname;
  return extensionOf(decodeURIComponent(path.split("/").pop() ?? "").replace(/[\\/]/g, ""));
};

/**
 * Request-time judgement from the URL alone: a path ending in an allowed file extension is a file, one ending in
 * another file extension is refused, anything else (no extension, .html, .php ...) is a page to look at.
 */
export const judgeUrlPath = (url: URL): Sniffed | null => {
  const ext = urlExtension(url);
  if (!ext || PAGE_EXTENSIONS.has(ext)) return null;
  if (isAllowedExtension(ext)) return { kind: "file", fileType: ext === "jpeg" ? "jpeg" : ext };
  // Version-like or domain-like "extensions" (/v1.2, /example.com) are not file types.
  if (!/^[a-z][a-z0-9]{0,4}$/.test(ext)) return null;
  return { kind: "unsupported", what: `.${ext}` };
};

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  Buffer.from(bytes.subarray(start, end)).toString("latin1");

const startsWith = (bytes: Uint8Array, ...values: number[]) => values.every((v, i) => bytes[i] === v);

/** Office Open XML and OpenDocument are ZIPs; the first entry names tell them apart. */
const zipType = (bytes: Uint8Array, hint: string | null): string | null => {
  if (hint && ["docx", "xlsx", "pptx", "odt"].includes(hint)) return hint;
  const head = ascii(bytes, 0, Math.min(bytes.length, 8192));
  if (head.includes("mimetypeapplication/vnd.oasis.opendocument.text")) return "odt";
  if (head.includes("word/")) return "docx";
  if (head.includes("xl/")) return "xlsx";
  if (head.includes("ppt/")) return "pptx";
  return null;
};

/** Type by magic number, or null when the bytes carry none (text, or a format we don't know). */
const magicType = (bytes: Uint8Array, hint: string | null): string | null => {
  const head4 = ascii(bytes, 0, 4);
  if (ascii(bytes, 0, 5) === "%PDF-") return "pdf";
  if (startsWith(bytes, 0x89, 0x50, 0x4e, 0x47)) return "png";
  if (startsWith(bytes, 0xff, 0xd8, 0xff)) return hint === "jpeg" ? "jpeg" : "jpg";
  if (head4 === "II*\0" || head4 === "MM\0*") return hint === "tif" ? "tif" : "tiff";
  if (head4 === "GIF8") return "gif";
  if (head4 === "RIFF") {
    const form = ascii(bytes, 8, 12);
    if (form === "WAVE") return "wav";
    if (form === "AVI ") return "avi";
    if (form === "WEBP") return "webp";
    return "riff";
  }
  if (ascii(bytes, 4, 8) === "ftyp") {
    const brand = ascii(bytes, 8, 12);
    if (["heic", "heix", "mif1", "msf1"].includes(brand)) return "heic";
    if (brand === "qt  ") return "mov";
    if (brand.startsWith("M4A")) return "m4a";
    return hint && ["mp4", "m4a", "mov"].includes(hint) ? hint : "mp4";
  }
  if (startsWith(bytes, 0x1a, 0x45, 0xdf, 0xa3)) return ascii(bytes, 0, 64).includes("webm") ? "webm" : "mkv";
  if (head4 === "OggS") return "ogg";
  if (head4 === "fLaC") return "flac";
  if (ascii(bytes, 0, 3) === "ID3" || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0 && hint === "mp3"))
    return "mp3";
  if (startsWith(bytes, 0x50, 0x4b, 0x03, 0x04)) return zipType(bytes, hint) ?? "zip";
  if (startsWith(bytes, 0xd0, 0xcf, 0x11, 0xe0)) return hint && ["doc", "xls", "ppt"].includes(hint) ? hint : "ole";
  if (startsWith(bytes, 0x1f, 0x8b)) return "gz";
  if (startsWith(bytes, 0x42, 0x4d) && hint === "bmp") return "bmp";
  return null;
};

/** Control characters other than whitespace (and NUL above all) mean binary. */
const looksBinary = (bytes: Uint8Array) => {
  const n = Math.min(bytes.length, 8192);
  let odd = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === 0) return true;
    if (b < 9 || (b > 13 && b < 32)) odd++;
  }
  return n > 0 && odd / n > 0.02;
};

const HTML_START =
  /^(?:\s|<!--[\s\S]*?-->|<\?xml[^>]*>)*<(?:!doctype\s+html|html|head|body|title|meta|script|style|div|p|h1|link)\b/i;

/** Decides what a body is from its first bytes, its Content-Type and its URL. */
export const sniffBody = (bytes: Uint8Array, contentType: string | undefined, url: string): Sniffed => {
  const mime = mimeOf(contentType);
  const fromUrl = (() => {
    try {
      return urlExtension(url);
    } catch {
      return "";
    }
  })();
  const hint = CONTENT_TYPES[mime] ?? (isAllowedExtension(fromUrl) ? fromUrl : null);
  const magic = magicType(bytes, hint);
  if (magic) {
    if (isAllowedExtension(magic)) return { kind: "file", fileType: magic };
    return { kind: "unsupported", what: mime || `.${magic}` };
  }
  if (looksBinary(bytes)) return { kind: "unsupported", what: mime || (fromUrl ? `.${fromUrl}` : "binary data") };
  const text = Buffer.from(bytes.subarray(0, 4096))
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  if (HTML_TYPES.has(mime) || HTML_START.test(text)) {
    // A server that says text/plain or text/markdown means it, even when the text starts with a tag.
    if (hint && ["txt", "md", "csv", "tsv", "vtt", "srt"].includes(hint) && !HTML_TYPES.has(mime)) {
      return { kind: "file", fileType: hint };
    }
    return { kind: "html" };
  }
  if (hint && ["txt", "text", "md", "csv", "tsv", "vtt", "srt"].includes(hint)) return { kind: "file", fileType: hint };
  if (/^WEBVTT\b/.test(text)) return { kind: "file", fileType: "vtt" };
  if (mime.startsWith("text/") || (!mime && !fromUrl)) return { kind: "file", fileType: "txt" };
  return { kind: "unsupported", what: mime || `.${fromUrl}` };
};
