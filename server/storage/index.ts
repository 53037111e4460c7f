import path from "node:path";
import { env } from "../env";
import { createLocalFileStore } from "./local-store";
import type { FileStore } from "./types";

export * from "./types";

let store: FileStore | undefined;

export const fileStore = (): FileStore => {
  if (store) return store;
  if (env.STORAGE_DRIVER === "s3") {
    throw new Error("STORAGE_DRIVER=s3 is not available in this build yet; use STORAGE_DRIVER=local");
  }
  store = createLocalFileStore(path.resolve(env.QUARRY_DATA_DIR, "files"));
  return store;
};
