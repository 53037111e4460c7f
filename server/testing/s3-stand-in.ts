import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ListObjectsCommand } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { createS3Client } from "../storage/s3-store";
import type { S3Settings } from "../storage/s3-settings";

/**
 * A local S3-compatible server (s3rver, objects in a temporary folder) on a free loopback port, for tests and the
 * bench: Quarry's real S3 client talks to it over HTTP exactly as to AWS, MinIO or R2. s3rver's fixed credentials
 * are S3RVER / S3RVER; the bucket exists from the start.
 */
export type S3StandIn = {
  endpoint: string;
  bucket: string;
  settings: S3Settings;
  /** What Quarry's environment needs to store its files here. */
  env: Record<string, string>;
  /** Every key under `prefix`, read through the SDK. */
  keys: (prefix?: string) => Promise<string[]>;
  close: () => Promise<void>;
};

export const startS3StandIn = async ({ bucket = "quarry-files" } = {}): Promise<S3StandIn> => {
  const dir = mkdtempSync(path.join(tmpdir(), "quarry-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory: dir,
    silent: true,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: S3Settings = {
    bucket,
    region: "us-east-1",
    endpoint,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    forcePathStyle: true,
  };
  const client = createS3Client(settings);
  // Paged with the V1 listing and Marker (the last key seen): s3rver makes V2's continuation token with DES, which
  // OpenSSL 3 refuses, so a V2 listing of more than one page (1,000 keys) fails with InternalError.
  const keys = async (prefix = "") => {
    const found: string[] = [];
    let marker: string | undefined;
    for (;;) {
      const page = await client.send(
        new ListObjectsCommand({ Bucket: bucket, Prefix: prefix || undefined, Marker: marker, MaxKeys: 1000 }),
      );
      for (const item of page.Contents ?? []) if (item.Key) found.push(item.Key);
      marker = found.at(-1);
      if (!page.IsTruncated || !page.Contents?.length) return found.sort();
    }
  };
  return {
    endpoint,
    bucket,
    settings,
    env: {
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    keys,
    close: async () => {
      client.destroy();
      // Clients keep sockets alive; close() alone would wait for them.
      server.httpServer?.closeAllConnections();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
