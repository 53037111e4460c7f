import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3StandIn, type S3StandIn } from "../testing/s3-stand-in";
import { createLocalFileStore } from "./local-store";
import { createS3FileStore, PART_SIZE } from "./s3-store";
import { MissingStoredFile, type FileStore } from "./types";

/** The same behaviour from both drivers: the local folder and S3 (s3rver over HTTP, the real AWS client). */

let s3: S3StandIn;
const dir = mkdtempSync(path.join(tmpdir(), "quarry-store-"));

beforeAll(async () => {
  s3 = await startS3StandIn();
});
afterAll(async () => {
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `mb` megabytes of varied bytes, produced 1 MiB at a time (never whole in memory on the producing side). */
const generated = (mb: number) => {
  const hash = createHash("sha256");
  let i = 0;
  const stream = Readable.from(
    (function* () {
      for (; i < mb; i++) {
        const block = Buffer.alloc(1024 * 1024, i % 251);
        block.writeUInt32BE(i, 0);
        hash.update(block);
        yield block;
      }
    })(),
  );
  return { stream, digest: () => hash.digest("hex") };
};

const sha256 = async (stream: Readable) => {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
};

const drivers: [string, () => FileStore][] = [
  ["local", () => createLocalFileStore(path.join(dir, "files"))],
  ["s3", () => createS3FileStore(s3.settings)],
];

describe.each(drivers)("the %s file store", (_name, make) => {
  const key = (name: string) => `projects/p1/sources/${_name}-s1/${name}`;

  it("stores a stream and gives it back as bytes, a stream, a file and a size", async () => {
    const store = make();
    expect(await store.put(key("original.txt"), Readable.from([Buffer.from("hello "), Buffer.from("quarry")]))).toEqual(
      {
        size: 12,
      },
    );
    expect((await store.read(key("original.txt"))).toString()).toBe("hello quarry");
    expect(await sha256(await store.stream(key("original.txt")))).toBe(
      createHash("sha256").update("hello quarry").digest("hex"),
    );
    const target = path.join(dir, `${_name}-copy.txt`);
    await store.copyToFile(key("original.txt"), target);
    expect(readFileSync(target, "utf8")).toBe("hello quarry");
    expect(await store.size(key("original.txt"))).toBe(12);
  });

  it("streams a file of several parts through and back unchanged", async () => {
    const store = make();
    const mb = Math.ceil((2.5 * PART_SIZE) / 1024 / 1024);
    const body = generated(mb);
    expect(await store.put(key("big.bin"), body.stream)).toEqual({ size: mb * 1024 * 1024 });
    expect(await store.size(key("big.bin"))).toBe(mb * 1024 * 1024);
    expect(await sha256(await store.stream(key("big.bin")))).toBe(body.digest());
  });

  it("stops an upload past its limit with 413 and keeps nothing under the key", async () => {
    const store = make();
    for (const mb of [1, Math.ceil((1.5 * PART_SIZE) / 1024 / 1024)]) {
      const error = await store
        .put(key(`too-large-${mb}.bin`), generated(mb + 1).stream, { maxBytes: mb * 1024 * 1024 })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
      expect(await store.size(key(`too-large-${mb}.bin`))).toBeNull();
    }
  });

  it("reports a missing key as MissingStoredFile, with the key and nothing else", async () => {
    const store = make();
    for (const read of [
      () => store.read(key("nothing")),
      () => store.stream(key("nothing")),
      () => store.copyToFile(key("nothing"), path.join(dir, "never")),
    ]) {
      const error = await read().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MissingStoredFile);
      expect((error as Error).message).toBe(`The stored file ${key("nothing")} does not exist`);
    }
    expect(await store.size(key("nothing"))).toBeNull();
    await expect(store.delete(key("nothing"))).resolves.toBeUndefined();
  });

  it("deletes one key, and a folder without touching its neighbours", async () => {
    const store = make();
    const one = Readable.from([Buffer.from("1")]);
    await store.put(`projects/p2/sources/a/original.pdf`, one);
    await store.put(`projects/p2/sources/a/snapshot-1/page.html`, Readable.from([Buffer.from("2")]));
    await store.put(`projects/p2/sources/ab/original.pdf`, Readable.from([Buffer.from("3")]));
    await store.put(`projects/p2/sources/b/original.pdf`, Readable.from([Buffer.from("4")]));
    await store.delete(`projects/p2/sources/b/original.pdf`);
    expect(await store.size(`projects/p2/sources/b/original.pdf`)).toBeNull();
    await store.deletePrefix(`projects/p2/sources/a/`);
    expect(await store.size(`projects/p2/sources/a/original.pdf`)).toBeNull();
    expect(await store.size(`projects/p2/sources/a/snapshot-1/page.html`)).toBeNull();
    expect(await store.size(`projects/p2/sources/ab/original.pdf`)).toBe(1);
  });

  it("passes its start check", async () => {
    await expect(make().check()).resolves.toBeUndefined();
  });
});

describe("the S3 store's start check", () => {
  it("names a bucket that does not exist", async () => {
    const store = createS3FileStore({ ...s3.settings, bucket: "no-such-bucket" });
    await expect(store.check()).rejects.toThrow(
      `STORAGE_DRIVER=s3: the bucket "no-such-bucket" at ${s3.endpoint} cannot be used: the bucket does not exist`,
    );
  });

  it("names an endpoint that does not answer", async () => {
    const store = createS3FileStore({ ...s3.settings, endpoint: "http://127.0.0.1:9" });
    await expect(store.check()).rejects.toThrow(
      /bucket "quarry-files" at http:\/\/127\.0\.0\.1:9 cannot be used: .*ECONNREFUSED/,
    );
  });
});
