import { createWriteStream } from "node:fs";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { describeBucket, type S3Settings } from "./s3-settings";
import { sizeLimit } from "./size-limit";
import { MissingStoredFile, type FileStore } from "./types";

/**
 * Parts of 8 MiB, two in flight: an upload holds about three parts (24 MB) whatever the file's size. S3's smallest
 * part is 5 MiB, and at 10,000 parts at most this still takes files up to 80 GB.
 */
export const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/** DeleteObjects takes at most 1,000 keys a call. */
const DELETE_BATCH = 1000;

export const createS3Client = (settings: S3Settings) =>
  new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // Checksums only where S3 requires them: MinIO, Garage, R2 and older servers reject or mishandle the SDK's
    // default CRC headers on every upload (and streamed bodies would be sent as aws-chunked with trailers).
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    // A store that does not answer fails the call instead of hanging a build; idle sockets mid-transfer are dropped.
    requestHandler: { connectionTimeout: 10_000, socketTimeout: 120_000 },
  });

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata.httpStatusCode === 404);

/** Why the bucket cannot be used, in words (the SDK reports a HEAD's 404 as "UnknownError"). */
const bucketProblem = (error: unknown): string => {
  if (!(error instanceof S3ServiceException)) return error instanceof Error ? error.message : String(error);
  const status = error.$metadata.httpStatusCode;
  if (status === 404) return "the bucket does not exist";
  if (status === 403) return "access denied (check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)";
  if (status === 301 || status === 400) return `the store refused the request (${status}: check S3_REGION)`;
  return `${error.name} (${status ?? "no status"})`;
};

/** Streams `body` to `key` with a multipart upload whose memory is bounded by its parts. */
const putObject = async (
  client: S3Client,
  bucket: string,
  key: string,
  body: Readable,
  maxBytes: number,
): Promise<{ size: number }> => {
  const limit = sizeLimit(maxBytes);
  const piped = pipeline(body, limit.counter);
  // Nothing is visible under the key until the upload completes; a failed one aborts its parts (leavePartsOnError).
  const upload = new Upload({
    client,
    params: { Bucket: bucket, Key: key, Body: limit.counter },
    partSize: PART_SIZE,
    queueSize: PARTS_IN_FLIGHT,
    leavePartsOnError: false,
  });
  try {
    await Promise.all([upload.done(), piped]);
    return { size: limit.size() };
  } catch (error) {
    limit.counter.destroy();
    await upload.abort().catch(() => undefined);
    // The size limit's own error is the reason when it fired, whichever side reported first.
    throw (limit.counter.errored as Error | null) ?? error;
  }
};

const deleteUnder = async (client: S3Client, bucket: string, prefix: string) => {
  // A prefix that is not a folder could match other sources' keys (or, empty, the whole bucket).
  if (!prefix.endsWith("/") || prefix === "/") throw new Error(`Invalid storage prefix: ${prefix}`);
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token, MaxKeys: DELETE_BATCH }),
    );
    const keys = (page.Contents ?? []).flatMap((item) => (item.Key ? [{ Key: item.Key }] : []));
    if (keys.length) {
      const result = await client.send(
        new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }),
      );
      const failed = result.Errors?.[0];
      if (failed) throw new Error(`Could not delete ${failed.Key}: ${failed.Code ?? ""} ${failed.Message ?? ""}`);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
};

/** Files as objects of one bucket, under the same keys as the local store's paths. */
export const createS3FileStore = (settings: S3Settings, client = createS3Client(settings)): FileStore => {
  const Bucket = settings.bucket;
  const stream = async (key: string): Promise<Readable> => {
    try {
      const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
      return object.Body as Readable; // in Node, the SDK's body is an http.IncomingMessage
    } catch (error) {
      throw isNotFound(error) ? new MissingStoredFile(key) : error;
    }
  };
  return {
    put: (key, body, { maxBytes = Number.POSITIVE_INFINITY } = {}) => putObject(client, Bucket, key, body, maxBytes),
    read: async (key) => {
      const chunks: Buffer[] = [];
      for await (const chunk of await stream(key)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    stream,
    copyToFile: async (key, target) => pipeline(await stream(key), createWriteStream(target, { mode: 0o600 })),
    size: async (key) => {
      try {
        return (await client.send(new HeadObjectCommand({ Bucket, Key: key }))).ContentLength ?? 0;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    delete: async (key) => {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    deletePrefix: (prefix) => deleteUnder(client, Bucket, prefix),
    check: async () => {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        throw new Error(`STORAGE_DRIVER=s3: the ${describeBucket(settings)} cannot be used: ${bucketProblem(error)}`);
      }
    },
  };
};
