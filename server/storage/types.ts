import type { Readable } from "node:stream";

/**
 * Where original files live. The local store writes under the data directory; an S3-compatible store implements
 * the same calls so that several stateless app replicas can share files.
 */
export type FileStore = {
  /** Streams `body` to `key`. Stops with PAYLOAD_TOO_LARGE (and leaves nothing behind) past `maxBytes`. */
  put: (key: string, body: Readable, options?: { maxBytes?: number }) => Promise<{ size: number }>;
  read: (key: string) => Promise<Buffer>;
  /** Copies a key's bytes to a local file, without holding them in memory (a parse worker reads that file). */
  copyToFile: (key: string, target: string) => Promise<void>;
  /** Removes one key; a missing key is not an error. */
  delete: (key: string) => Promise<void>;
  /** Removes every key under a prefix (a source's folder). */
  deletePrefix: (prefix: string) => Promise<void>;
};

export const sourceFolder = ({ projectId, sourceId }: { projectId: string; sourceId: string }) =>
  `projects/${projectId}/sources/${sourceId}/`;

export const originalFileKey = (ids: { projectId: string; sourceId: string }, fileType: string) =>
  `${sourceFolder(ids)}original${fileType ? `.${fileType}` : ""}`;
