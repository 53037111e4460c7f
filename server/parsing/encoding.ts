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
