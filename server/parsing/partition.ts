import { readFile } from "node:fs/promises";
import { AppError } from "@/server/errors";
import type { VisionModel } from "@/server/providers/vision/types";
import { asParseFailure, nothingRead } from "./failure";
import { methodDisplayName, type InternalMethod } from "./methods.schema";
import type { ByteSource } from "./encoding";
import type { ParsedElement, ParseProviders, PartitionOptions, PartitionResult } from "./types";
import { DEFAULT_PARSE_TIME_BUDGET_MS } from "./time-budget";
import type { SkippedPage } from "./worker/protocol";

/**
 * Parsers are loaded on first use: each build parses in a fresh worker process, and loading every format's
 * libraries (OCR, canvas, spreadsheets) would cost two seconds for a text file.
 */
const pdf = () => import("./pdf");
const office = () => import("./office");
const images = () => import("./images");

/** A parser whose module is imported when first called. */
const lazy =
  <M>(load: () => Promise<M>, pick: (module: M) => Parser): Parser =>
  async (input) =>
    pick(await load())(input);

const partitionText = lazy(
  () => import("./text"),
  (m) => m.partitionText,
);
const partitionMarkdown = lazy(
  () => import("./markdown"),
  (m) => m.partitionMarkdown,
);
const partitionHtml = lazy(
  () => import("./html"),
  (m) => m.partitionHtml,
);
const partitionDelimited = lazy(
  () => import("./delimited"),
  (m) => m.partitionDelimited,
);
const partitionMedia = lazy(
  () => import("./media"),
  (m) => m.partitionMedia,
);
const partitionSubtitleFile = lazy(
  () => import("./media/subtitle-file"),
  (m) => m.partitionSubtitleFile,
);
const partitionEpub = lazy(
  () => import("./epub"),
  (m) => m.partitionEpub,
);
/** The documents a connector fetched (pages of a crawl, files of a repository, captions), parsed as one source. */
const partitionBundle = lazy(
  () => import("./bundle"),
  (m) => m.partitionBundle,
);

export type ParserInput = {
  bytes: Uint8Array;
  fileName: string;
  /** Lower-case extension without the dot. */
  fileType: string;
  method: InternalMethod;
  /** PDF pages to leave out: they ran past the per-page time budget in an earlier attempt (page-watch.ts). */
  skipPages?: readonly SkippedPage[];
  /** The models this parse may call (partitionDocument's options); a parser called directly gets none. */
  vision?: VisionModel | null;
  speech?: ParseProviders["speech"];
  /** See PartitionOptions. */
  timeBudgetMs?: number;
};

/** What partitionDocument takes; Buffers are Uint8Arrays. The extension may come in any case, with or without a dot. */
export type PartitionInput = {
  bytes: Uint8Array;
  fileName: string;
  fileType: string;
  method: InternalMethod;
  skipPages?: readonly SkippedPage[];
};

export type Parser = (input: ParserInput) => PartitionResult | Promise<PartitionResult>;

/**
 * What a method does with a document that has page images (PDF, images, Office through its PDF). Legacy names map
 * to the method they stand for (contract §3); `mai` (manuscripts) reads pages with the vision model when there is
 * one, else with OCR, and says so.
 */
type PageMethod = "fast" | "balanced" | "accurate" | "agentic" | "auto";

const PAGE_METHOD: Record<InternalMethod, PageMethod> = {
  basic: "fast",
  hi_res: "balanced",
  yolox: "balanced",
  ocr: "balanced",
  hi_res_ft: "accurate",
  advanced: "accurate",
  graphorlm: "agentic",
  mai: "agentic",
  auto: "auto",
};

const pageMethodOf = (method: InternalMethod, vision: VisionModel | null | undefined): PageMethod => {
  const wanted = PAGE_METHOD[method];
  if (method === "mai" && !vision) return "balanced";
  return wanted;
};

/** What the PDF path needs of its input besides the bytes. */
type PdfParse = Pick<ParserInput, "method" | "skipPages" | "vision" | "timeBudgetMs">;

/** Every page of a single-method parse read with that method. */
const allPages = (result: PartitionResult, method: string): PartitionResult => ({
  ...result,
  pageMethods:
    result.pageMethods ??
    (result.totalPages
      ? Object.fromEntries(Array.from({ length: result.totalPages }, (_, i) => [i + 1, method]))
      : undefined),
});

import { hasImageObjects, mergeFigures } from "./place";

export { hasImageObjects, mergeFigures };

const parsePdfBytes = async (original: Uint8Array, parse: PdfParse): Promise<PartitionResult> => {
  const { emptySkippedPages } = await import("./pdf/skip-pages");
  const skipped = await emptySkippedPages(original, parse.skipPages);
  const result = await parsePdfPages(skipped.bytes, parse);
  return skipped.warnings.length ? { ...result, warnings: [...skipped.warnings, ...result.warnings] } : result;
};

const parsePdfPages = async (
  bytes: Uint8Array,
  { method, vision, timeBudgetMs }: PdfParse,
): Promise<PartitionResult> => {
  const pageMethod = pageMethodOf(method, vision);
  switch (pageMethod) {
    case "fast":
      return allPages(await (await pdf()).partitionPdf({ bytes }), "fast");
    case "balanced":
    case "accurate": {
      const { partitionPdfTextFirst } = await import("./pdf/text-first");
      const result = await partitionPdfTextFirst({ bytes, method: pageMethod, timeBudgetMs });
      if (method === "mai")
        result.warnings.push(
          "No vision model is configured (VISION_MODEL): mai read the pages as balanced does (text layer, OCR for scans)",
        );
      return allPages(result, pageMethod);
    }
    case "agentic": {
      const { partitionPdfAgentic } = await import("./pdf/agentic");
      return allPages(await partitionPdfAgentic({ bytes, vision, timeBudgetMs }), "agentic");
    }
    case "auto": {
      const { partitionPdfAuto } = await import("./pdf/auto");
      return partitionPdfAuto({ bytes, vision, timeBudgetMs });
    }
  }
};

