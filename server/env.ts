import { z } from "zod";

/**
 * The one place that reads process.env. Everything else imports `env`.
 *
 * Parsed lazily on first access, because the launcher (scripts/start.ts) fills in values it only knows at run time
 * (the embedded database's URL, the local job runner's address) before the app reads them.
 */

const emptyAsUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const int = (fallback: number) => z.preprocess((v) => emptyAsUndefined(v) ?? fallback, z.coerce.number().int());

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: int(3000).pipe(z.number().min(0).max(65535)),
  /** Interface the HTTP server binds to (0.0.0.0 for every interface; the dashboard requires sign-in). */
  HOST: z.preprocess(emptyAsUndefined, z.string().default("127.0.0.1")),
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z.enum(["trace", "debug", "info", "warn", "error", "silent"]).default("info"),
  ),

  /** Everything the embedded mode writes: database, uploaded files, runtime info. */
  QUARRY_DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default("./.quarry")),
  /** A Postgres with pgvector. When unset, Quarry starts its embedded Postgres (PGlite) in QUARRY_DATA_DIR. */
  DATABASE_URL: optionalString,
  /** Loopback port of the embedded Postgres; 0 picks a free one (recorded in QUARRY_DATA_DIR/runtime.json). */
  QUARRY_DB_PORT: int(0),
  /** Password of the embedded Postgres for psql, pg_dump and other tools. Unset: QUARRY_DATA_DIR/db-password. */
  QUARRY_DB_PASSWORD: optionalString,

  /** First start, headless: create this project and this API token (all permissions). */
  QUARRY_INIT_TOKEN: optionalString,
  QUARRY_INIT_PROJECT: z.preprocess(emptyAsUndefined, z.string().default("default")),
  /** Optional secret mixed into token hashes. Changing it invalidates every stored token. */
  QUARRY_TOKEN_PEPPER: z.preprocess(emptyAsUndefined, z.string().default("")),

  /**
   * Sign-in. The address browsers use (https://quarry.example.com): OAuth callbacks and links are built from it, and
   * cookies get Secure when it is https. Unset: the address each request was sent to.
   */
  QUARRY_PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /**
   * Flows. Base of the public flow URLs (`http://flows.example.com`: a flow `faq` is `http://faq.flows.example.com`);
   * needs wildcard DNS to this server. Unset: URLs are the path form `<origin>/api/public/v1/flows/<name>`.
   */
  PUBLIC_FLOWS_BASE: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** Chat-model tokens (in + out) a flow's graph and tree builds may spend, unless the flow sets its own budget. */
  FLOW_BUILD_TOKEN_BUDGET: int(2_000_000).pipe(z.number().min(0)),
  /** Key that signs session cookies. Unset: one is generated on first start and kept in the database. */
  QUARRY_AUTH_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32).optional()),
  /**
   * Key from which the key that encrypts model providers' API keys is derived. Unset: the session secret above (or
   * the generated one). Changing it makes saved provider keys unreadable until an admin enters them again.
   */
  QUARRY_SECRET_KEY: z.preprocess(emptyAsUndefined, z.string().min(32).optional()),
  QUARRY_SESSION_DAYS: int(7).pipe(z.number().min(1).max(365)),
  /** Sign-in and sign-up attempts allowed per client address and minute. */
  QUARRY_AUTH_ATTEMPTS_PER_MINUTE: int(10).pipe(z.number().min(1)),
  /** "Forgot password" requests an hour per email address, and per client address (server/auth/reset-limits.ts); 0 = no limit. */
  QUARRY_RESET_MAILS_PER_ADDRESS_HOUR: int(3).pipe(z.number().min(0)),
  QUARRY_RESET_REQUESTS_PER_IP_HOUR: int(20).pipe(z.number().min(0)),
  /** Headless first start: the install's first owner. Unset: the first browser visit offers to create it. */
  QUARRY_ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.email().optional()),
  QUARRY_ADMIN_PASSWORD: z.preprocess(emptyAsUndefined, z.string().min(8).max(128).optional()),
  /** Optional sign-in providers: any OpenID Connect issuer (its discovery URL), GitHub, Google. */
  OIDC_DISCOVERY_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  OIDC_PROVIDER_NAME: z.preprocess(emptyAsUndefined, z.string().default("Single sign-on")),
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /** Optional mail for invitation links (smtp://user:pass@host:587 or smtps://...). Unset: links are copied by hand. */
  SMTP_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  SMTP_FROM: z.preprocess(emptyAsUndefined, z.string().default("Quarry <quarry@localhost>")),

  /** Builds processed at once by the in-process job runner. */
  QUARRY_JOB_CONCURRENCY: int(2).pipe(z.number().min(1).max(32)),
  /**
   * How long a replica's claim on a run lasts without renewal (renewed every third of it): after a replica dies, another
   * takes its runs over once this has passed.
   */
  QUARRY_JOB_LEASE_MS: int(30_000).pipe(z.number().min(1000).max(600_000)),
  /**
   * An upload's stored original whose source row never came (its replica was killed mid-upload) is deleted once its
   * pending record is this old, by a sweep at start and every quarter of it. Longer than any upload can take.
   */
  QUARRY_ORPHAN_UPLOAD_MINUTES: int(60).pipe(z.number().min(1).max(10_080)),
  /** Per-document parse limits: the worker process is killed past them and the build fails with the reason. */
  QUARRY_PARSE_TIMEOUT_S: int(1800).pipe(z.number().min(1)),
  QUARRY_PARSE_MAX_MEMORY_MB: int(3072).pipe(z.number().min(64)),
  /** One PDF page that takes longer than this to read is skipped (with a warning) and the document parsed again. */
  QUARRY_PARSE_PAGE_TIMEOUT_S: int(60).pipe(z.number().min(1)),
  /** Parse worker processes kept warm and reused (each within the limits above); more documents wait their turn. */
  QUARRY_PARSE_WORKERS: int(2).pipe(z.number().min(1).max(16)),
  /** Public API limits, per API token; 0 turns a limit off. Past them: 429 `Too many requests` with Retry-After. */
  QUARRY_RATE_LIMIT_PER_MIN: int(1200).pipe(z.number().min(0)),
  QUARRY_UPLOADS_PER_TOKEN: int(8).pipe(z.number().min(0)),
  /** JSON request bodies larger than this are refused with 413 (uploads have their own 100 MB limit). */
  QUARRY_MAX_JSON_BODY_KB: int(1024).pipe(z.number().min(1)),
  /** Page screenshots drawn at once (each in a worker process of up to 1.5 GB); more wait their turn. */
  QUARRY_SCREENSHOT_CONCURRENCY: int(2).pipe(z.number().min(1).max(16)),
  /** HNSW candidates per vector search (pgvector hnsw.ef_search): higher finds more true neighbours, slower. */
  QUARRY_HNSW_EF_SEARCH: int(400).pipe(z.number().min(1).max(1000)),
  /** Log statements and transactions that held the embedded database's session longer (ms; 0: off). */
  QUARRY_DB_SLOW_MS: int(0).pipe(z.number().min(0)),
  /** Indexing options offered by GET /config: "full" or "full,none". */
  QUARRY_INDEXING_OPTIONS: z.preprocess(emptyAsUndefined, z.string().default("full,none")),

  /**
   * Who runs jobs: "inngest" (a real Inngest server, self-hosted or cloud) or "local" (the in-process executor).
   * Unset: "inngest" when INNGEST_BASE_URL or INNGEST_EVENT_KEY is set, else "local".
   */
  QUARRY_JOB_RUNNER: z.preprocess(emptyAsUndefined, z.enum(["local", "inngest"]).optional()),
  INNGEST_BASE_URL: optionalString,
  INNGEST_EVENT_KEY: optionalString,
  INNGEST_SIGNING_KEY: optionalString,
  INNGEST_DEV: optionalString,

  /** Embeddings: "local" (model-free, deterministic) or "openai" (any OpenAI-compatible server). */
  EMBEDDING_PROVIDER: z.preprocess(emptyAsUndefined, z.enum(["local", "openai"]).default("local")),
  EMBEDDING_BASE_URL: z.preprocess(emptyAsUndefined, z.string().url().default("https://api.openai.com/v1")),
  EMBEDDING_API_KEY: optionalString,
  EMBEDDING_MODEL: z.preprocess(emptyAsUndefined, z.string().default("text-embedding-3-small")),
  EMBEDDING_DIMENSIONS: int(0),

  /**
   * Keyword search: "auto" uses BM25 (pg_textsearch) when the database offers it, else Postgres full text;
   * "bm25" refuses to start without BM25; "fulltext" always uses Postgres full text.
   */
  QUARRY_KEYWORD_ENGINE: z.preprocess(emptyAsUndefined, z.enum(["auto", "bm25", "fulltext"]).default("auto")),
  /**
   * Reranking for search_type "semantic": any Cohere/Jina-style `POST /rerank` API (Cohere, Jina, Voyage, vLLM,
   * Hugging Face TEI, LiteLLM). Unset: a local, model-free reranker (query-term coverage and phrases, mixed with the
   * hybrid score).
   */
  RERANK_BASE_URL: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  RERANK_MODEL: z.preprocess(emptyAsUndefined, z.string().default("rerank-v3.5")),
  RERANK_API_KEY: optionalString,

  /**
   * Chat model for enrichment and answers: "local" (model-free extractor) or "openai" (OpenAI, Groq, Ollama, vLLM:
   * any OpenAI-compatible chat completions server).
   */
  LLM_PROVIDER: z.preprocess(emptyAsUndefined, z.enum(["local", "openai"]).default("local")),
  LLM_BASE_URL: z.preprocess(emptyAsUndefined, z.string().url().default("https://api.openai.com/v1")),
  LLM_API_KEY: optionalString,
  LLM_MODEL: z.preprocess(emptyAsUndefined, z.string().default("gpt-4o-mini")),
  /**
   * Structured output of the configured chat model: "auto" uses native `json_schema` on api.openai.com and JSON mode
   * with the schema in the prompt elsewhere; "json_schema" or "json_mode" force one.
   */
  LLM_STRUCTURED_OUTPUT: z.preprocess(emptyAsUndefined, z.enum(["auto", "json_schema", "json_mode"]).default("auto")),
  /** Per-attempt timeout of a chat call (a streamed reply: until its first byte). */
  LLM_TIMEOUT_S: int(120).pipe(z.number().min(1)),
  /**
   * Keys for the named models a flow's llm node can pick (gpt-4o, gpt-4.1-mini, llama-3.1-8b-instant, ...): OpenAI's
   * and Groq's. Without the provider's key a named model falls back to the configured LLM_MODEL (and says so).
   */
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: z.preprocess(emptyAsUndefined, z.string().url().default("https://api.openai.com/v1")),
  GROQ_API_KEY: optionalString,
  GROQ_BASE_URL: z.preprocess(emptyAsUndefined, z.string().url().default("https://api.groq.com/openai/v1")),
  /**
   * Vision-capable chat model for the `agentic` method. Unset: agentic is refused with 400. Base URL and key
   * default to the LLM ones.
   */
  VISION_MODEL: optionalString,
  VISION_BASE_URL: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  VISION_API_KEY: optionalString,
  /**
   * Speech-to-text for audio and video: an OpenAI- or Groq-compatible `/audio/transcriptions` API. Unset: subtitle
   * tracks inside the file are used, otherwise the build fails saying a speech provider is needed.
   */
  SPEECH_BASE_URL: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  SPEECH_API_KEY: optionalString,
  SPEECH_MODEL: z.preprocess(emptyAsUndefined, z.string().default("whisper-1")),

  /**
   * Outbound fetching (web pages, file URLs, GitHub, YouTube) refuses private, loopback, link-local and other
   * non-public addresses. This comma-separated list of `host:port` (e.g. `127.0.0.1:8123`) is the only exception,
   * meant for local test servers; empty by default.
   */
  QUARRY_FETCH_ALLOW_HOSTS: z.preprocess(emptyAsUndefined, z.string().default("")),
  /**
   * Webhooks (server/webhooks/): seconds to wait before each retry of a failed delivery (the first attempt is at
   * once), the time limit of one attempt, and how many deliveries in a row may fail every attempt before the
   * endpoint is disabled. Tests shorten the schedule.
   */
  QUARRY_WEBHOOK_RETRY_SCHEDULE_S: z.preprocess(emptyAsUndefined, z.string().default("5,60,600,3600,21600")),
  QUARRY_WEBHOOK_TIMEOUT_MS: int(10_000).pipe(z.number().min(100).max(60_000)),
  QUARRY_WEBHOOK_DISABLE_AFTER: int(5).pipe(z.number().min(1).max(1000)),
  /** Optional GitHub token: raises the API rate limit for repository downloads (public repositories only). */
  GITHUB_TOKEN: optionalString,
  /** GitHub's REST API; another base serves a GitHub Enterprise host or a local stand-in. */
  GITHUB_API_BASE_URL: z.preprocess(emptyAsUndefined, z.string().url().default("https://api.github.com")),
  /** Where YouTube watch pages and the player API are fetched from (a local stand-in in tests). */
  YOUTUBE_BASE_URL: z.preprocess(emptyAsUndefined, z.string().url().default("https://www.youtube.com")),

  /** File storage: "local" (under QUARRY_DATA_DIR/files) or "s3" (any S3-compatible store). */
  STORAGE_DRIVER: z.preprocess(emptyAsUndefined, z.enum(["local", "s3"]).default("local")),
  /** An S3-compatible server (MinIO, R2, Garage); unset: AWS S3 of S3_REGION. */
  S3_ENDPOINT: z.preprocess(emptyAsUndefined, z.string().url().optional()),
  S3_REGION: z.preprocess(emptyAsUndefined, z.string().default("us-east-1")),
  S3_BUCKET: optionalString,
  /** Both or neither: unset, the AWS SDK's default chain (AWS_* variables, profiles, instance roles) is used. */
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  /**
   * Bucket in the path (`endpoint/bucket/key`) instead of the host name. Unset: on when S3_ENDPOINT is set, since
   * MinIO, Garage and most self-hosted stores serve no per-bucket host names.
   */
  S3_FORCE_PATH_STYLE: z.preprocess(emptyAsUndefined, z.enum(["true", "false"]).optional()),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

const parse = (): Env => {
  const result = schema.safeParse(process.env);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${issues}`);
  }
  return result.data;
};

export const env: Env = new Proxy({} as Env, {
  get: (_target, key) => {
    cached ??= parse();
    return cached[key as keyof Env];
  },
});

/** Set a variable the launcher learns at run time (and that child processes inherit), then re-read the env. */
export const setRuntimeEnv = (key: keyof Env, value: string) => {
  (process.env as Record<string, string>)[key] = value;
  cached = undefined;
};

export const jobRunner = (): "local" | "inngest" =>
  env.QUARRY_JOB_RUNNER ?? (env.INNGEST_BASE_URL || env.INNGEST_EVENT_KEY ? "inngest" : "local");
