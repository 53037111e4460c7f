import Papa from "papaparse";
import { Readable } from "node:stream";
import { decodeText, decodeTextStream, type ByteSource } from "./encoding";
import { rowsToHtml, rowsToText } from "./table-html";
import type { ParsedElement, PartitionResult } from "./types";

/** Rows per Table element: big sheets become several tables (each with the header) so no element is unbounded. */
export const MAX_TABLE_ROWS = 200;

/** Trailing empty cells (from "a,b,," exports) carry nothing; columns stay aligned because only the tail goes. */
const trimRow = (row: string[]): string[] => {
  let end = row.length;
  while (end > 0 && (row[end - 1] ?? "").trim() === "") end--;
  return row.slice(0, end).map((c) => c.trim());
};

const PARSE_CONFIG = (fileType: string) => ({
  delimiter: fileType === "tsv" ? "\t" : "",
  // CSV exports from European spreadsheets use ";"; let papaparse guess among the usual separators.
  delimitersToGuess: [",", ";", "\t", "|"],
  skipEmptyLines: "greedy" as const,
});

/** Papa strips one byte order mark itself; the text may start with one more (as before, both go). */
const stripBoms = (text: string) => text.replace(/^\uFEFF/, "").replace(/^\uFEFF/, "");

/** Rows of one piece of the file, with what papaparse found while reading them. */
type RowBatch = { rows: string[][]; errors: Papa.ParseError[]; delimiter: string };

/**
 * The file's rows a batch at a time (one batch per decoded chunk of the file), parsed by papaparse as it parses a
 * stream: a row cut between two chunks is joined again, the delimiter is guessed from the first chunk (papaparse looks
 * at 10 rows and the first megabyte), so the rows are those of parsing the whole text at once. The next chunk is read
 * only once the caller took the last batch: at most one chunk's rows exist at a time.
 */
async function* rowBatches(chunks: AsyncGenerator<string>, fileType: string): AsyncGenerator<RowBatch> {
  const batches: RowBatch[] = [];
  let done = false;
  let failure: unknown = null;
  // One waiter each: the reader waits for the caller to take the batches, the caller for a batch to arrive.
  let readerWaits: (() => void) | null = null;
  let callerWaits: (() => void) | null = null;
  const wakeReader = () => {
    readerWaits?.();
    readerWaits = null;
  };
  const wakeCaller = () => {
    callerWaits?.();
    callerWaits = null;
  };
  let first = true;
  const input = new Readable({
    encoding: "utf8",
    read() {
      const pull = async () => {
        while (batches.length > 0) await new Promise<void>((resolve) => (readerWaits = resolve));
        for (;;) {
          const next = await chunks.next();
          if (next.done) return void this.push(null);
          const text = first ? stripBoms(next.value) : next.value;
          first = false;
          // An empty string would read as the end of the stream.
          if (text !== "") return void this.push(text);
        }
      };
      pull().catch((error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))));
    },
  });
  input.on("error", (error) => {
    failure = error;
    done = true;
    wakeCaller();
  });
  Papa.parse<string[]>(input, {
    ...PARSE_CONFIG(fileType),
    chunk: (results) => {
      batches.push({ rows: results.data, errors: results.errors, delimiter: results.meta.delimiter });
      wakeCaller();
    },
    complete: () => {
      done = true;
      wakeCaller();
    },
  });
  for (;;) {
    const batch = batches.shift();
    if (batch) {
      wakeReader();
      yield batch;
      continue;
    }
    if (done) break;
    await new Promise<void>((resolve) => (callerWaits = resolve));
  }
  if (failure) throw failure;
}

/** What the first pass learns: the table's width (the widest row), its row count, the first parse error. */
type Shape = { width: number; rows: number; warning: string | null; delimiter: string };

const warningOf = (errors: Papa.ParseError[]) => {
  // A one-column file has no delimiter to detect; that is not worth a warning.
  const error = errors.find((e) => e.code !== "UndetectableDelimiter");
  return error ? `Some rows could not be read cleanly (${error.message ?? "malformed quoting"})` : null;
};

/**
 * Table elements of MAX_TABLE_ROWS rows each, the header repeated in each, every row padded to the widest row of
 * the file. Rows arrive in batches; one table's rows are held at a time.
 */
