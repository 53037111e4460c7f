import yauzl from "yauzl";
import { AppError, errorMessage, isAppError, printable } from "@/server/errors";
import { duringStep } from "../parse-step";

/**
 * OOXML and ODF files are ZIP packages, and a ZIP can claim (or hold) far more data than its size suggests. Every
 * package is checked here before a library (mammoth, exceljs, jszip) inflates it: the central directory is read
 * with yauzl, and then every entry is inflated once into nothing, so an entry whose data is longer than its
 * declared size (a lying header) fails here instead of filling memory later.
 */

export type ZipLimits = {
  maxEntries: number;
  /** Sum of the uncompressed sizes of all entries. */
  maxTotalBytes: number;
  /** An entry larger than `ratioMinBytes` that inflates more than this many times is a bomb. */
  maxRatio: number;
  ratioMinBytes: number;
};

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxTotalBytes: 512 * 1024 * 1024,
  maxRatio: 200,
  ratioMinBytes: 10 * 1024 * 1024,
};

export type ZipEntryInfo = { name: string; size: number; compressedSize: number };

const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** Compound File Binary: the container of legacy .doc/.xls/.ppt and of password-protected OOXML files. */
export const isCfb = (bytes: Uint8Array): boolean => CFB_SIGNATURE.every((b, i) => bytes[i] === b);

/** An encrypted OOXML package is a CFB holding the streams "EncryptionInfo" and "EncryptedPackage" (UTF-16 names). */
export const isEncryptedOoxml = (bytes: Uint8Array): boolean => {
  if (!isCfb(bytes)) return false;
  const name = Buffer.from("EncryptionInfo", "utf16le");
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(name);
};

const LEGACY_NAMES: Record<string, string> = {
  docx: "Word 97-2003 (.doc)",
  pptx: "PowerPoint 97-2003 (.ppt)",
  xlsx: "Excel 97-2003 (.xls)",
};

const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

const invalid = (ext: string, detail?: string) =>
  new AppError(
    "UNPROCESSABLE",
    `The .${ext} file is not a valid Office document${detail ? ` (${detail})` : " (it is damaged or not a ZIP package)"}`,
  );

const open = (buffer: Buffer): Promise<yauzl.ZipFile> =>
  new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      buffer,
      { lazyEntries: true, validateEntrySizes: true, decodeStrings: true, autoClose: false },
      (error, zipfile) => (error || !zipfile ? reject(error ?? new Error("no zip file")) : resolve(zipfile)),
    );
  });

const readEntries = (zipfile: yauzl.ZipFile, onEntry: (entry: yauzl.Entry) => void): Promise<yauzl.Entry[]> =>
  new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zipfile.on("entry", (entry: yauzl.Entry) => {
      try {
        onEntry(entry);
      } catch (error) {
        reject(error);
        return;
      }
      entries.push(entry);
      zipfile.readEntry();
    });
    zipfile.once("end", () => resolve(entries));
    zipfile.once("error", reject);
    zipfile.readEntry();
  });

/** Inflates one entry into nothing; yauzl fails the stream when the data does not match the declared size. */
const drain = (zipfile: yauzl.ZipFile, entry: yauzl.Entry): Promise<void> =>
  new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(error ?? new Error("no stream"));
      stream.on("data", () => undefined);
      stream.once("end", () => resolve());
      stream.once("error", reject);
    });
  });

/**
 * Rejects what is not a safe Office package and returns its entries. `ext` (docx, xlsx, …) only shapes messages;
 * `limits` is a parameter so tests can exercise the bounds with small files.
 */
export const checkOfficeZip = (
  bytes: Uint8Array,
  ext: string,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<ZipEntryInfo[]> => duringStep("reading its ZIP package", () => checkZip(bytes, ext, limits));

const checkZip = async (bytes: Uint8Array, ext: string, limits: ZipLimits): Promise<ZipEntryInfo[]> => {
  if (isCfb(bytes)) {
    if (isEncryptedOoxml(bytes)) {
      throw new AppError(
        "UNPROCESSABLE",
        `The .${ext} file is password-protected (encrypted); remove the password in Office and upload it again`,
      );
    }
    const legacy = LEGACY_NAMES[ext];
    throw new AppError(
      "UNPROCESSABLE",
      `The .${ext} file is password-protected or saved in a legacy binary format${legacy ? ` (${legacy})` : ""}, not as a .${ext} package; remove the password, or give the file its real extension, and upload it again`,
    );
  }
  if (bytes.length < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) throw invalid(ext);

  let zipfile: yauzl.ZipFile;
  try {
    zipfile = await open(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    throw invalid(ext, `it is damaged or not a ZIP package: ${errorMessage(error)}`);
  }
  try {
    if (zipfile.entryCount > limits.maxEntries) {
      throw new AppError(
        "UNPROCESSABLE",
        `The .${ext} file has ${zipfile.entryCount} parts, more than the ${limits.maxEntries} an Office document may have`,
      );
    }
    let total = 0;
    const entries = await readEntries(zipfile, (entry) => {
      if (entry.isEncrypted()) {
        throw new AppError(
          "UNPROCESSABLE",
          `The .${ext} file is password-protected (its parts are encrypted); remove the password and upload it again`,
        );
      }
      total += entry.uncompressedSize;
      if (total > limits.maxTotalBytes) {
        throw new AppError(
          "UNPROCESSABLE",
          `The .${ext} file expands to more than ${mb(limits.maxTotalBytes)}, more than Quarry opens for an Office document`,
        );
      }
      const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
      if (entry.uncompressedSize > limits.ratioMinBytes && ratio > limits.maxRatio) {
        throw new AppError(
          "UNPROCESSABLE",
          `The .${ext} file looks like a ZIP bomb: its part "${printable(entry.fileName.slice(0, 200))}" expands ${Math.round(ratio)} times to ${mb(entry.uncompressedSize)}; it was not opened`,
        );
      }
    });
    for (const entry of entries) {
      if (entry.fileName.endsWith("/")) continue;
      try {
        await drain(zipfile, entry);
      } catch (error) {
        throw invalid(ext, `its part "${printable(entry.fileName.slice(0, 200))}" is damaged: ${errorMessage(error)}`);
      }
    }
    return entries.map((e) => ({ name: e.fileName, size: e.uncompressedSize, compressedSize: e.compressedSize }));
  } catch (error) {
    if (isAppError(error)) throw error;
    throw invalid(ext, `it is damaged: ${errorMessage(error)}`);
  } finally {
    zipfile.close();
  }
};
