import { describeFailure } from "./failure";
import { AppError } from "@/server/errors";
import { decodeBundle, type BundleEntry } from "./bundle-format";
import type { InternalMethod } from "./methods.schema";
import type { ParsedElement, PartitionDocument, PartitionOptions, PartitionResult } from "./types";

/**
 * Parses the documents of a connector source (bundle-format.ts) into one element list: each document with the
 * parser an upload of its type gets, its elements moved to the document's page of the source (the page inside a
 * PDF is kept as `document_page_number`), and the document's metadata (url, path, video facts) on every element.
 * A document that fails is skipped with a warning; only a bundle where nothing could be read fails.
 *
 * The parse of each document is partition.ts's partitionDocument, passed in: partition.ts dispatches bundles here,
 * so importing it back would make a cycle.
 */

const parseEntry = async (
  partitionDocument: PartitionDocument,
  entry: BundleEntry,
  bytes: Uint8Array,
  method: InternalMethod,
  options: PartitionOptions,
): Promise<PartitionResult> => {
  if (entry.type === "webpage") {
    const { partitionWebPage } = await import("./web-page");
    return partitionWebPage({ bytes, url: entry.url ?? entry.name, charset: entry.charset });
  }
  if (entry.type === "code") {
    const { partitionCode } = await import("./code");
    return partitionCode({ bytes, language: entry.language ?? null });
  }
  return partitionDocument({ bytes, fileName: entry.name, fileType: entry.type, method }, options);
};

const mostCommon = (values: string[]) => {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
};

/** The same warning from many documents (a method note on 300 Markdown files) is reported once, with a count. */
const groupWarnings = (warnings: { text: string; name: string }[]) => {
  const byText = new Map<string, string[]>();
  for (const w of warnings) byText.set(w.text, [...(byText.get(w.text) ?? []), w.name]);
  return [...byText.entries()].map(([text, names]) =>
    names.length === 1
      ? `${names[0]}: ${text}`
      : `${text} (${names.length} documents: ${names.slice(0, 3).join(", ")}${names.length > 3 ? ", …" : ""})`,
  );
};

/** `vision`, `speech` and `timeBudgetMs` go to the parse of each document (partitionDocument's options). */
export const partitionBundle = async (
  {
    bytes,
    method,
    vision,
    speech,
    timeBudgetMs,
  }: {
    bytes: Uint8Array;
    method: InternalMethod;
  } & NonNullable<PartitionOptions["providers"]> &
    Pick<PartitionOptions, "timeBudgetMs">,
  partitionDocument: PartitionDocument,
): Promise<PartitionResult> => {
  const documents = decodeBundle(bytes);
  const elements: ParsedElement[] = [];
  const warnings: { text: string; name: string }[] = [];
  const pageMethods: Record<number, string> = {};
  const failures: string[] = [];
  for (const { entry, bytes: documentBytes } of documents) {
    let result: PartitionResult;
    try {
      result = await parseEntry(partitionDocument, entry, documentBytes, method, {
        providers: { vision, speech },
        timeBudgetMs,
      });
    } catch (error) {
      failures.push(`${entry.name}: ${describeFailure(error)}`);
      warnings.push({ name: entry.name, text: `could not be parsed (${describeFailure(error)})` });
      continue;
    }
    for (const text of result.warnings) warnings.push({ name: entry.name, text });
    if (entry.pageNumber !== null && result.pageMethods) {
      const used = mostCommon(Object.values(result.pageMethods));
      if (used) pageMethods[entry.pageNumber] = used;
    }
    if (entry.title && result.elements.length > 0) {
      elements.push({
        type: "Title",
        text: entry.title,
        pageNumber: entry.pageNumber,
        metadata: { ...entry.metadata, category_depth: 1 },
      });
    }
    for (const element of result.elements) {
      const inner = element.pageNumber;
      elements.push({
        ...element,
        pageNumber: entry.pageNumber ?? inner,
        metadata: {
          ...element.metadata,
          ...(inner !== null && entry.pageNumber !== null ? { document_page_number: inner } : {}),
          ...entry.metadata,
        },
      });
    }
  }
  if (elements.length === 0) {
    throw new AppError(
      "UNPROCESSABLE",
      failures.length
        ? `Nothing could be read: ${failures.slice(0, 3).join("; ")}`
        : "Nothing could be read: the fetched content holds no text",
    );
  }
  const paged = documents.some((d) => d.entry.pageNumber !== null);
  return {
    elements,
    totalPages: paged ? documents.length : null,
    warnings: groupWarnings(warnings),
    ...(Object.keys(pageMethods).length ? { pageMethods } : {}),
  };
};
