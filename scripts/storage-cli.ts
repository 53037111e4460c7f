/**
 * `npm run quarry -- storage migrate` (see scripts/quarry.ts): copies the local file store (QUARRY_DATA_DIR/files)
 * into the S3 bucket of S3_BUCKET / S3_ENDPOINT / S3_REGION / S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY and checks
 * every object by reading it back (size and sha256). Needs no database and may run while Quarry runs on the local
 * store; run it again after the switch to STORAGE_DRIVER=s3 to pick up files stored meanwhile (it skips what the
 * bucket holds already).
 */
export const STORAGE_USAGE = `  npm run quarry -- storage migrate`;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Returns the process's exit code: 1 when any object failed. */
export const runStorageCommand = async (action: string | undefined): Promise<number> => {
  if (action !== "migrate") throw new Error(`Unknown storage command\n${STORAGE_USAGE}`);
  const { localFilesRoot } = await import("../server/storage");
  const { describeBucket, s3SettingsFromEnv } = await import("../server/storage/s3-settings");
  const { createS3FileStore } = await import("../server/storage/s3-store");
  const { migrateStore } = await import("../server/storage/migrate");
  const settings = s3SettingsFromEnv();
  const target = createS3FileStore(settings);
  await target.check();
  const root = localFilesRoot();
  process.stdout.write(`Copying ${root} to the ${describeBucket(settings)}\n`);
  const summary = await migrateStore({
    root,
    target,
    onStep: (step) =>
      process.stdout.write(
        `[${step.index}/${step.total}] ${step.outcome}: ${step.key} (${mb(step.bytes)})` +
          `${step.reason ? `: ${step.reason}` : ""}\n`,
      ),
  });
  process.stdout.write(
    `${summary.total} objects: ${summary.copied} copied (${mb(summary.bytes)}), ${summary.present} already there, ` +
      `${summary.failed} failed; every object present was checked by size and sha256\n`,
  );
  return summary.failed ? 1 : 0;
};
