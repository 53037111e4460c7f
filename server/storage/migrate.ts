import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type { FileStore } from "./types";

/**
 * Copies the local store (a folder) into another store (a bucket), key for key, and proves each copy by reading it
 * back: its size and sha256 must equal the local file's. Safe to run again: an object already there with the same
 * size and hash is left as it is (after the same check), a missing or different one is copied again. One object at a
 * time: the copy streams, so memory stays flat whatever the files' sizes.
 */

export type MigrationStep = {
  index: number;
  total: number;
  key: string;
  bytes: number;
  outcome: "copied" | "already there" | "failed";
  reason?: string;
};

export type MigrationSummary = { total: number; copied: number; present: number; failed: number; bytes: number };

/** Every file under `root` as a store key (forward slashes), sorted; writes in progress (`*.part`) are not files. */
export const localKeys = async (root: string): Promise<string[]> => {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  });
  return entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith(".part"))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
};

const sha256 = async (stream: Readable) => {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
};

/** True when the target holds exactly these bytes under `key`. */
const holds = async (target: FileStore, key: string, size: number, hash: string) =>
  (await target.size(key)) === size && (await sha256(await target.stream(key))) === hash;

const migrateOne = async (root: string, key: string, target: FileStore) => {
  const file = path.join(root, ...key.split("/"));
  const { size } = await stat(file);
  const hash = await sha256(createReadStream(file));
  if (await holds(target, key, size, hash)) return { bytes: size, outcome: "already there" as const };
  await target.put(key, createReadStream(file));
  if (!(await holds(target, key, size, hash))) {
    return { bytes: size, outcome: "failed" as const, reason: "the copy read back differs (size or sha256)" };
  }
  return { bytes: size, outcome: "copied" as const };
};

export const migrateStore = async ({
  root,
  target,
  onStep,
}: {
  root: string;
  target: FileStore;
  onStep?: (step: MigrationStep) => void;
}): Promise<MigrationSummary> => {
  const keys = await localKeys(root);
  const summary: MigrationSummary = { total: keys.length, copied: 0, present: 0, failed: 0, bytes: 0 };
  for (const [i, key] of keys.entries()) {
    const result = await migrateOne(root, key, target).catch((error: unknown) => ({
      bytes: 0,
      outcome: "failed" as const,
      reason: error instanceof Error ? error.message : String(error),
    }));
    if (result.outcome === "copied") {
      summary.copied++;
      summary.bytes += result.bytes;
    } else if (result.outcome === "already there") summary.present++;
    else summary.failed++;
    onStep?.({ index: i + 1, total: keys.length, key, ...result });
  }
  return summary;
};