const tableMaker = (shape: Shape, encoding: string, emit: (element: ParsedElement) => Promise<void>) => {
  let header: string[] | null = null;
  let body: string[][] = [];
  let start = 0;
  const pad = (r: string[]) => [...r, ...Array<string>(shape.width - r.length).fill("")];
  const flush = async () => {
    const slice = [header!, ...body];
    const element: ParsedElement = {
      type: "Table",
      text: rowsToText(slice),
      html: rowsToHtml({ rows: slice, headerRows: 1 }),
      pageNumber: null,
      metadata: {
        encoding,
        delimiter: shape.delimiter,
        row_start: start + 1,
        row_end: start + slice.length - 1,
        header_repeated: start > 0,
      },
    };
    start += MAX_TABLE_ROWS;
    body = [];
    await emit(element);
  };
  return {
    add: async (row: string[]) => {
      if (!header) {
        header = pad(row);
        return;
      }
      body.push(pad(row));
      if (body.length === MAX_TABLE_ROWS) await flush();
    },
    /** The last, partial table; a file of only a header still makes one table. */
    end: async () => {
      if (header && (body.length > 0 || start === 0)) await flush();
    },
  };
};

/**
 * A CSV or TSV file, streamed: the file is read twice a chunk at a time (the width of the widest row first, then the
 * tables), so a 100 MB export never sits in memory as one string or one array of rows. The elements are those of
 * partitionDelimited, handed to `emit` one at a time in order.
 */
export const partitionDelimitedStream = async (
  { source, fileType }: { source: ByteSource; fileType: string },
  emit: (element: ParsedElement) => Promise<void>,
): Promise<Omit<PartitionResult, "elements">> => {
  const decoded = await decodeTextStream({ source });
  const shape: Shape = { width: 0, rows: 0, warning: null, delimiter: "" };
  for await (const batch of rowBatches(decoded.chunks, fileType)) {
    shape.warning ??= warningOf(batch.errors);
    shape.delimiter ||= batch.delimiter;
    for (const raw of batch.rows) {
      const row = trimRow(raw);
      if (row.length === 0) continue;
      shape.rows += 1;
      shape.width = Math.max(shape.width, row.length);
    }
  }
  const warnings = shape.warning ? [shape.warning] : [];
  if (shape.rows === 0) return { totalPages: null, warnings };
  const tables = tableMaker(shape, decoded.encoding, emit);
  for await (const batch of rowBatches(decoded.again(), fileType)) {
    for (const raw of batch.rows) {
      const row = trimRow(raw);
      if (row.length > 0) await tables.add(row);
    }
  }
  await tables.end();
  return { totalPages: null, warnings };
};

export const partitionDelimited = ({ bytes, fileType }: { bytes: Uint8Array; fileType: string }): PartitionResult => {
  const { text, encoding } = decodeText({ bytes });
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), PARSE_CONFIG(fileType));
  const rows = parsed.data.map(trimRow).filter((r) => r.length > 0);
  const warning = warningOf(parsed.errors);
  const warnings = warning ? [warning] : [];
  if (rows.length === 0) return { elements: [], totalPages: null, warnings };

  const width = rows.reduce((n, r) => Math.max(n, r.length), 0);
  const padded = rows.map((r) => [...r, ...Array<string>(width - r.length).fill("")]);
  const [header, ...body] = padded;
  if (!header) return { elements: [], totalPages: null, warnings };

  const elements: ParsedElement[] = [];
  const delimiter = parsed.meta.delimiter;
  for (let start = 0; start < Math.max(body.length, 1); start += MAX_TABLE_ROWS) {
    const slice = [header, ...body.slice(start, start + MAX_TABLE_ROWS)];
    elements.push({
      type: "Table",
      text: rowsToText(slice),
      html: rowsToHtml({ rows: slice, headerRows: 1 }),
      pageNumber: null,
      metadata: {
        encoding,
        delimiter,
        row_start: start + 1,
        row_end: start + slice.length - 1,
        header_repeated: start > 0,
      },
    });
  }
  return { elements, totalPages: null, warnings };
};
