import { afterEach, expect, it } from "vitest";
import { setRuntimeEnv } from "../env";
import { s3SettingsFromEnv } from "./s3-settings";

const KEYS = ["S3_BUCKET", "S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE"] as const;
const saved = Object.fromEntries(KEYS.map((key) => [key, process.env[key]]));

const setEnv = (values: Partial<Record<(typeof KEYS)[number], string>>) => {
  for (const key of KEYS) setRuntimeEnv(key, values[key] ?? "");
};

afterEach(() => {
  for (const key of KEYS) setRuntimeEnv(key, saved[key] ?? "");
});

it("needs a bucket, and both keys or neither", () => {
  setEnv({});
  expect(() => s3SettingsFromEnv()).toThrow("STORAGE_DRIVER=s3 needs S3_BUCKET");
  setEnv({ S3_BUCKET: "files", S3_ACCESS_KEY_ID: "id" });
  expect(() => s3SettingsFromEnv()).toThrow("Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither");
  setEnv({ S3_BUCKET: "files" });
  expect(s3SettingsFromEnv()).toMatchObject({ bucket: "files", credentials: undefined, forcePathStyle: false });
});

it("addresses the bucket in the path when an endpoint is set, unless told otherwise", () => {
  setEnv({ S3_BUCKET: "files", S3_ENDPOINT: "http://minio:9000", S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "s" });
  expect(s3SettingsFromEnv()).toMatchObject({
    endpoint: "http://minio:9000",
    credentials: { accessKeyId: "id", secretAccessKey: "s" },
    forcePathStyle: true,
  });
  setEnv({ S3_BUCKET: "files", S3_ENDPOINT: "https://acct.r2.cloudflarestorage.com", S3_FORCE_PATH_STYLE: "false" });
  expect(s3SettingsFromEnv().forcePathStyle).toBe(false);
});
