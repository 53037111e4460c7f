import { MAX_UPLOAD_BYTES, readMultipartUpload, type UploadRequest } from "../public-api/multipart";
import { IngestFileFields } from "../public-api/schemas/sources.schema";
import { resolveBuildOptions } from "../ingestion/build-options";
import { checkUploadFileName, createSourceFromUpload, discardUpload, sourceExists, storeUpload } from "./service";

/**
 * A multipart upload becomes a source and its first build. The file is streamed to storage as it arrives; when a
 * form field turns out invalid afterwards, the stored bytes are removed again.
 */
export const ingestMultipartUpload = async ({ projectId, upload }: { projectId: string; upload: UploadRequest }) => {
  const { fields, file } = await readMultipartUpload({
    upload,
    checkFileName: checkUploadFileName,
    receiveFile: (fileName, stream) => storeUpload({ projectId, fileName, stream, maxBytes: MAX_UPLOAD_BYTES }),
  });
  try {
    const parsed = IngestFileFields.parse(fields);
    const options = resolveBuildOptions({
      ...parsed,
      method: parsed.method ?? parsed.partition_method,
      defaultMethod: "auto",
    });
    return await createSourceFromUpload({ projectId, upload: file.received, options });
  } catch (error) {
    // Once the source row exists it owns the file (a failed schedule leaves a Failed source to reprocess).
    if (!(await sourceExists(file.received.sourceId))) await discardUpload(file.received);
    throw error;
  }
};
