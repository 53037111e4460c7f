import { isIP } from "node:net";
import { Transform, type Readable } from "node:stream";
import { Agent, buildConnector, request } from "undici";
import { env } from "../env";
import { AppError, errorMessage } from "../errors";
import {
  checkDestination,
  checkUrlShape,
  hostPort,
  isPublicAddress,
  parseAllowHosts,
  refusedAddress,
  RefusedDestinationError,
  systemResolver,
  type DestinationPolicy,
  type Resolver,
} from "./destination";

/**
 * The one outbound HTTP client of every connector (web pages, file URLs, GitHub, YouTube). Every request and every
 * redirect hop goes through the same checks:
 * - before: http/https only, no credentials, and the destination (IP literal or every address the name resolves
 *   to) must be public (destination.ts);
 * - while connecting: an IP literal is checked again in the dispatcher's `connect`, and once the socket is open its
 *   real remote address is checked, so a name that resolves to a public address for the check and to a private one
 *   for the connection (DNS rebinding) is refused;
 * - redirects are followed by hand (at most 5), each re-checked; credentials never follow a redirect to another
 *   origin;
 * - connect, header and read timeouts, an overall deadline, and a size cap enforced while streaming.
 */

export const DEFAULT_MAX_BYTES = 100 * 1024 * 1024;
export const USER_AGENT = "Mozilla/5.0 (compatible; QuarryBot/1.0; +https://github.com/quarry-ingest/quarry)";
/** The product token robots.txt groups are matched against. */
export const ROBOTS_AGENT = "QuarryBot";

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

export type FetchOptions = {
  method?: "GET" | "HEAD" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Bytes of body accepted; past them the stream fails with 413's text. */
  maxBytes?: number;
  /** Deadline of the whole exchange, body included. */
  timeoutMs?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
};

export type FetchedResponse = {
  /** URL of the final answer, after redirects. */
  url: string;
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Every URL requested, in order (the first is the one asked for). */
  hops: string[];
  contentLength: number | null;
  body: Readable;
};

export type Fetcher = {
  /** The response with its body as a capped stream; the caller must consume or destroy it. */
  open: (url: string, options?: FetchOptions) => Promise<FetchedResponse>;
  /** The whole body in memory (within `maxBytes`). */
  fetchBytes: (url: string, options?: FetchOptions) => Promise<Omit<FetchedResponse, "body"> & { bytes: Buffer }>;
  /** Request-time check of a URL (shape and destination) without fetching it. */
  check: (url: string) => Promise<URL>;
};

export type FetcherConfig = {
  /** `host:port` entries that may be reached although their address is not public (local test servers). */
  allowHosts?: Set<string>;
  resolver?: Resolver;
  connectTimeoutMs?: number;
  /** Wait for the response headers, and the longest pause while the body streams. */
  readTimeoutMs?: number;
  userAgent?: string;
};

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

export const tooLarge = (maxBytes: number) =>
  new AppError("PAYLOAD_TOO_LARGE", `File exceeds the maximum size of ${mb(maxBytes)}`);

const NETWORK_REASONS: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
  UND_ERR_HEADERS_TIMEOUT: "the server did not answer in time",
  UND_ERR_BODY_TIMEOUT: "the server stopped sending",
  UND_ERR_SOCKET: "the connection broke",
  ECONNREFUSED: "the connection was refused",
  ECONNRESET: "the connection was reset",
  ENOTFOUND: "the host was not found",
  EAI_AGAIN: "the host could not be resolved",
  EHOSTUNREACH: "the host is unreachable",
  ENETUNREACH: "the network is unreachable",
  UND_ERR_ABORTED: "the request was aborted",
};

/** Any failure of an exchange as the sentence a person reads; refusals and size errors keep their own text. */
export const fetchFailure = (url: string, error: unknown): AppError => {
  if (error instanceof AppError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof AppError) return cause;
  const code = (error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code ?? "";
  const name = (error as { name?: string }).name;
  let reason = NETWORK_REASONS[code];
  if (!reason && (name === "TimeoutError" || name === "AbortError")) reason = "it took too long";
  if (!reason && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code)) reason = `TLS certificate problem (${code})`;
  return new AppError("UNPROCESSABLE", `Could not fetch ${url}: ${reason ?? errorMessage(error)}`);
};

/**
 * A connection pool whose `connect` refuses non-public IP literals before connecting and checks the socket's real
 * remote address after connecting. Name resolution goes through the policy's resolver (plain resolution: the
 * verdict is the socket's address, whatever the resolver said).
 */
