import { Readable } from "node:stream";
import type { IsolatedInput } from "../parsing/isolated";
import { encodeBundle, type BundleEntry } from "../parsing/bundle-format";
import type { InternalMethod } from "../parsing/methods.schema";
import { fileStore, sourceFolder } from "../storage";

/**
 * What a connector fetched, kept in the file store under the source's folder before anything is parsed:
 * `snapshot-<buildId>/` holds the documents and a manifest. Reprocess parses the snapshot again without the
 * network; a refresh writes a new one and the source points at it. The manifest is written last, so a snapshot
 * the source points at is always complete.
 */

export type SnapshotDocument = BundleEntry & {
  /** File name inside the snapshot folder. */
  file: string;
  size: number;
};

export type Manifest = {
  version: 1;
  buildId: string;
  acquiredAt: string;
  documents: SnapshotDocument[];
};

const MANIFEST = "manifest.json";

export const snapshotFolder = (ids: { projectId: string; sourceId: string }, buildId: string) =>
  `${sourceFolder(ids)}snapshot-${buildId}/`;

/** The snapshot folder a stored key lives in, or null for a key outside any snapshot (an upload's original). */
export const snapshotFolderOf = (key: string | null | undefined) =>
  key?.match(/^(.*\/snapshot-[0-9a-f-]{36}\/)/)?.[1] ?? null;

export const isManifestKey = (key: string | null | undefined): key is string =>
  Boolean(key && snapshotFolderOf(key) && key.endsWith(`/${MANIFEST}`));

export const putSnapshotFile = async (
  folder: string,
  file: string,
  body: Buffer | Readable,
  maxBytes?: number,
): Promise<{ key: string; size: number }> => {
  const key = `${folder}${file}`;
  const { size } = await fileStore().put(key, Buffer.isBuffer(body) ? Readable.from([body]) : body, { maxBytes });
  return { key, size };
};

export const writeManifest = async (folder: string, manifest: Manifest) =>
  (await putSnapshotFile(folder, MANIFEST, Buffer.from(JSON.stringify(manifest, null, 1)))).key;

export const readManifest = async (key: string): Promise<Manifest> =>
  JSON.parse((await fileStore().read(key)).toString("utf8")) as Manifest;

/**
 * A snapshot as one parse input: every document of it in a bundle (see parsing/bundle.ts), which the parse worker
 * reads like one upload.
 */
export const snapshotBundleInput = async ({
  manifestKey,
  method,
}: {
  manifestKey: string;
  method: InternalMethod;
}): Promise<IsolatedInput> => {
  const folder = snapshotFolderOf(manifestKey)!;
  const manifest = await readManifest(manifestKey);
  const documents = [];
  for (const document of manifest.documents) {
    const { file, size, ...entry } = document;
    const bytes = await fileStore().read(`${folder}${file}`);
    // The manifest was written after the file: a different size means the snapshot was tampered with or damaged.
    if (bytes.length !== size)
      throw new Error(`The stored snapshot file ${file} is damaged (${bytes.length} of ${size} bytes)`);
    documents.push({ entry, bytes: new Uint8Array(bytes) });
  }
  return { bytes: encodeBundle(documents), fileName: "snapshot", fileType: "bundle", method };
};
