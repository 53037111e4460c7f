/**
 * Several documents in one byte string, so that a connector source (the pages of a crawl, the files of a
 * repository, a video's captions) is parsed by one worker process under one time and memory limit, like one upload.
 * Layout: the magic line, a 4-byte big-endian header length, the JSON header, then the documents back to back.
 */

const MAGIC = Buffer.from("QUARRY-BUNDLE-1\n", "latin1");

export type BundleEntry = {
  /** A name for warnings and metadata (file path, URL). */
  name: string;
  /**
   * How to read it: an upload extension (pdf, md, vtt ...), "webpage" (main-content extraction of a fetched HTML
   * page) or "code" (source code).
   */
  type: string;
  /** Page of the source the entry's elements get (1-based; one per crawled page or repository file). */
  pageNumber: number | null;
  /** Added to the metadata of every element of the entry (url, path, video facts). */
  metadata: Record<string, unknown>;
  /** A Title element put before the entry's elements (a video's title). */
  title?: string;
  /** For "webpage": the page URL and the charset its Content-Type declared. */
  url?: string;
  charset?: string | null;
  /** For "code": the language of the file. */
  language?: string | null;
};

type HeaderEntry = BundleEntry & { offset: number; length: number };

export const encodeBundle = (documents: { entry: BundleEntry; bytes: Uint8Array }[]): Buffer => {
  let offset = 0;
  const entries: HeaderEntry[] = documents.map(({ entry, bytes }) => {
    const item = { ...entry, offset, length: bytes.byteLength };
    offset += bytes.byteLength;
    return item;
  });
  const header = Buffer.from(JSON.stringify({ entries }), "utf8");
  const size = Buffer.alloc(4);
  size.writeUInt32BE(header.length);
  return Buffer.concat([MAGIC, size, header, ...documents.map((d) => Buffer.from(d.bytes))]);
};

export const decodeBundle = (bytes: Uint8Array): { entry: BundleEntry; bytes: Uint8Array }[] => {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!buffer.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error("not a Quarry bundle");
  const headerLength = buffer.readUInt32BE(MAGIC.length);
  const start = MAGIC.length + 4;
  const { entries } = JSON.parse(buffer.subarray(start, start + headerLength).toString("utf8")) as {
    entries: HeaderEntry[];
  };
  const body = start + headerLength;
  return entries.map(({ offset, length, ...entry }) => {
    if (offset < 0 || length < 0 || body + offset + length > buffer.length) throw new Error("truncated Quarry bundle");
    return { entry, bytes: bytes.subarray(body + offset, body + offset + length) };
  });
};
