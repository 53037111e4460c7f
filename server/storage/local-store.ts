import { createReadStream, createWriteStream } from "node:fs";
import { copyFile, mkdir, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { sizeLimit } from "./size-limit";
import { MissingStoredFile, type FileStore } from "./types";

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === "ENOENT";

/** A missing file reported as MissingStoredFile (the key, not the machine's path). */
const orMissing = async <T>(key: string, work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    throw isMissing(error) ? new MissingStoredFile(key) : error;
  }
};

/** Files under `<root>/<key>`. Writes go to a temp name first, so a crash never leaves a half file under a key. */
export const createLocalFileStore = (root: string): FileStore => {
  const resolve = (key: string) => {
    const full = path.resolve(root, key);
    // Keys are built by Quarry, never by users; still, nothing may escape the root.
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error(`Invalid storage key: ${key}`);
    return full;
  };

  return {
    put: async (key, body, { maxBytes = Number.POSITIVE_INFINITY } = {}) => {
      const target = resolve(key);
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 }); // documents are private to Quarry's user
      const temp = `${target}.${process.pid}.${Date.now()}.part`;
      const limit = sizeLimit(maxBytes);
      try {
        await pipeline(body, limit.counter, createWriteStream(temp, { mode: 0o600 }));
        await rename(temp, target);
        return { size: limit.size() };
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    read: (key) => orMissing(key, () => readFile(resolve(key))),
    stream: (key) =>
      orMissing(key, async () => {
        const file = resolve(key);
        await stat(file); // a missing file fails here, not at the stream's first read
        return createReadStream(file);
      }),
    copyToFile: (key, target) => orMissing(key, () => copyFile(resolve(key), target)),
    size: async (key) => {
      try {
        return (await stat(resolve(key))).size;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    delete: (key) => rm(resolve(key), { force: true }),
    deletePrefix: (prefix) => rm(resolve(prefix), { recursive: true, force: true }),
    check: async () => {
      await mkdir(root, { recursive: true, mode: 0o700 });
    },
  };
};
