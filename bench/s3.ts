import { startQuarry } from "@/server/testing/quarry-process";
import { startS3StandIn } from "@/server/testing/s3-stand-in";
import { measure } from "./memory";
import { fmt, table } from "./stats";

/**
 * `BENCH_ONLY=s3`: one large file (BENCH_BIG_MB, default 100; BENCH_S3_FORMAT, default txt) through the API with
 * indexing=none, once with the local store and once with STORAGE_DRIVER=s3 against s3rver (a local S3-compatible
 * server in this bench's process, so outside the measured tree), each on a fresh Quarry, with the peak resident
 * memory of the app's process tree. With S3 the upload streams to the bucket in 8 MiB parts and the parse step copies
 * the original back out of it, so neither should hold the file in memory.
 */
export const benchS3 = async () => {
  const format = process.env.BENCH_S3_FORMAT ?? "txt";
  const s3 = await startS3StandIn();
  const rows: (string | number)[][] = [
    ["driver", "file MB", "status", "s to done", "idle tree MB", "peak tree MB", "peak app MB", "peak child MB"],
  ];
  try {
    for (const [driver, env] of [
      ["local", {}],
      ["s3", s3.env],
    ] as const) {
      const quarry = await startQuarry({ env: { QUARRY_RATE_LIMIT_PER_MIN: "0", ...env } });
      try {
        const r = await measure(quarry, format);
        rows.push([
          driver,
          fmt(r.mb, 0),
          r.status,
          fmt(r.seconds),
          fmt(r.idle, 0),
          fmt(r.peakTree, 0),
          fmt(r.peakApp, 0),
          fmt(r.peakChild, 0),
        ]);
      } finally {
        await quarry.dispose();
      }
    }
    const stored = (await s3.keys()).filter((key) => key.endsWith(`/original.${format}`));
    return [
      `Storage drivers: one large .${format} through the API (indexing=none), local store vs S3 (s3rver, the real ` +
        `AWS client), each on a fresh Quarry; peak resident memory of the app's process tree. Originals in the ` +
        `bucket afterwards: ${stored.length}.`,
      table(rows),
    ].join("\n");
  } finally {
    await s3.close();
  }
};
