import { env } from "../env";

/** How to reach the bucket: read from the environment once, apart from the SDK so that nothing loads it unused. */
export type S3Settings = {
  bucket: string;
  region: string;
  /** An S3-compatible server's address; unset: AWS. */
  endpoint?: string;
  /** Unset: the AWS SDK's default credential chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
};

export const s3SettingsFromEnv = (): S3Settings => {
  if (!env.S3_BUCKET) throw new Error("STORAGE_DRIVER=s3 needs S3_BUCKET (the bucket Quarry stores files in)");
  const keyId = env.S3_ACCESS_KEY_ID;
  const secret = env.S3_SECRET_ACCESS_KEY;
  if (Boolean(keyId) !== Boolean(secret)) {
    throw new Error("Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the AWS SDK's default chain)");
  }
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    credentials: keyId && secret ? { accessKeyId: keyId, secretAccessKey: secret } : undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === "true" : Boolean(env.S3_ENDPOINT),
  };
};

/** Where the bucket is, for messages (never the credentials). */
export const describeBucket = (settings: S3Settings) =>
  `bucket "${settings.bucket}" at ${settings.endpoint ?? `AWS S3 (${settings.region})`}`;
