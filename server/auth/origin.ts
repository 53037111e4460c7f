import { env } from "../env";
import { AppError } from "../errors";

/**
 * CSRF protection for the dashboard's own routes (tRPC, upload): a state-changing request must come from a page of
 * this app. Browsers send `Origin` on every POST; it must name the host the request was sent to (or the configured
 * QUARRY_PUBLIC_URL). A forged Host header does not help an attacker here: it can only make a request look addressed
 * to a host the attacker's page is not on, and the session cookie still has to be the victim's. Better Auth applies
 * the same rule to its own routes (/api/auth).
 */
export const isSameOrigin = (req: Request): boolean => {
  const fetchSite = req.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return false;
  const origin = req.headers.get("origin");
  if (!origin || origin === "null") return false;
  let originUrl: URL;
  try {
    originUrl = new URL(origin);
  } catch {
    return false;
  }
  if (env.QUARRY_PUBLIC_URL && originUrl.origin === new URL(env.QUARRY_PUBLIC_URL).origin) return true;
  const host = req.headers.get("host");
  return !!host && originUrl.host === host.toLowerCase();
};

export const assertSameOrigin = (req: Request) => {
  if (!isSameOrigin(req)) throw new AppError("FORBIDDEN", "Cross-origin request refused");
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The check for a route that serves both reads and writes (tRPC: queries are GET, mutations POST). */
export const assertSameOriginUnlessSafe = (req: Request) => {
  if (!SAFE_METHODS.has(req.method)) assertSameOrigin(req);
};
