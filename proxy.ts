import { NextResponse, type NextRequest } from "next/server";

/**
 * Content Security Policy for the dashboard's pages, with a fresh nonce per request: Next reads the nonce from the
 * request's CSP header and puts it on the scripts it emits, so no other script can run. Auth never lives here (it is
 * in the procedures); the headers every response gets (nosniff, frame denial, referrer) are in next.config.mjs.
 */
export const proxy = (request: NextRequest) => {
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
      // Pages only: API routes get a stricter fixed policy from next.config.mjs, static files need none.
      source: "/((?!api/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
