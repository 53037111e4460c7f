import chardet from "chardet";
import iconv from "iconv-lite";

/** Enough bytes for chardet to be confident; reading the whole file would only cost time on large uploads. */
const SNIFF_BYTES = 64 * 1024;

export type DecodedText = { text: string; encoding: string };

const BOMS: { bytes: number[]; encoding: string }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: "utf-8" },
  { bytes: [0xff, 0xfe], encoding: "utf-16le" },
  { bytes: [0xfe, 0xff], encoding: "utf-16be" },
];

const bomEncoding = (bytes: Uint8Array): { encoding: string; length: number } | null => {
  for (const bom of BOMS) {
    if (bom.bytes.every((b, i) => bytes[i] === b)) return { encoding: bom.encoding, length: bom.bytes.length };
  }
  return null;
};

const isValidUtf8 = (bytes: Uint8Array): boolean => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/** UTF-16 without a BOM is still valid UTF-8 (ASCII plus NULs), so spot it by its NUL bytes first. */
const utf16Guess = (sample: Uint8Array): string | null => {
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2 === 0) evenNul++;
    else oddNul++;
  }
  const half = sample.length / 2;
  if (half < 2) return null;
  if (oddNul / half > 0.3 && evenNul / half < 0.05) return "utf-16le";
  if (evenNul / half > 0.3 && oddNul / half < 0.05) return "utf-16be";
  return null;
};

/**
 * Browsers decode a declared or detected Latin-1 as windows-1252 (WHATWG Encoding), and so do we: the € and curly
 * quotes of Windows files live in 0x80–0x9F, which Latin-1 maps to control characters.
 */
export const normalizeEncodingName = (name: string): string | null => {
  const lower = name.trim().toLowerCase();
  if (lower === "") return null;
  if (["iso-8859-1", "latin1", "latin-1", "us-ascii", "ascii", "iso_8859-1", "l1", "cp819"].includes(lower)) {
    return "windows-1252";
  }
  if (lower === "utf8") return "utf-8";
  return iconv.encodingExists(lower) ? lower : null;
};

const decodeWith = (bytes: Uint8Array, encoding: string): string =>
  encoding === "utf-8" ? new TextDecoder("utf-8").decode(bytes) : iconv.decode(Buffer.from(bytes), encoding);

/**
 * Decode user text: a BOM wins, then a declared encoding (HTML meta), then strict UTF-8, then chardet.
 * Undecodable bytes become U+FFFD rather than failing the document.
 */
export const decodeText = ({ bytes, declared }: { bytes: Uint8Array; declared?: string | null }): DecodedText => {
  const bom = bomEncoding(bytes);
  if (bom) return { text: decodeWith(bytes.subarray(bom.length), bom.encoding), encoding: bom.encoding };

  const sample = bytes.subarray(0, SNIFF_BYTES);
  const utf16 = utf16Guess(sample);
  if (utf16) return { text: decodeWith(bytes, utf16), encoding: utf16 };

  const declaredName = declared ? normalizeEncodingName(declared) : null;
  // A page that declares UTF-8 but is not valid UTF-8 is common (copied files); trust the bytes then.
  if (declaredName && !(declaredName === "utf-8" && !isValidUtf8(bytes))) {
    return { text: decodeWith(bytes, declaredName), encoding: declaredName };
  }

  if (isValidUtf8(bytes)) return { text: decodeWith(bytes, "utf-8"), encoding: "utf-8" };

  const detected = chardet.detect(Buffer.from(sample));
  const encoding = (detected && normalizeEncodingName(detected)) ?? "windows-1252";
  return { text: decodeWith(bytes, encoding), encoding };
};

/** Line endings to \n, and the characters that only confuse splitting (NUL, form feed kept as a break). */
export const normalizeNewlines = (text: string): string =>
  text
    .replace(/\r\n?/g, "\n")
    .replace(/\u0000/g, "")
    .replace(/\f/g, "\n\n");

/** A document's bytes: in memory (small ones), or a file read a chunk at a time (large ones: see streaming.ts). */
export type ByteSource = ({ bytes: Uint8Array; path?: undefined } | { bytes?: undefined; path: string }) & {
  /** Bytes per chunk (READ_CHUNK_BYTES); tests make it small to cut rows and characters between chunks. */
  chunkBytes?: number;
};

