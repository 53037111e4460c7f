import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { AppError } from "../errors";

/**
 * Where outbound requests may go. Only public unicast addresses: private, loopback, link-local (cloud metadata),
 * CGNAT, NAT64, 6to4/Teredo, benchmark, documentation, multicast and every other special range are refused.
 * ipaddr.js's `process` maps IPv4-mapped and IPv4-compatible IPv6 to the IPv4 address they carry, so
 * `[::ffff:127.0.0.1]` is judged as 127.0.0.1. The only way around the rule is the explicit `host:port` allow
 * list (QUARRY_FETCH_ALLOW_HOSTS), meant for local test servers.
 */

/** Names of addresses `hostname` resolves to; injectable so tests can play DNS rebinding without a DNS server. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const RANGE_NAMES: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private address",
  linkLocal: "a link-local address (where cloud metadata services live)",
  carrierGradeNat: "a carrier-grade NAT address",
  uniqueLocal: "a private (unique local) IPv6 address",
  multicast: "a multicast address",
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  reserved: "a reserved address",
  rfc6052: "a NAT64 address",
  rfc6145: "an IPv4-translated address",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
  benchmarking: "a benchmarking address",
  discard: "a discard address",
  ipv4Compatible: "an IPv4-compatible IPv6 address (deprecated; it can reach IPv4 hosts)",
};

/** "unicast" for a public address, else the name of its special range ("invalid" when it is no address). */
export const addressRange = (address: string): string => {
  try {
    const parsed = ipaddr.process(address.replace(/^\[|\]$/g, ""));
    // IPv4-compatible IPv6 (::a.b.c.d, deprecated by RFC 4291). The URL parser writes [::127.0.0.1] as [::7f00:1],
    // which ipaddr.js calls unicast; nothing public lives in ::/96.
    if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) {
      const range = parsed.range();
      return range === "unicast" ? "ipv4Compatible" : range;
    }
    return parsed.range();
  } catch {
    return "invalid";
  }
};

export const isPublicAddress = (address: string) => addressRange(address) === "unicast";

const describeRange = (range: string) => RANGE_NAMES[range] ?? `a non-public address (${range})`;

/** The error every refusal raises: 400 at request time, a failed build (or a skipped page) later. */
export class RefusedDestinationError extends AppError {
  /** Why, without the URL ("127.0.0.1 is a loopback address; only public addresses are fetched"). */
  readonly reason: string;

  constructor(url: string, reason: string) {
    super("BAD_REQUEST", `Refused to fetch ${url}: ${reason}`);
    this.name = "RefusedDestinationError";
    this.reason = reason;
  }
}

const PUBLIC_ONLY = "only public addresses are fetched";

export const refusedAddress = (url: string, host: string, address: string) =>
  new RefusedDestinationError(
    url,
    host === address
      ? `${address} is ${describeRange(addressRange(address))}; ${PUBLIC_ONLY}`
      : `${host} resolves to ${address}, which is ${describeRange(addressRange(address))}; ${PUBLIC_ONLY}`,
  );

const defaultPort = (protocol: string) => (protocol === "https:" ? "443" : "80");

/** `host:port` as the allow list writes it: lower case, IPv6 in brackets, the scheme's port when none is given. */
export const hostPort = (hostname: string, port: string | number, protocol: string) => {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port === "" || port === undefined ? defaultPort(protocol) : port}`;
};

export const parseAllowHosts = (value: string): Set<string> =>
  new Set(
    value
      .split(",")
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean),
  );

const LOCAL_NAMES = /(^|\.)localhost\.?$/i;

/** A URL we may try at all: http(s), no credentials, a host. Anything else is refused before any network use. */
export const checkUrlShape = (raw: string): URL => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("BAD_REQUEST", "Invalid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new RefusedDestinationError(
      raw,
      `the ${url.protocol.replace(/:$/, "")} scheme is not allowed (http and https are)`,
    );
  }
  if (url.username || url.password) {
    throw new RefusedDestinationError(raw, "URLs with a user name or password are not accepted");
  }
  if (!url.hostname) throw new AppError("BAD_REQUEST", "Invalid URL");
  return url;
};

export type DestinationPolicy = { allowHosts: Set<string>; resolver: Resolver };

export const isAllowedHost = (policy: DestinationPolicy, url: URL) =>
  policy.allowHosts.has(hostPort(url.hostname, url.port, url.protocol));

/**
 * Checks a URL before a request (and before each redirect is followed): an IP literal in any notation (the WHATWG
 * parser has already turned decimal, octal and hex forms into dotted quads) must be public; a name must resolve,
 * and only to public addresses. The connection itself is checked again (see fetch.ts): a name may resolve
 * differently a moment later (DNS rebinding).
 */
export const checkDestination = async (policy: DestinationPolicy, url: URL): Promise<void> => {
  if (isAllowedHost(policy, url)) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    if (!isPublicAddress(host)) throw refusedAddress(url.href, host, host);
    return;
  }
  if (LOCAL_NAMES.test(host)) throw new RefusedDestinationError(url.href, `${host} names this machine; ${PUBLIC_ONLY}`);
  let addresses: string[];
  try {
    addresses = await policy.resolver(host);
  } catch (error) {
    throw new AppError(
      "UNPROCESSABLE",
      `Could not fetch ${url.href}: the host ${host} was not found (${dnsCode(error)})`,
    );
  }
  if (addresses.length === 0) {
    throw new AppError("UNPROCESSABLE", `Could not fetch ${url.href}: the host ${host} has no address`);
  }
  const bad = addresses.find((a) => !isPublicAddress(a));
  if (bad) throw refusedAddress(url.href, host, bad);
};

const dnsCode = (error: unknown) =>
  (error as { code?: string } | null)?.code ?? (error instanceof Error ? error.message : String(error));
