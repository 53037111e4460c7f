import { NextResponse, type NextRequest } from "next/server";
import { isMalformedPath, PATH_DETAIL } from "@/server/input-guard";

/** A flow's host: a DNS label (the flow name, contract §2.8) in front of `.flows.`; `flows.` alone lists them. */
const FLOW_HOST = /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)\.flows\./;
const FLOW_LIST_HOST = /^flows\./;

/**
 * Host form of the flow service (contract §0, §7): `<flow>.flows.<any host>/<suffix>` is served by the path form's
 * handlers at `/api/public/v1/flows/<flow>/<suffix>`, and `flows.<any host>/` by the project's flow list. Nothing
 * else (no page, no other route) answers on a flow host.
 */
const flowRewrite = (request: NextRequest) => {
  const host = (request.headers.get("host") ?? "").toLowerCase();
  const flow = FLOW_HOST.exec(host);
  if (!flow && !FLOW_LIST_HOST.test(host)) return null;
  const suffix = request.nextUrl.pathname.replace(/\/+$/, "");
  const target = request.nextUrl.clone();
  target.pathname = flow
    ? `/api/public/v1/flows/${flow[1]}${suffix}`
    : suffix
      ? "/api/public/v1/not-found"
      : "/api/public/v1/flows";
  return NextResponse.rewrite(target);
};

/**
 * A path segment that does not decode (bad UTF-8, a surrogate half, a stray `%`) or decodes to U+0000 is refused here,
 * before routing, rewriting and auth: Next itself answered such paths with 500. The API and the flow hosts answer in
 * the contract's `{detail}` shape, pages in plain text.
 */
const refuseMalformedPath = (request: NextRequest, flowHost: boolean) => {
  const { pathname } = request.nextUrl;
  if (!isMalformedPath(pathname)) return null;
  if (flowHost || pathname.startsWith("/api/")) return NextResponse.json({ detail: PATH_DETAIL }, { status: 400 });
  return new NextResponse(`Bad Request: ${PATH_DETAIL}\n`, {
    status: 400,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
};

const isPrefetch = (request: NextRequest) =>
  request.headers.has("next-router-prefetch") || request.headers.get("purpose") === "prefetch";

/**
 * Content Security Policy for the dashboard's pages, with a fresh nonce per request: Next reads the nonce from the
 * request's CSP header and puts it on the scripts it emits, so no other script can run. Auth never lives here (it is
 * in the procedures); the headers every response gets (nosniff, frame denial, referrer) are in next.config.mjs.
 */
export const proxy = (request: NextRequest) => {
  const host = (request.headers.get("host") ?? "").toLowerCase();
  const refused = refuseMalformedPath(request, FLOW_HOST.test(host) || FLOW_LIST_HOST.test(host));
  if (refused) return refused;
  const rewritten = flowRewrite(request);
  if (rewritten) return rewritten;
  // An API path on a flow host's matcher, or a prefetch: no page policy (prefetches are cached; no nonce).
  if (request.nextUrl.pathname.startsWith("/api/") || isPrefetch(request)) return NextResponse.next();
  const nonce = btoa(crypto.randomUUID());
  const https = request.nextUrl.protocol === "https:";
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    // React writes style attributes (progress bars, element boxes); styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    // data: for pictures extracted from documents (img_base64), blob: for local previews.
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");

  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", csp);
  return response;
};

export const config = {
  matcher: [
    {
      // Pages only: API routes get a stricter fixed policy from next.config.mjs, static files need none. (API routes
      // stay out: a request the proxy sees has its body buffered, and uploads must stream.)
      source: "/((?!api/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
    // Every path of a flow host (host form of the flow service). Next matches the hostname, without the port.
    { source: "/:path*", has: [{ type: "host", value: "(?:[a-z0-9-]+\\.)?flows\\..+" }] },
    // Every path, API routes included, whose percent-escapes may not decode (refuseMalformedPath): one of a non-ASCII
    // byte, %00, or a % without two hex digits. Only these: an API request the proxy sees has its body buffered.
    { source: "/(.*%(?:[89A-Fa-f]|00|[0-9A-Fa-f]?(?![0-9A-Fa-f])).*)" },
  ],
};
