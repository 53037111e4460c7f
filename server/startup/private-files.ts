import { chmodSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { isProcessAlive } from "../concurrency/process-alive";

/**
 * Quarry's files at rest (database, uploads, scratch copies of documents) are readable by its own user only. The
 * launcher and the CLI call this first thing: files created afterwards get 0600, folders 0700.
 */
export const keepFilesPrivate = (dataDir: string) => {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // A data dir made by an older version (0755) is closed too; what is inside is out of reach once it is 0700.
  if (statSync(dataDir).uid === process.getuid?.()) chmodSync(dataDir, 0o700);
};

/**
 * Temporary files of this process (parse jobs hold a copy of the document; LibreOffice and ffmpeg write beside it)
 * go under `<dataDir>/tmp/<pid>` instead of the shared /tmp, via TMPDIR, which child processes inherit. Folders of
 * processes that are gone (a kill -9 skips every cleanup) are removed here, on the next start.
 */
export const privateScratchDir = (dataDir: string): string => {
  const root = path.join(path.resolve(dataDir), "tmp");
  mkdirSync(root, { recursive: true, mode: 0o700 });
  for (const entry of readdirSync(root)) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !isProcessAlive(pid)) {
      rmSync(path.join(root, entry), { recursive: true, force: true });
    }
  }
  const own = path.join(root, String(process.pid));
  mkdirSync(own, { recursive: true, mode: 0o700 });
  process.env.TMPDIR = own;
  process.on("exit", () => rmSync(own, { recursive: true, force: true }));
  return own;
};
