import { Readable } from "node:stream";
import { AppError } from "../../errors";
import { DEFAULT_MAX_BYTES, fetchFailure, tooLarge, type Fetcher } from "../fetch";
import { mimeOf, sniffBody, type Sniffed } from "../sniff";

/**
 * One URL fetched and told apart by its first bytes: an HTML page (read whole, within the page cap), a file of an
 * allowed type (left as a stream, so a 100 MB PDF goes to the file store without being held in memory), something
 * else, or an HTTP error (with the start of its body, which may be a challenge page).
 */

/** An HTML page larger than this is no article; it is refused rather than parsed. */
export const MAX_PAGE_BYTES = 10 * 1024 * 1024;
const SNIFF_BYTES = 8192;
const ERROR_BODY_BYTES = 256 * 1024;

type Common = { url: string; status: number; headers: Record<string, string>; hops: string[] };

export type Resource =
  | (Common & { kind: "html"; bytes: Buffer; charset: string | null })
  | (Common & { kind: "file"; fileType: string; mime: string; stream: Readable; contentLength: number | null })
  | (Common & { kind: "unsupported"; what: string })
  | (Common & { kind: "http-error"; bytes: Buffer; charset: string | null });

const charsetOf = (contentType: string | undefined) =>
  /charset\s*=\s*"?([\w:.-]+)/i.exec(contentType ?? "")?.[1] ?? null;

/** Reads from an async iterator until `min` bytes (or the end); the iterator stays usable for the rest. */
const readHead = async (chunks: AsyncIterator<Buffer>, min: number) => {
  const head: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < min) {
    const next = await chunks.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    size += next.value.length;
  }
  return { head: Buffer.concat(head), done };
};

const readRest = async (chunks: AsyncIterator<Buffer>, head: Buffer, max: number, truncate: boolean) => {
  const parts = [head];
  let size = head.length;
  for (;;) {
    const next = await chunks.next();
    if (next.done) break;
    size += next.value.length;
    if (size > max) {
      if (truncate) {
        await chunks.return?.();
        break;
      }
      await chunks.return?.();
      throw tooLarge(max);
    }
    parts.push(next.value);
  }
  return Buffer.concat(parts).subarray(0, max);
};

export const fetchResource = async (
  fetch: Fetcher,
  url: string,
  {
    maxFileBytes = DEFAULT_MAX_BYTES,
    maxPageBytes = MAX_PAGE_BYTES,
    timeoutMs,
  }: {
    maxFileBytes?: number;
    maxPageBytes?: number;
    timeoutMs?: number;
  } = {},
): Promise<Resource> => {
  const response = await fetch.open(url, {
    maxBytes: maxFileBytes,
    timeoutMs,
    headers: { accept: "text/html,application/xhtml+xml,application/pdf;q=0.9,*/*;q=0.8" },
  });
  const common: Common = { url: response.url, status: response.status, headers: response.headers, hops: response.hops };
  const chunks = (response.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  try {
    const charset = charsetOf(response.headers["content-type"]);
    if (response.status >= 400) {
      const { head } = await readHead(chunks, ERROR_BODY_BYTES);
      await chunks.return?.();
      return { ...common, kind: "http-error", bytes: head.subarray(0, ERROR_BODY_BYTES), charset };
    }
    const { head, done } = await readHead(chunks, SNIFF_BYTES);
    const sniffed: Sniffed = sniffBody(head, response.headers["content-type"], response.url);
    if (sniffed.kind === "html") {
      const bytes = done ? head : await readRest(chunks, head, maxPageBytes, false);
      if (bytes.length > maxPageBytes) throw tooLarge(maxPageBytes);
      return { ...common, kind: "html", bytes, charset };
    }
    if (sniffed.kind === "unsupported") {
      await chunks.return?.();
      return { ...common, kind: "unsupported", what: sniffed.what };
    }
    const rest = async function* () {
      yield head;
      if (done) return;
      for (;;) {
        const next = await chunks.next();
        if (next.done) return;
        yield next.value;
      }
    };
    return {
      ...common,
      kind: "file",
      fileType: sniffed.fileType,
      mime: mimeOf(response.headers["content-type"]),
      stream: Readable.from(rest()),
      contentLength: response.contentLength,
    };
  } catch (error) {
    response.body.destroy();
    throw error instanceof AppError ? error : fetchFailure(response.url, error);
  }
};

/** "HTTP 404 Not Found" and the like. */
export const httpStatusText = (status: number) => {
  const names: Record<number, string> = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    410: "Gone",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
  };
  return `HTTP ${status}${names[status] ? ` ${names[status]}` : ""}`;
};
