import { AppError } from "@/server/errors";
import { partitionDelimited } from "./delimited";
import { partitionHtml } from "./html";
import { partitionMarkdown } from "./markdown";
import { methodDisplayName, type InternalMethod } from "./methods.schema";
import { partitionPdf } from "./pdf";
import { partitionText } from "./text";
import type { PartitionResult } from "./types";

export type PartitionInput = {
  bytes: Buffer | Uint8Array;
  fileName: string;
  /** Lower-case extension without the dot, e.g. "pdf". */
  fileType: string;
  method: InternalMethod;
};

export type ParserInput = {
  bytes: Uint8Array;
  fileName: string;
  /** Lower-case extension without the dot. */
  fileType: string;
  method: InternalMethod;
};

export type Parser = (input: ParserInput) => PartitionResult | Promise<PartitionResult>;

/**
 * Text formats have no pages to OCR or lay out, so every method parses them the same way. PDF honours the method:
 * only the text-layer parser exists so far, which `auto` also uses (text pages route to fast).
 */
const PDF_TEXT_LAYER_METHODS: ReadonlySet<InternalMethod> = new Set(["basic", "auto"]);

const parsePdf: Parser = ({ bytes, method }) => {
  if (!PDF_TEXT_LAYER_METHODS.has(method)) {
    throw new AppError(
      "UNPROCESSABLE",
      `Method '${methodDisplayName(method)}' is not supported yet for .pdf files; use fast`,
    );
  }
  return partitionPdf({ bytes });
};

/** One parser per extension. Formats that later milestones add (Office, images, media) plug in here. */
const PARSERS: Record<string, Parser> = {
  txt: partitionText,
  text: partitionText,
  md: partitionMarkdown,
  markdown: partitionMarkdown,
  html: partitionHtml,
  htm: partitionHtml,
  csv: partitionDelimited,
  tsv: partitionDelimited,
  pdf: parsePdf,
};

export const partitionDocument = async ({ bytes, fileName, fileType, method }: PartitionInput): Promise<PartitionResult> => {
  const ext = fileType.toLowerCase().replace(/^\./, "");
  const parser = PARSERS[ext];
  if (!parser) throw new AppError("UNPROCESSABLE", `Parsing .${ext} files is not supported yet`);
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return parser({ bytes: view, fileName, fileType: ext, method });
};

export const isParsableFileType = (fileType: string): boolean => fileType.toLowerCase().replace(/^\./, "") in PARSERS;