const parsePdf: Parser = ({ bytes, ...parse }) => parsePdfBytes(bytes, parse);

const parseImage: Parser = async (input) => {
  const pageMethod = pageMethodOf(input.method, input.vision);
  if (pageMethod === "agentic") {
    const [{ decodeImage }, { partitionImageAgentic }] = await Promise.all([
      import("./images/decode"),
      import("./pdf/agentic"),
    ]);
    const { pages } = await decodeImage(input.bytes, input.fileType);
    return allPages(
      await partitionImageAgentic(pages, { vision: input.vision, timeBudgetMs: input.timeBudgetMs }),
      "agentic",
    );
  }
  const result = await (await images()).partitionImage(input);
  return allPages(result, pageMethod === "fast" || input.method === "auto" ? "fast" : pageMethod);
};

/**
 * Office files parse from their structure with fast (and auto, which is for PDFs). The page-image methods read the
 * pages of the PDF LibreOffice makes of them: that is what OCR, table recovery and a vision model need.
 */
const parseOffice: Parser = async (input) => {
  const { convertOfficeToPdf, partitionOffice } = await office();
  if (input.method === "basic" || input.method === "auto") return partitionOffice(input);
  const converted = await convertOfficeToPdf(input.bytes, input.fileType);
  const result = await parsePdfBytes(converted, input);
  result.warnings.unshift(
    `Method '${methodDisplayName(input.method)}' read the pages of the PDF that LibreOffice made of this .${input.fileType} file`,
  );
  for (const element of result.elements) element.metadata = { ...element.metadata, converted_with: "libreoffice" };
  return result;
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

/** One parser per allowed extension (contract §5.2). */
const PARSERS: Record<string, Parser> = {
  txt: sameForEveryMethod(partitionText),
  text: sameForEveryMethod(partitionText),
  md: sameForEveryMethod(partitionMarkdown),
  markdown: sameForEveryMethod(partitionMarkdown),
  html: sameForEveryMethod(partitionHtml),
  htm: sameForEveryMethod(partitionHtml),
  vtt: sameForEveryMethod(partitionSubtitleFile),
  srt: sameForEveryMethod(partitionSubtitleFile),
  bundle: partitionBundle,
  csv: sameForEveryMethod(partitionDelimited),
  tsv: sameForEveryMethod(partitionDelimited),
  pdf: parsePdf,
  doc: parseOffice,
  docx: parseOffice,
  odt: parseOffice,
  ppt: parseOffice,
  pptx: parseOffice,
  xls: parseOffice,
  xlsx: parseOffice,
  ods: parseOffice,
  odp: parseOffice,
  rtf: parseOffice,
  epub: sameForEveryMethod(partitionEpub),
  png: parseImage,
  jpg: parseImage,
  jpeg: parseImage,
  tiff: parseImage,
  tif: parseImage,
  webp: parseImage,
  bmp: parseImage,
  heic: parseImage,
  ...Object.fromEntries(
    ["mp3", "wav", "m4a", "ogg", "flac", "mp4", "mov", "avi", "mkv", "webm"].map((ext) => [
      ext,
      sameForEveryMethod(partitionMedia),
    ]),
  ),
};

/**
 * Parses one document. `options` carries what the caller decides: the models the parse may call (none by default)
 * and its time budget; parsing itself reads no settings.
 */
export const partitionDocument = async (
  { bytes, fileName, fileType, method, skipPages }: PartitionInput,
  { providers, timeBudgetMs = DEFAULT_PARSE_TIME_BUDGET_MS }: PartitionOptions = {},
): Promise<PartitionResult> => {
  const ext = fileType.toLowerCase().replace(/^\./, "");
  const parser = PARSERS[ext];
  if (!parser) throw new AppError("UNPROCESSABLE", `Parsing .${ext} files is not supported`);
  let result: PartitionResult;
  try {
    result = await parser({
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
  if (result.elements.length === 0 || (!hasText && parser !== parseImage)) throw nothingRead(ext, result.warnings);
  return result;
};

export const isParsableFileType = (fileType: string): boolean => fileType.toLowerCase().replace(/^\./, "") in PARSERS;

type StreamParser = (
  input: { source: ByteSource; fileType: string },
  emit: (element: ParsedElement) => Promise<void>,
) => Promise<Omit<PartitionResult, "elements">>;

/** Formats read a chunk at a time (large exports and logs); each gives the elements its whole-file parser gives. */
const STREAM_PARSERS: Record<string, () => Promise<StreamParser>> = {
  txt: async () => (await import("./text")).partitionTextStream,
  text: async () => (await import("./text")).partitionTextStream,
  md: async () => (await import("./markdown")).partitionMarkdownStream,
  markdown: async () => (await import("./markdown")).partitionMarkdownStream,
  csv: async () => (await import("./delimited")).partitionDelimitedStream,
  tsv: async () => (await import("./delimited")).partitionDelimitedStream,
};

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
  const ext = fileType.toLowerCase().replace(/^\./, "");
  const streamed = STREAM_PARSERS[ext];
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