/**
 * Bytes read per chunk from a file source. Each chunk's text, rows and elements exist at once in the parse worker:
 * 1 MB instead of 4 MB took 50 MB off its peak on a 20 MB CSV, text or Markdown file, for the same CPU time.
 */
export const READ_CHUNK_BYTES = 1024 * 1024;

/** The source's bytes in order, at most `size` at a time; an in-memory source is cut into views, not copied. */
export async function* byteChunks(source: ByteSource): AsyncGenerator<Uint8Array> {
  const size = source.chunkBytes ?? READ_CHUNK_BYTES;
  if (source.bytes) {
    for (let at = 0; at < source.bytes.byteLength; at += size) yield source.bytes.subarray(at, at + size);
    return;
  }
  const { open } = await import("node:fs/promises");
  const file = await open(/*turbopackIgnore: true*/ source.path, "r");
  try {
    for (;;) {
      const buffer = new Uint8Array(size);
      const { bytesRead } = await file.read(buffer, 0, size, null);
      if (bytesRead === 0) return;
      yield bytesRead === size ? buffer : buffer.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}

/** The first `length` bytes of the source (or all of a shorter one). */
const headOf = async (source: ByteSource, length: number): Promise<Uint8Array> => {
  if (source.bytes) return source.bytes.subarray(0, length);
  const { open } = await import("node:fs/promises");
  const file = await open(/*turbopackIgnore: true*/ source.path, "r");
  try {
    const buffer = new Uint8Array(length);
    const { bytesRead } = await file.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
};

/** isValidUtf8 over the whole source, a chunk at a time. */
const isValidUtf8Stream = async (source: ByteSource): Promise<boolean> => {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    for await (const chunk of byteChunks(source)) decoder.decode(chunk, { stream: true });
    decoder.decode();
    return true;
  } catch {
    return false;
  }
};

/** Decodes chunk by chunk; a character cut between two chunks is joined again (same text as decodeWith). */
async function* decodeChunks(source: ByteSource, encoding: string, skip: number): AsyncGenerator<string> {
  let first = true;
  if (encoding === "utf-8") {
    const decoder = new TextDecoder("utf-8");
    for await (const chunk of byteChunks(source)) {
      const text = decoder.decode(first ? chunk.subarray(skip) : chunk, { stream: true });
      first = false;
      if (text) yield text;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
    return;
  }
  const decoder = iconv.getDecoder(encoding);
  for await (const chunk of byteChunks(source)) {
    const text = decoder.write(Buffer.from(first ? chunk.subarray(skip) : chunk));
    first = false;
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/**
 * decodeText for a source read a chunk at a time: the same encoding decision (BOM, UTF-16 by its NULs, a declared
 * encoding, strict UTF-8 over the whole file, chardet) and the same text, handed out in pieces, so a large file is
 * never one string. Reads a file twice at most (the UTF-8 check, then the text).
 */
export const decodeTextStream = async ({
  source,
  declared,
}: {
  source: ByteSource;
  declared?: string | null;
}): Promise<{ encoding: string; chunks: AsyncGenerator<string>; again: () => AsyncGenerator<string> }> => {
  const { encoding, skip } = await streamEncoding(source, declared);
  return { encoding, chunks: decodeChunks(source, encoding, skip), again: () => decodeChunks(source, encoding, skip) };
};

const streamEncoding = async (
  source: ByteSource,
  declared: string | null | undefined,
): Promise<{ encoding: string; skip: number }> => {
  const sample = await headOf(source, SNIFF_BYTES);
  const bom = bomEncoding(sample);
  if (bom) return { encoding: bom.encoding, skip: bom.length };
  const utf16 = utf16Guess(sample);
  if (utf16) return { encoding: utf16, skip: 0 };
  const declaredName = declared ? normalizeEncodingName(declared) : null;
  const validUtf8 = await isValidUtf8Stream(source);
  if (declaredName && !(declaredName === "utf-8" && !validUtf8)) {
    return { encoding: declaredName, skip: 0 };
  }
  if (validUtf8) return { encoding: "utf-8", skip: 0 };
  const detected = chardet.detect(Buffer.from(sample));
  const encoding = (detected && normalizeEncodingName(detected)) ?? "windows-1252";
  return { encoding, skip: 0 };
};
