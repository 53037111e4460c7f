import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setRuntimeEnv } from "../env";
import { startS3StandIn, type S3StandIn } from "../testing/s3-stand-in";
import { startTestDatabase, type TestDatabase } from "../testing/test-database";
import type { StoredUpload } from "./service";

/**
 * A replica killed mid-upload, made deterministic: the upload's original is stored and its source row never comes
 * (the upload simply stops before createSourceFromUpload), and its pending record is aged past the bound by hand.
 * The sweep deletes those files, on the local store (through the real storeUpload, and a half-written `.part` file)
 * and on S3 (s3rver over HTTP, the real AWS client); it keeps the files of a live source and of an upload still in
 * flight (younger than the bound).
 */

let database: TestDatabase;
let s3: S3StandIn;
let projectId: string;
const dataDir = mkdtempSync(path.join(tmpdir(), "quarry-orphans-"));

beforeAll(async () => {
  database = await startTestDatabase();
  setRuntimeEnv("QUARRY_DATA_DIR", dataDir); // before the first fileStore(): the local store lives here
  setRuntimeEnv("QUARRY_INIT_TOKEN", "qry_orphansinittoken0123456789");
  s3 = await startS3StandIn();
  const { setInProcessEvents } = await import("../jobs/in-process-events");
  setInProcessEvents(async () => undefined); // builds are requested, not run
  const { bootstrap } = await import("../bootstrap");
  await bootstrap();
  const { db } = await import("../db");
  projectId = (await db.project.findFirstOrThrow()).id;
}, 300_000);

afterAll(async () => {
  await s3?.close();
  await database?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const bytes = () => Readable.from([Buffer.from("the original bytes")]);

/** Makes a pending record older than the one-hour bound, as a crash an hour ago would have left it. */
const age = async (sourceId: string) => {
  const { db } = await import("../db");
  await db.$executeRaw`UPDATE pending_uploads SET created_at = now() - interval '2 hours' WHERE source_id = ${sourceId}::uuid`;
};

const pendingIds = async () => {
  const { db } = await import("../db");
  return (await db.pendingUpload.findMany({ select: { sourceId: true } })).map((p) => p.sourceId).sort();
};

const live = async (upload: StoredUpload) => {
  const { createSourceFromUpload } = await import("./service");
  await createSourceFromUpload({
    projectId,
    upload,
    options: { method: "basic", enrichment: "full", indexing: "full" },
  });
};

describe("the orphaned upload sweep", () => {
  it("deletes a crashed upload's original on the local store and keeps live and in-flight ones", async () => {
    const { storeUpload } = await import("./service");
    const { sweepOrphanUploads } = await import("./orphans");
    const { fileStore } = await import("../storage");
    const store = fileStore();
    const upload = (name: string) => storeUpload({ projectId, fileName: name, stream: bytes(), maxBytes: 1_000_000 });

    const crashed = await upload("crashed.txt");
    const inFlight = await upload("in-flight.txt");
    const kept = await upload("kept.txt");
    await live(kept);
    // Killed mid-write: only the local store's temp file exists in the folder.
    const cut = await upload("cut.txt");
    await store.delete(cut.storageKey);
    const folder = path.join(dataDir, "files", path.dirname(cut.storageKey));
    writeFileSync(path.join(folder, "original.txt.4242.1.part"), "half");

    expect(await pendingIds()).toEqual([crashed.sourceId, inFlight.sourceId, cut.sourceId].sort());
    await age(crashed.sourceId);
    await age(cut.sourceId);

    expect(await sweepOrphanUploads()).toBe(2);
    expect(await store.size(crashed.storageKey)).toBeNull();
    expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
    expect(await store.size(inFlight.storageKey)).toBe(18);
    expect(await store.size(kept.storageKey)).toBe(18);
    expect(await pendingIds()).toEqual([inFlight.sourceId]);

    // Once past the bound the in-flight upload is an orphan too; a second sweep finds nothing more.
    await age(inFlight.sourceId);
    expect(await sweepOrphanUploads()).toBe(1);
    expect(await store.size(inFlight.storageKey)).toBeNull();
    expect(await sweepOrphanUploads()).toBe(0);
    expect(await store.size(kept.storageKey)).toBe(18);
  });

  it("removes the pending record when a stored upload is discarded or its put fails", async () => {
    const { storeUpload, discardUpload } = await import("./service");
    const refused = await storeUpload({ projectId, fileName: "big.txt", stream: bytes(), maxBytes: 4 }).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    const discarded = await storeUpload({ projectId, fileName: "bad.txt", stream: bytes(), maxBytes: 1_000_000 });
    await discardUpload(discarded);
    expect(await pendingIds()).toEqual([]);
  });

  it("deletes a crashed upload's original in S3 and keeps live and in-flight ones", async () => {
    const { recordPendingUpload, sweepOrphanUploads } = await import("./orphans");
    const { createS3FileStore } = await import("../storage/s3-store");
    const { originalFileKey } = await import("../storage");
    const store = createS3FileStore(s3.settings);
    // What storeUpload does, with the S3 store: the record first, then the bytes.
    const upload = async (fileName: string) => {
      const sourceId = randomUUID();
      const storageKey = originalFileKey({ projectId, sourceId }, "txt");
      await recordPendingUpload({ projectId, sourceId });
      const { size } = await store.put(storageKey, bytes());
      return { sourceId, fileName, fileType: "txt", storageKey, size };
    };

    const crashed = await upload("crashed.txt");
    const inFlight = await upload("in-flight.txt");
    const kept = await upload("kept.txt");
    await live(kept);
    // A record left over although its source committed (never written so, but the sweep must not trust that).
    const { db } = await import("../db");
    await db.pendingUpload.create({ data: { projectId, sourceId: kept.sourceId } });
    await age(kept.sourceId);
    await age(crashed.sourceId);

    expect(await sweepOrphanUploads({ store })).toBe(1);
    expect(await s3.keys(`projects/${projectId}/`)).toEqual([inFlight.storageKey, kept.storageKey].sort());
    expect(await pendingIds()).toEqual([inFlight.sourceId]);
  });
});
