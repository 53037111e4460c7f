import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createS3Client } from "../storage/s3-store";
import { startS3StandIn, type S3StandIn } from "./s3-stand-in";

/**
 * The stand-in's listing past one page: s3rver's ListObjectsV2 continuation token fails (DES under OpenSSL 3), so
 * `keys()` pages with the V1 listing's Marker. A bucket of more than 2 pages is listed whole, once each key.
 */

let s3: S3StandIn;
const client = () => createS3Client(s3.settings);
const COUNT = 2100;

beforeAll(async () => {
  s3 = await startS3StandIn();
  const c = client();
  for (let i = 0; i < COUNT; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        c.send(new PutObjectCommand({ Bucket: s3.bucket, Key: `projects/p/sources/${i + j}/original.md`, Body: "x" })),
      ),
    );
  }
  c.destroy();
}, 120_000);

afterAll(async () => {
  await s3?.close();
});

it("lists every key of a bucket larger than one page, each once", async () => {
  const keys = await s3.keys();
  expect(keys).toHaveLength(COUNT);
  expect(new Set(keys).size).toBe(COUNT);
  expect(keys).toContain("projects/p/sources/2099/original.md");
});

it("lists a prefix across pages", async () => {
  // 1, 10-19, 100-199, 1000-1999.
  expect(await s3.keys("projects/p/sources/1")).toHaveLength(1111);
});
