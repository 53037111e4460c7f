import { performance } from "node:perf_hooks";
import { fetcher as sharedFetcher, type Fetcher } from "../connectors/fetch";
import { AppError, errorMessage } from "../errors";
import { LISTS_MODELS, type ConnectionTest, type ProviderKind } from "./model-providers.schema";

/**
 * "Test connection": one cheap call, the model list (`GET {base}/models`; an Ollama server addressed without `/v1`
 * answers that with 404, and then its own `/api/tags`). Every call goes through the one SSRF-safe fetcher, so a
 * provider on a private or loopback address is reached only when QUARRY_FETCH_ALLOW_HOSTS names it.
 */

const TIMEOUT_MS = 15_000;
const MAX_BYTES = 5 * 1024 * 1024;

export type ProbeResult = ConnectionTest & { models: string[] | null };

type Target = { kind: ProviderKind; baseUrl: string; apiKey: string | null };

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** Ollama's native list sits beside its OpenAI-compatible `/v1`. */
const ollamaTagsUrl = (baseUrl: string) => `${trimSlash(baseUrl).replace(/\/v1$/, "")}/api/tags`;

const errorText = (bytes: Buffer): string => {
  try {
    const body = JSON.parse(bytes.toString("utf8")) as { error?: { message?: unknown } | string; detail?: unknown };
    const message = typeof body.error === "string" ? body.error : (body.error?.message ?? body.detail);
    if (typeof message === "string") return message.slice(0, 300);
  } catch {
    // not JSON: the status says enough
  }
  return "";
};

/** Model ids of an OpenAI-style `{ data: [{ id }] }` or an Ollama-style `{ models: [{ name }] }` answer. */
const modelIds = (bytes: Buffer): string[] | null => {
  try {
    const body = JSON.parse(bytes.toString("utf8")) as {
      data?: { id?: unknown }[];
      models?: { name?: unknown; model?: unknown }[];
    };
    const ids = Array.isArray(body.data)
      ? body.data.map((m) => m.id)
      : Array.isArray(body.models)
        ? body.models.map((m) => m.name ?? m.model)
        : null;
    return ids ? [...new Set(ids.filter((id): id is string => typeof id === "string"))].sort() : null;
  } catch {
    return null;
  }
};

const get = (fetch: Fetcher, url: string, apiKey: string | null) =>
  fetch.fetchBytes(url, {
    headers: { accept: "application/json", ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    timeoutMs: TIMEOUT_MS,
    maxBytes: MAX_BYTES,
  });

const verdict = async (fetch: Fetcher, target: Target): Promise<Omit<ProbeResult, "latencyMs" | "at">> => {
  const url = `${trimSlash(target.baseUrl)}/models`;
  let res = await get(fetch, url, target.apiKey);
  if (res.status === 404) {
    const tags = await get(fetch, ollamaTagsUrl(target.baseUrl), target.apiKey).catch(() => null);
    if (tags?.status === 200 && modelIds(tags.bytes)) res = tags;
  }
  if (res.status === 401 || res.status === 403) {
    const why = errorText(res.bytes);
    return {
      ok: false,
      models: null,
      message: `The server refused the key (HTTP ${res.status})${why ? `: ${why}` : ""}`,
    };
  }
  if (res.status === 404 && !LISTS_MODELS[target.kind]) {
    return { ok: true, models: null, message: "Connected; this server does not list its models" };
  }
  if (res.status !== 200) {
    const why = errorText(res.bytes);
    return { ok: false, models: null, message: `${url} answered HTTP ${res.status}${why ? `: ${why}` : ""}` };
  }
  const models = modelIds(res.bytes);
  if (!models) return { ok: false, models: null, message: `${res.url} did not answer with a model list` };
  return { ok: true, models, message: `Connected: ${models.length} model${models.length === 1 ? "" : "s"}` };
};

/** Never throws: a refused address, a refused connection or a wrong key is a result the page shows. */
export const probeProvider = async (target: Target, fetch: Fetcher = sharedFetcher()): Promise<ProbeResult> => {
  const started = performance.now();
  const outcome = await verdict(fetch, target).catch((error: unknown) => ({
    ok: false,
    models: null,
    message: error instanceof AppError ? error.message : `Could not reach ${target.baseUrl}: ${errorMessage(error)}`,
  }));
  return { ...outcome, latencyMs: Math.round(performance.now() - started), at: new Date().toISOString() };
};

/**
 * At save time: the address must have a shape the fetcher accepts and must not be a private or loopback address the
 * install does not allow. A name that does not resolve from here is accepted (the test will say so).
 */
export const checkProviderAddress = async (baseUrl: string, fetch: Fetcher = sharedFetcher()) => {
  await fetch.check(baseUrl).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "BAD_REQUEST") throw error;
  });
};
