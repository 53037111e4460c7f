import { createWriteStream } from "node:fs";
import { copyFile, mkdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { AppError } from "../errors";
import type { FileStore } from "./types";

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
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          if (size > maxBytes)
            done(new AppError("PAYLOAD_TOO_LARGE", `File exceeds the maximum size of ${maxBytes / 1024 / 1024} MB`));
          else done(null, chunk);
        },
      });
      try {
        await pipeline(body, counter, createWriteStream(temp, { mode: 0o600 }));
        await rename(temp, target);
        return { size };
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    read: (key) => readFile(resolve(key)),
    copyToFile: (key, target) => copyFile(resolve(key), target),
    delete: (key) => rm(resolve(key), { force: true }),
    deletePrefix: (prefix) => rm(resolve(prefix), { recursive: true, force: true }),
  };
};
