import Busboy from "busboy";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import { AppError } from "../errors";
import { NUL_DETAIL } from "../input-guard";
import { MAX_UPLOAD_BYTES } from "../sources/upload";

/** Room for the multipart envelope (boundaries, part headers, small fields) around a maximal file. */
const ENVELOPE_BYTES = 1024 * 1024;

/** The unread body of a multipart request, as handed from a route to its procedure. */
export type UploadRequest = { headers: Headers; body: ReadableStream<Uint8Array> | null };

export const uploadRequest = (req: Request): UploadRequest => ({ headers: req.headers, body: req.body });

/**
 * Streams a multipart body without buffering it: the first `file` part goes straight to `receiveFile`, other parts
 * are collected as text fields. Size is enforced twice: from Content-Length up front, and while streaming.
 */
export const readMultipartUpload = async <T>({
  upload,
  checkFileName,
  receiveFile,
}: {
  upload: UploadRequest;
  /** Throws an AppError for names that must be refused before a byte is stored. */
  checkFileName: (fileName: string) => void;
  receiveFile: (fileName: string, stream: Readable) => Promise<T>;
}): Promise<{ fields: Record<string, string>; file: { fileName: string; received: T } }> => {
  const length = upload.headers.get("content-length");
  if (length === null || !/^\d+$/.test(length)) {
    throw new AppError("LENGTH_REQUIRED", "Content-Length header is required");
  }
  if (Number(length) > MAX_UPLOAD_BYTES + ENVELOPE_BYTES) {
    throw new AppError("PAYLOAD_TOO_LARGE", "File exceeds the maximum size of 100 MB");
  }
  const contentType = upload.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !upload.body) {
    throw new AppError("BAD_REQUEST", "Expected multipart/form-data");
  }

  let parser: Busboy.Busboy;
  try {
    parser = Busboy({
      headers: { "content-type": contentType },
      // busboy reports its limit when a file *reaches* fileSize; a file of exactly 100 MB is allowed (contract §9).
      limits: { files: 1, fileSize: MAX_UPLOAD_BYTES + 1, fields: 50, fieldSize: 64 * 1024, parts: 60 },
      defParamCharset: "utf8",
    });
  } catch {
    throw new AppError("BAD_REQUEST", "Expected multipart/form-data");
  }

  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let pending: Promise<{ fileName: string; received: T }> | null = null;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      source.unpipe(parser);
      source.resume(); // drain what is left so the client gets the answer, not a reset
      reject(error);
    };

    parser.on("field", (name, value) => {
      if (name.includes("\u0000") || value.includes("\u0000")) return fail(new AppError("BAD_REQUEST", NUL_DETAIL));
      if (!(name in fields)) fields[name] = value;
    });
    parser.on("file", (name, stream, info) => {
      if (name !== "file" || pending) {
        stream.resume();
        return;
      }
      const fileName = info.filename?.trim() ?? "";
      try {
        if (fileName.includes("\u0000")) throw new AppError("BAD_REQUEST", NUL_DETAIL);
        checkFileName(fileName);
      } catch (error) {
        stream.resume();
        fail(error);
        return;
      }
      stream.on("limit", () =>
        stream.destroy(new AppError("PAYLOAD_TOO_LARGE", "File exceeds the maximum size of 100 MB")),
      );
      pending = receiveFile(fileName, stream).then((received) => ({ fileName, received }));
      pending.catch(fail);
    });
    parser.on("error", () => fail(new AppError("BAD_REQUEST", "Malformed multipart/form-data body")));
    parser.on("close", () => {
      if (failed) return;
      if (!pending) return fail(new AppError("BAD_REQUEST", "Invalid input: file is required"));
      pending.then((file) => resolve({ fields, file }), fail);
    });

    const source = Readable.fromWeb(upload.body as unknown as NodeWebStream<Uint8Array>);
    source.on("error", () => fail(new AppError("BAD_REQUEST", "Upload was interrupted")));
    source.pipe(parser);
  });
};
