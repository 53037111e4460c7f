import Papa from "papaparse";
import { decodeText } from "./encoding";
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

export const partitionDelimited = ({ bytes, fileType }: { bytes: Uint8Array; fileType: string }): PartitionResult => {
  const { text, encoding } = decodeText({ bytes });
  const isTsv = fileType === "tsv";
  // CSV exports from European spreadsheets use ";"; let papaparse guess among the usual separators.
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), {
    delimiter: isTsv ? "\t" : "",
    delimitersToGuess: [",", ";", "\t", "|"],
    skipEmptyLines: "greedy",
  });
  const rows = parsed.data.map(trimRow).filter((r) => r.length > 0);
  // A one-column file has no delimiter to detect; that is not worth a warning.
  const errors = parsed.errors.filter((e) => e.code !== "UndetectableDelimiter");
  const warnings =
    errors.length > 0 ? [`Some rows could not be read cleanly (${errors[0]?.message ?? "malformed quoting"})`] : [];
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
