import { readFile } from "node:fs/promises";
import { AppError } from "@/server/errors";
import { asParseFailure, nothingRead } from "./failure";
import { FILE_FORMATS, isParsedExtension, type FileFormat } from "./formats.schema";
import { methodDisplayName, type InternalMethod } from "./methods.schema";
import type { ByteSource } from "./encoding";
import { parseImage, parseOffice, parsePdf } from "./page-formats";
import type {
  ParsedElement,
  Parser,
  PartitionDocument,
  PartitionInput,
  PartitionOptions,
  PartitionResult,
  StreamParser,
} from "./types";
import { DEFAULT_PARSE_TIME_BUDGET_MS } from "./time-budget";

export { hasImageObjects, mergeFigures } from "./place";

/**
 * The parsers, one per format of formats.schema.ts (typed by it: a new format does not compile until it has one).
 * Their modules are imported on first use: each build parses in a fresh worker process, and loading every format's
 * libraries (OCR, canvas, spreadsheets) costs a text file seconds (measured with tsx: every parser module 4.0-4.5 s and
 * 160 MB, partition and text alone 1.1-1.2 s and 85 MB). Nothing they import leads back here, so this is no cycle.
 */
type FormatParser = {
  parse: Parser;
  /** Reads a chunk at a time (large exports and logs), giving the elements `parse` gives. */
  stream?: () => Promise<StreamParser>;
  /** A picture without text is still kept (one Image element with a warning); other formats fail with the reason. */
  keptWithoutText?: boolean;
};

const sameMethodWarning = (method: InternalMethod, fileType: string) =>
  `Method '${methodDisplayName(method)}' applies to page images; .${fileType} files are read from their content, as with fast`;

/** Text and media formats have no page images: every method reads them the same way, and a build says so. */
const sameForEveryMethod =
  (parser: Parser): Parser =>
  async (input) => {
    const result = await parser(input);
    if (input.method !== "basic" && input.method !== "auto") {
      result.warnings.push(sameMethodWarning(input.method, input.fileType));
    }
    return result;
  };

const PARSERS: Record<FileFormat, FormatParser> = {
  text: {
    parse: sameForEveryMethod(async (input) => (await import("./text")).partitionText(input)),
    stream: async () => (await import("./text")).partitionTextStream,
  },
  markdown: {
    parse: sameForEveryMethod(async (input) => (await import("./markdown")).partitionMarkdown(input)),
    stream: async () => (await import("./markdown")).partitionMarkdownStream,
  },
  html: { parse: sameForEveryMethod(async (input) => (await import("./html")).partitionHtml(input)) },
  subtitles: {
    parse: sameForEveryMethod(async (input) => (await import("./media/subtitle-file")).partitionSubtitleFile(input)),
  },
  delimited: {
    parse: sameForEveryMethod(async (input) => (await import("./delimited")).partitionDelimited(input)),
    stream: async () => (await import("./delimited")).partitionDelimitedStream,
  },
  epub: { parse: sameForEveryMethod(async (input) => (await import("./epub")).partitionEpub(input)) },
  media: { parse: sameForEveryMethod(async (input) => (await import("./media")).partitionMedia(input)) },
  pdf: { parse: parsePdf },
  office: { parse: parseOffice },
  image: { parse: parseImage, keptWithoutText: true },
  /** The documents a connector fetched (pages of a crawl, files of a repository, captions), parsed as one source. */
  bundle: { parse: async (input) => (await import("./bundle")).partitionBundle(input, partitionDocument) },
};

/** The parser of an extension in any case, with or without its dot. */
const formatOf = (fileType: string) => {
  const ext = fileType.toLowerCase().replace(/^\./, "");
  return { ext, format: isParsedExtension(ext) ? PARSERS[FILE_FORMATS[ext]] : undefined };
};

/**
 * Parses one document. `options` carries what the caller decides: the models the parse may call (none by default)
 * and its time budget; parsing itself reads no settings.
 */
export const partitionDocument: PartitionDocument = async (
  { bytes, fileName, fileType, method, skipPages }: PartitionInput,
  { providers, timeBudgetMs = DEFAULT_PARSE_TIME_BUDGET_MS }: PartitionOptions = {},
): Promise<PartitionResult> => {
  const { ext, format } = formatOf(fileType);
  if (!format) throw new AppError("UNPROCESSABLE", `Parsing .${ext} files is not supported`);
  let result: PartitionResult;
  try {
    result = await format.parse({
      bytes,
      fileName,
      fileType: ext,
      method,
      skipPages,
      vision: providers?.vision ?? null,
      speech: providers?.speech ?? null,
      timeBudgetMs,
    });
  } catch (error) {
    throw asParseFailure(error, ext);
  }
  // A document that yields no text at all fails with the reason, instead of completing with nothing to search (a
  // blank or unreadable scan leaves only page pictures). An image file is the exception: it is a picture, and a
  // picture without text is still kept, as one Image element with a warning.
  const hasText = result.elements.some((e) => e.text.trim() !== "");
  if (result.elements.length === 0 || (!hasText && !format.keptWithoutText)) throw nothingRead(ext, result.warnings);
  return result;
};

export const isParsableFileType = (fileType: string): boolean => formatOf(fileType).format !== undefined;

/**
 * partitionDocument for a document in memory or in a file, its elements handed to `emit` one at a time in order
 * instead of returned: text, Markdown, CSV and TSV are read a chunk at a time, so a 100 MB file is never one string
 * nor one array of elements; other formats are parsed whole, as partitionDocument parses them. Returns the rest of
 * the result. A document without any text fails as with partitionDocument (after its elements were emitted: the
 * caller drops them).
 */
export const partitionDocumentStream = async (
  { source, fileName, fileType, method, skipPages }: Omit<PartitionInput, "bytes"> & { source: ByteSource },
  options: PartitionOptions,
  emit: (element: ParsedElement) => Promise<void>,
): Promise<Omit<PartitionResult, "elements"> & { elementCount: number }> => {
  const { ext, format } = formatOf(fileType);
  const streamed = format?.stream;
  if (!streamed) {
    const bytes = source.bytes ?? new Uint8Array(await readFile(/*turbopackIgnore: true*/ source.path));
    const { elements, ...rest } = await partitionDocument({ bytes, fileName, fileType, method, skipPages }, options);
    for (let i = 0; i < elements.length; i++) {
      await emit(elements[i]!);
      // Handed on: not kept here until the last one is.
      (elements as (ParsedElement | undefined)[])[i] = undefined;
    }
    return { ...rest, elementCount: elements.length };
  }
  let count = 0;
  let hasText = false;
  let emitFailed = false;
  const counted = async (element: ParsedElement) => {
    count += 1;
    hasText ||= element.text.trim() !== "";
    try {
      await emit(element);
    } catch (error) {
      emitFailed = true;
      throw error;
    }
  };
  let result: Omit<PartitionResult, "elements">;
  try {
    result = await (await streamed())({ source, fileType: ext }, counted);
  } catch (error) {
    throw emitFailed ? error : asParseFailure(error, ext);
  }
  const warnings = [...result.warnings];
  if (method !== "basic" && method !== "auto") warnings.push(sameMethodWarning(method, ext));
  if (count === 0 || !hasText) throw nothingRead(ext, warnings);
  return { ...result, warnings, elementCount: count };
};
