import { resolveBuildOptions } from "../ingestion/build-options";
import { uploadAndWait } from "../sources/legacy";
import { checkUploadFileName } from "../sources/service";
import { ingestStoredUpload, receiveUpload } from "../sources/upload";
import { readMultipartUpload, type UploadRequest } from "./multipart";
import { LegacyUploadFields } from "./v1/legacy/requests.schema";
import { IngestFileFields } from "./v1/sources/requests.schema";

/**
 * The transport half of an upload: the multipart body is read here, its file streamed into storage as it arrives,
 * and the sources domain gets plain values (the stored file, the options read from the form fields).
 */

const readUpload = (projectId: string, upload: UploadRequest) =>
  readMultipartUpload({
    upload,
    checkFileName: checkUploadFileName,
    receiveFile: (fileName, stream) => receiveUpload({ projectId, fileName, stream }),
  });

/** POST /ingest-file and the dashboard's upload: a source and its first build, answered with the build id. */
export const ingestMultipartUpload = async ({ projectId, upload }: { projectId: string; upload: UploadRequest }) => {
  const { fields, file } = await readUpload(projectId, upload);
  return ingestStoredUpload({
    projectId,
    upload: file.received,
    options: () => {
      const parsed = IngestFileFields.parse(fields);
      return resolveBuildOptions({
        ...parsed,
        method: parsed.method ?? parsed.partition_method,
        defaultMethod: "auto",
      });
    },
  });
};

/** Legacy POST /upload: the source once its build has finished. */
export const legacyMultipartUpload = async ({
  projectId,
  upload,
  signal,
}: {
  projectId: string;
  upload: UploadRequest;
  signal?: AbortSignal;
}) => {
  const { fields, file } = await readUpload(projectId, upload);
  return uploadAndWait({
    projectId,
    upload: file.received,
    method: () => LegacyUploadFields.parse(fields).partition_method,
    signal,
  });
};
