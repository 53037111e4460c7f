import type { Readable } from "node:stream";

/**
 * Where original files live. The local store writes under the data directory; the S3 store (any S3-compatible
 * server) implements the same calls so that several stateless app replicas can share files.
 */
export type FileStore = {
  /** Streams `body` to `key`. Stops with PAYLOAD_TOO_LARGE (and leaves nothing behind) past `maxBytes`. */
  put: (key: string, body: Readable, options?: { maxBytes?: number }) => Promise<{ size: number }>;
  /** A key's bytes in memory: for small files only (manifests, snapshot pages, a page to draw). */
  read: (key: string) => Promise<Buffer>;
  /** A key's bytes as a stream, never whole in memory. */
  stream: (key: string) => Promise<Readable>;
  /** Copies a key's bytes to a local file, without holding them in memory (a parse worker reads that file). */
  copyToFile: (key: string, target: string) => Promise<void>;
  /** The size of a key's bytes, or null when nothing is stored under it. */
  size: (key: string) => Promise<number | null>;
  /** Removes one key; a missing key is not an error. */
  delete: (key: string) => Promise<void>;
  /** Removes every key under a prefix (a source's folder). */
  deletePrefix: (prefix: string) => Promise<void>;
  /** Fails with a sentence saying what is wrong when the store cannot be used (checked once at start). */
  check: () => Promise<void>;
};

/** A key with nothing under it: the same sentence from every driver, without a machine path or bucket name. */
export class MissingStoredFile extends Error {
  constructor(readonly key: string) {
    super(`The stored file ${key} does not exist`);
    this.name = "MissingStoredFile";
  }
}

export const sourceFolder = ({ projectId, sourceId }: { projectId: string; sourceId: string }) =>
  `projects/${projectId}/sources/${sourceId}/`;

export const originalFileKey = (ids: { projectId: string; sourceId: string }, fileType: string) =>
  `${sourceFolder(ids)}original${fileType ? `.${fileType}` : ""}`;
