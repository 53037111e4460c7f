import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { AppError } from "@/server/errors";
import { requireTool, runTool } from "../system-tools";
import { checkOfficeZip } from "./zip-limits";

/** LibreOffice is slow to start and heavy; a conversion that takes longer than this is stuck. */
export const SOFFICE_TIMEOUT_MS = 120_000;
/** Converted files larger than this are not read back (a PDF of a huge spreadsheet, say). */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;
/** Each soffice process takes a core and ~200 MB; more at once only makes every conversion slower. */
const MAX_CONCURRENT = 2;

/**
 * The import filter for each format, named explicitly: left to guess, LibreOffice opens a damaged file as plain text
 * and "converts" its noise instead of failing.
 */
const IMPORT_FILTERS: Record<string, string> = {
  doc: "MS Word 97",
  docx: "MS Word 2007 XML",
  odt: "writer8",
  ppt: "MS PowerPoint 97",
  pptx: "Impress MS PowerPoint 2007 XML",
  xls: "MS Excel 97",
  xlsx: "Calc MS Excel 2007 XML",
  ods: "calc8",
  odp: "impress8",
  rtf: "Rich Text Format",
};

let running = 0;
const waiting: (() => void)[] = [];

const withSlot = async <T>(work: () => Promise<T>): Promise<T> => {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
};

/**
 * Converts a document with LibreOffice headless. Each call gets its own temporary folder and its own user profile
 * (`-env:UserInstallation`): two soffice processes sharing a profile block or crash each other. The folder is
 * removed afterwards whatever happens. Macros never run: headless conversion does not execute document code.
 */
export const convertWithSoffice = async ({
  bytes,
  fromExt,
  toExt,
}: {
  bytes: Uint8Array;
  fromExt: string;
  toExt: string;
}): Promise<Uint8Array> => {
  const what = `Converting the .${fromExt} file to .${toExt}`;
  const soffice = await requireTool("soffice", what);
  return withSlot(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "quarry-soffice-"));
    try {
      const input = path.join(dir, `input.${fromExt}`);
      const outDir = path.join(dir, "out");
      await writeFile(input, bytes);
      await mkdir(outDir);
      await runTool(
        soffice,
        [
          "--headless",
          "--norestore",
          "--nologo",
          "--nodefault",
          "--nolockcheck",
          "--nofirststartwizard",
          `-env:UserInstallation=${pathToFileURL(path.join(dir, "profile")).href}`,
          ...(IMPORT_FILTERS[fromExt] ? [`--infilter=${IMPORT_FILTERS[fromExt]}`] : []),
          "--convert-to",
          toExt,
          "--outdir",
          outDir,
          input,
        ],
        {
          timeoutMs: SOFFICE_TIMEOUT_MS,
          what,
          step: "converting with LibreOffice",
          cwd: dir,
          maxOutputBytes: 1024 * 1024,
          env: { ...process.env, HOME: dir },
        },
      );
      const output = path.join(outDir, `input.${toExt}`);
      const size = await stat(output).then(
        (s) => s.size,
        () => null,
      );
      // soffice exits 0 even when it could not load the file (damaged, password-protected): no output is the sign.
      if (size === null || size === 0) {
        throw new AppError(
          "UNPROCESSABLE",
          `${what} failed: LibreOffice could not open it (the file may be damaged, password-protected or not really a .${fromExt} file)`,
        );
      }
      if (size > MAX_OUTPUT_BYTES) {
        throw new AppError("UNPROCESSABLE", `${what} produced more than ${MAX_OUTPUT_BYTES / (1024 * 1024)} MB`);
      }
      return new Uint8Array(await readFile(output));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
};

export const ZIP_FORMATS = new Set(["docx", "pptx", "xlsx", "odt", "ods", "odp"]);
export const PDF_CONVERTIBLE = new Set(["doc", "docx", "odt", "ppt", "pptx", "xls", "xlsx", "ods", "odp", "rtf"]);

/**
 * An Office file as PDF (page screenshots, and the PDF methods for Office files). Packages pass the ZIP limits
 * first: LibreOffice would inflate a bomb just as willingly as any library.
 */
export const convertOfficeToPdf = async (bytes: Uint8Array, ext: string): Promise<Uint8Array> => {
  const fromExt = ext.toLowerCase().replace(/^\./, "");
  if (!PDF_CONVERTIBLE.has(fromExt)) {
    throw new AppError("UNPROCESSABLE", `Converting .${fromExt} files to PDF is not supported`);
  }
  if (ZIP_FORMATS.has(fromExt)) await checkOfficeZip(bytes, fromExt);
  const pdf = await convertWithSoffice({ bytes, fromExt, toExt: "pdf" });
  if (Buffer.from(pdf.subarray(0, 5)).toString("latin1") !== "%PDF-") {
    throw new AppError("UNPROCESSABLE", `Converting the .${fromExt} file to PDF did not produce a PDF`);
  }
  return pdf;
};
