import { AppError } from "@/server/errors";
import { duringStep } from "../parse-step";
import type { Parser, PartitionResult } from "../types";
import { convertWithSoffice, ZIP_FORMATS } from "./convert";
import { partitionDocx } from "./docx";
import { partitionOdt } from "./odt";
import { partitionPptx } from "./pptx";
import { partitionXlsx } from "./xlsx";
import { checkOfficeZip } from "./zip-limits";

export { convertOfficeToPdf } from "./convert";

/**
 * Office documents. OOXML and ODT are read directly; the legacy binary formats (.doc, .ppt, .xls) are first
 * converted by LibreOffice to their OOXML counterpart, whose output goes through the same ZIP limits and parser.
 * Every method reads Office files the same way: their text is exact, there is nothing to OCR.
 */

const OOXML: Record<string, (bytes: Uint8Array, ext: string) => Promise<PartitionResult>> = {
  docx: partitionDocx,
  pptx: partitionPptx,
  xlsx: partitionXlsx,
  odt: partitionOdt,
};

/** Formats LibreOffice turns into their OOXML counterpart first (the binary Office formats, ODS, ODP and RTF). */
const LEGACY: Record<string, "docx" | "pptx" | "xlsx"> = {
  doc: "docx",
  ppt: "pptx",
  xls: "xlsx",
  ods: "xlsx",
  odp: "pptx",
  rtf: "docx",
};

export const OFFICE_FILE_TYPES = [...Object.keys(OOXML), ...Object.keys(LEGACY)];

export const partitionOffice: Parser = async ({ bytes, fileType }) => {
  const ext = fileType.toLowerCase().replace(/^\./, "");
  const direct = OOXML[ext];
  if (direct) return duringStep("reading the document's XML", () => direct(bytes, ext));
  const target = LEGACY[ext];
  const parse = target ? OOXML[target] : undefined;
  if (!target || !parse) throw new AppError("UNPROCESSABLE", `Parsing .${ext} files is not supported`);
  // OpenDocument packages pass the ZIP limits before LibreOffice opens them, as every package does.
  if (ZIP_FORMATS.has(ext)) await checkOfficeZip(bytes, ext);
  const converted = await convertWithSoffice({ bytes, fromExt: ext, toExt: target });
  // Messages name the file the user uploaded, not the intermediate one.
  const result = await duringStep("reading the document's XML", () => parse(converted, ext));
  return {
    ...result,
    elements: result.elements.map((e) => ({ ...e, metadata: { ...e.metadata, converted_with: "libreoffice" } })),
  };
};
