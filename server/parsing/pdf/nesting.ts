import { inflateSync } from "node:zlib";
import { PDFDocument, PDFName, PDFRawStream, decodePDFRawStream } from "pdf-lib";

/**
 * pdfjs keeps graphics states as a prototype chain, so every `q` (save state) costs as much as the states already
 * open: reading a page of 20,000 nested `q` takes 21 s, and an 800 KB page of 200,000 held a parse for 30 minutes
 * (pdftotext: 0.24 s). Real documents nest a handful of levels (Acrobat's limit is 28). Pages that nest deeper than
 * MAX_Q_DEPTH are emptied before any method (text, OCR, vision, screenshots) walks them, with a warning per page.
 *
 * The check is cheap for ordinary files: one pass over the raw bytes and the inflated streams; pdf-lib parses the
 * document only when a stream is too deep, to find which pages draw it.
 */

export const MAX_Q_DEPTH = 500;
/** Inflated size read per stream: a bomb must not fill memory here either. */
const MAX_STREAM_BYTES = 64 * 1024 * 1024;

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const isBreak = (b: number | undefined) => b === undefined || WHITESPACE.has(b) || DELIMITERS.has(b);

/** Deepest `q` nesting of a content stream (string literals and comments skipped, roughly). */
export const maxQDepth = (data: Uint8Array): number => {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < data.length; i++) {
    const b = data[i]!;
    if (b === 0x25) {
      while (i < data.length && data[i] !== 0x0a && data[i] !== 0x0d) i++; // % comment
    } else if (b === 0x28) {
      // (string), with nesting and escapes
      let open = 1;
      for (i++; i < data.length && open > 0; i++) {
        if (data[i] === 0x5c) i++;
        else if (data[i] === 0x28) open++;
        else if (data[i] === 0x29) open--;
      }
      i--;
    } else if ((b === 0x71 || b === 0x51) && isBreak(data[i - 1]) && isBreak(data[i + 1])) {
      if (b === 0x71) max = Math.max(max, ++depth);
      else depth = Math.max(0, depth - 1);
    }
  }
  return max;
};

const STREAM = /stream\r?\n/g;

/** Every stream's data, inflated when it inflates (other filters are left as they are). */
function* rawStreams(bytes: Uint8Array): Generator<Uint8Array> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  STREAM.lastIndex = 0;
  for (let m = STREAM.exec(text); m; m = STREAM.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf("endstream", start);
    if (end < 0) break;
    const data = bytes.subarray(start, end);
    STREAM.lastIndex = end + "endstream".length;
    try {
      yield inflateSync(data, { maxOutputLength: MAX_STREAM_BYTES });
    } catch {
      yield data;
    }
  }
}

const tooDeep = (bytes: Uint8Array) => {
  for (const data of rawStreams(bytes)) if (maxQDepth(data) > MAX_Q_DEPTH) return true;
  return false;
};

/** The PDF with its too deeply nested pages emptied, and a warning for each; the same bytes when there are none. */
export const emptyTooDeepPages = async (bytes: Uint8Array): Promise<{ bytes: Uint8Array; warnings: string[] }> => {
  if (!tooDeep(bytes)) return { bytes, warnings: [] };
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  } catch {
    return { bytes, warnings: [] }; // pdf-lib cannot read it; pdfjs will report what is wrong
  }
  const warnings: string[] = [];
  doc.getPages().forEach((page, index) => {
    const contents = page.node.Contents();
    const streams = contents ? ("asArray" in contents ? contents.asArray() : [contents]) : [];
    const depth = Math.max(
      0,
      ...streams.map((s) => {
        const stream = doc.context.lookup(s);
        if (!(stream instanceof PDFRawStream)) return 0;
        try {
          return maxQDepth(decodePDFRawStream(stream).decode());
        } catch {
          return 0;
        }
      }),
    );
    if (depth <= MAX_Q_DEPTH) return;
    page.node.set(PDFName.of("Contents"), doc.context.register(doc.context.stream("")));
    warnings.push(`Page ${index + 1} was skipped: its drawing nests ${depth} levels deep (limit ${MAX_Q_DEPTH})`);
  });
  // Form XObjects are drawn from pages by name (`Do`) and can nest just as deep.
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream) || object.dict.get(PDFName.of("Subtype")) !== PDFName.of("Form")) continue;
    let depth = 0;
    try {
      depth = maxQDepth(decodePDFRawStream(object).decode());
    } catch {
      continue;
    }
    if (depth <= MAX_Q_DEPTH) continue;
    const bbox = object.dict.get(PDFName.of("BBox"));
    doc.context.assign(
      ref,
      doc.context.stream("", { Type: "XObject", Subtype: "Form", ...(bbox ? { BBox: bbox } : {}) }),
    );
    warnings.push(`A drawing nesting ${depth} levels deep (limit ${MAX_Q_DEPTH}) was skipped`);
  }
  if (warnings.length === 0) return { bytes, warnings };
  return { bytes: await doc.save({ useObjectStreams: false }), warnings };
};
