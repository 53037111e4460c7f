import type { SpeechModel } from "@/server/providers/speech/types";
import type { VisionModel } from "@/server/providers/vision/types";
import type { ByteSource } from "./encoding";
import type { InternalMethod } from "./methods.schema";

/**
 * What every parser produces. Field names follow the public Element (contract §2.4) in camelCase; the mapper that
 * stores elements adds ids, positions and file metadata.
 */

export const ELEMENT_TYPES = [
  "Title",
  "NarrativeText",
  "TextBlock",
  "ListItem",
  "Table",
  "TableRow",
  "Image",
  "Footer",
  "Formula",
  "CompositeElement",
  "FigureCaption",
  "PageBreak",
  "Address",
  "EmailAddress",
  "PageNumber",
  "CodeSnippet",
  "Header",
  "FormKeysValues",
  "Link",
  "UncategorizedText",
  "Abstract",
  "AsideText",
  "Reference",
  "ReferenceContent",
  "Chart",
  "Seal",
  "FormulaNumber",
] as const;

export type ElementType = (typeof ELEMENT_TYPES)[number];

export const isElementType = (value: string): value is ElementType =>
  (ELEMENT_TYPES as readonly string[]).includes(value);

/** Page coordinates in PDF points, origin at the top-left corner of the (rotated) page as a reader sees it. */
export type BoundingBox = { left: number; top: number; width: number; height: number };

export type PageLayout = { width: number; height: number };

export type ParsedElement = {
  type: ElementType;
  text: string;
  markdown?: string | null;
  html?: string | null;
  /** 1-based; null for formats without pages (txt, md, html, csv). */
  pageNumber: number | null;
  boundingBox?: BoundingBox | null;
  pageLayout?: PageLayout | null;
  /** PNG (or the source's own image bytes), base64, for Image / figure elements. */
  imgBase64?: string | null;
  metadata?: Record<string, unknown>;
};

export type PartitionResult = {
  elements: ParsedElement[];
  /** Page count of paged formats (PDF), null otherwise. */
  totalPages: number | null;
  /** Things a person should know about this parse (skipped pages, truncation); never fatal. */
  warnings: string[];
  /**
   * Which method read each page (1-based page number → v2 method name), for formats with pages. `auto` routes page
   * by page, and a build reports the result so a user can see how each page was read.
   */
  pageMethods?: Record<number, string>;
};

/**
 * The models a parse may call. Parsing reads no settings: its caller (the build's partition step) passes what the
 * deployment configures, null for none, and a method that needs a missing model says which setting to fill in.
 */
export type ParseProviders = { vision: VisionModel | null; speech: SpeechModel | null };

export type PartitionOptions = {
  /** Absent ones are null. */
  providers?: Partial<ParseProviders>;
  /**
   * How long page-by-page reading (OCR, a vision model) may run before it stops with the pages read so far and a
   * warning; default: 80% of the default parse time limit (time-budget.ts).
   */
  timeBudgetMs?: number;
};

/** A PDF page left out (with the reason) because reading it overran the per-page budget before (page-watch.ts). */
export type SkippedPage = { page: number; reason: string };

/** What partitionDocument takes; Buffers are Uint8Arrays. The extension may come in any case, with or without a dot. */
export type PartitionInput = {
  bytes: Uint8Array;
  fileName: string;
  fileType: string;
  method: InternalMethod;
  skipPages?: readonly SkippedPage[];
};

/** Parses one document: partition.ts's partitionDocument, handed to the bundle parser for each of its documents. */
export type PartitionDocument = (input: PartitionInput, options?: PartitionOptions) => Promise<PartitionResult>;

/** What each format's parser gets from partitionDocument. */
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

export type Parser = (input: ParserInput) => PartitionResult | Promise<PartitionResult>;

/** A parser that reads a document a chunk at a time, handing each element on as it is read. */
export type StreamParser = (
  input: { source: ByteSource; fileType: string },
  emit: (element: ParsedElement) => Promise<void>,
) => Promise<Omit<PartitionResult, "elements">>;
