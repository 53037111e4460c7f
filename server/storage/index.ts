import path from "node:path";
import { env } from "../env";
import { createLocalFileStore } from "./local-store";
import { s3SettingsFromEnv } from "./s3-settings";
import type { FileStore } from "./types";

export * from "./types";

/**
 * The S3 store behind the same calls, its module loaded on first use: loading the AWS SDK's S3 client and uploader
 * took 22.6 MB of resident memory (`node -e 'require(...)'`), which a local install never pays.
 */
const lazyS3Store = (): FileStore => {
  const settings = s3SettingsFromEnv(); // a missing bucket fails at once, not at the first upload
  let loaded: Promise<FileStore> | undefined;
  const store = () => (loaded ??= import("./s3-store").then((m) => m.createS3FileStore(settings)));
  return {
    put: async (key, body, options) => (await store()).put(key, body, options),
    read: async (key) => (await store()).read(key),
    stream: async (key) => (await store()).stream(key),
    copyToFile: async (key, target) => (await store()).copyToFile(key, target),
    size: async (key) => (await store()).size(key),
    delete: async (key) => (await store()).delete(key),
    deletePrefix: async (prefix) => (await store()).deletePrefix(prefix),
    check: async () => (await store()).check(),
  };
};

/** The local store's folder, also the source of `npm run quarry -- storage migrate`. */
export const localFilesRoot = () => path.resolve(env.QUARRY_DATA_DIR, "files");

let store: FileStore | undefined;

export const fileStore = (): FileStore => {
  store ??= env.STORAGE_DRIVER === "s3" ? lazyS3Store() : createLocalFileStore(localFilesRoot());
  return store;
};

/** Called once at start: an unreachable bucket stops the start with the reason instead of failing each upload. */
export const checkFileStore = () => fileStore().check();
