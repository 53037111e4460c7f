import type { Readable } from "node:stream";
import type { BuildOptions } from "../ingestion/build-options";
import { createSourceFromUpload, discardUpload, sourceExists, storeUpload, type StoredUpload } from "./service";

/** The largest file a source can be made from (contract §9). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** Streams an uploaded file into storage as it arrives, before the request's other fields are known. */
export const receiveUpload = ({
  projectId,
  fileName,
  stream,
}: {
  projectId: string;
  fileName: string;
  stream: Readable;
}) => storeUpload({ projectId, fileName, stream, maxBytes: MAX_UPLOAD_BYTES });

/**
 * A stored upload becomes a source and its first build. `options` is a function because the fields it is read from
 * may arrive after the file: when it throws (an invalid field) or the source is not created, the stored bytes are
 * removed again.
 */
export const ingestStoredUpload = async ({
  projectId,
  upload,
  options,
}: {
  projectId: string;
  upload: StoredUpload;
  options: () => BuildOptions;
}) => {
  try {
    return await createSourceFromUpload({ projectId, upload, options: options() });
  } catch (error) {
    // Once the source row exists it owns the file (a failed schedule leaves a Failed source to reprocess).
    if (!(await sourceExists(upload.sourceId))) await discardUpload(upload);
    throw error;
  }
};