const guardedAgent = (policy: DestinationPolicy, connectTimeoutMs: number, readTimeoutMs: number) => {
  const lookup = (
    hostname: string,
    options: { all?: boolean },
    callback: (err: Error | null, address: string | { address: string; family: number }[], family?: number) => void,
  ) => {
    policy.resolver(hostname).then(
      (addresses) => {
        const list = addresses.map((address) => ({ address, family: isIP(address) }));
        if (list.length === 0)
          return callback(Object.assign(new Error(`${hostname}: no address`), { code: "ENOTFOUND" }), []);
        if (options.all) callback(null, list);
        else callback(null, list[0]!.address, list[0]!.family);
      },
      (error: Error) => callback(error, []),
    );
  };
  const connector = buildConnector({ timeout: connectTimeoutMs, lookup } as buildConnector.BuildOptions);
  return new Agent({
    headersTimeout: readTimeoutMs,
    bodyTimeout: readTimeoutMs,
    connect: (opts, callback) => {
      const target = `${opts.protocol}//${opts.hostname}${opts.port ? `:${opts.port}` : ""}/`;
      const allowed = policy.allowHosts.has(hostPort(opts.hostname, opts.port, opts.protocol));
      if (!allowed && isIP(opts.hostname) && !isPublicAddress(opts.hostname)) {
        return callback(refusedAddress(target, opts.hostname, opts.hostname), null);
      }
      connector(opts, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error("no socket"), null);
        const remote = socket.remoteAddress ?? "";
        if (!allowed && !isPublicAddress(remote)) {
          socket.destroy();
          return callback(refusedAddress(target, opts.hostname, remote || "an unknown address"), null);
        }
        callback(null, socket);
      });
    },
  });
};

const flatHeaders = (headers: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter((e): e is [string, string | string[]] => e[1] !== undefined)
      .map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(", ") : v]),
  );

/** Passes bytes through until `maxBytes`, then fails with the contract's 413 text. */
const capped = (maxBytes: number) => {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(tooLarge(maxBytes));
      else done(null, chunk);
    },
  });
};

export const createFetcher = (config: FetcherConfig = {}): Fetcher => {
  const policy: DestinationPolicy = {
    allowHosts: config.allowHosts ?? new Set(),
    resolver: config.resolver ?? systemResolver,
  };
  const readTimeoutMs = config.readTimeoutMs ?? 30_000;
  const agent = guardedAgent(policy, config.connectTimeoutMs ?? 10_000, readTimeoutMs);
  const userAgent = config.userAgent ?? USER_AGENT;

  const check = async (raw: string) => {
    const url = checkUrlShape(raw);
    await checkDestination(policy, url);
    return url;
  };

  const open = async (raw: string, options: FetchOptions = {}): Promise<FetchedResponse> => {
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const maxRedirects = options.maxRedirects ?? 5;
    const deadline = AbortSignal.timeout(options.timeoutMs ?? 120_000);
    const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
    let method = options.method ?? "GET";
    let body = options.body;
    let headers: Record<string, string> = { "user-agent": userAgent, ...lowerKeys(options.headers ?? {}) };
    const hops: string[] = [];
    let url = await check(raw);
    for (;;) {
      hops.push(url.href);
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(url, { dispatcher: agent, method, headers, body, signal });
      } catch (error) {
        const failure = fetchFailure(url.href, error);
        // Refused while connecting to a redirect's target (a name that rebinds): say where the redirect went.
        if (failure instanceof RefusedDestinationError && hops.length > 1) {
          throw new RefusedDestinationError(raw, `it redirects to ${url.href}, and ${failure.reason}`);
        }
        throw failure;
      }
      const responseHeaders = flatHeaders(response.headers);
      const location = responseHeaders.location;
      if (REDIRECT_STATUSES.has(response.statusCode) && location) {
        await response.body.dump().catch(() => undefined);
        if (hops.length > maxRedirects) {
          throw new AppError("UNPROCESSABLE", `Could not fetch ${raw}: more than ${maxRedirects} redirects`);
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new AppError("UNPROCESSABLE", `Could not fetch ${url.href}: it redirects to an invalid URL`);
        }
        if (next.origin !== url.origin) headers = withoutCredentials(headers);
        if (
          response.statusCode === 303 ||
          ((response.statusCode === 301 || response.statusCode === 302) && method === "POST")
        ) {
          method = "GET";
          body = undefined;
        }
        url = await check(next.href).catch((error: unknown) => {
          throw error instanceof RefusedDestinationError
            ? new RefusedDestinationError(raw, `it redirects to ${next.href}, and ${error.reason}`)
            : error;
        });
        continue;
      }
      const contentLength = Number(responseHeaders["content-length"] ?? NaN);
      if (Number.isFinite(contentLength) && contentLength > maxBytes) {
        response.body.destroy();
        throw tooLarge(maxBytes);
      }
      const limited = capped(maxBytes);
      const target = url.href;
      response.body.on("error", (error) => limited.destroy(fetchFailure(target, error)));
      response.body.pipe(limited);
      return {
        url: url.href,
        status: response.statusCode,
        headers: responseHeaders,
        hops,
        contentLength: Number.isFinite(contentLength) ? contentLength : null,
        body: limited,
      };
    }
  };

  const fetchBytes: Fetcher["fetchBytes"] = async (raw, options = {}) => {
    const { body, ...rest } = await open(raw, options);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of body) chunks.push(chunk as Buffer);
    } catch (error) {
      throw fetchFailure(rest.url, error);
    }
    return { ...rest, bytes: Buffer.concat(chunks) };
  };

  return { open, fetchBytes, check };
};

const lowerKeys = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

const withoutCredentials = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.includes(k)));

let shared: Fetcher | undefined;

/** The fetcher of this deployment: public addresses only, plus QUARRY_FETCH_ALLOW_HOSTS. */
export const fetcher = (): Fetcher => {
  shared ??= createFetcher({ allowHosts: parseAllowHosts(env.QUARRY_FETCH_ALLOW_HOSTS) });
  return shared;
};
