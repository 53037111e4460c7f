/** Any origin serves to resolve against: only the path of the result is kept. */
const BASE = "http://quarry.invalid";

/**
 * Where to go after sign-in or sign-up: only a path of this app, so a crafted link cannot send the user elsewhere.
 * One implementation for the server's redirect and the forms. Control characters and backslashes are refused
 * outright: browsers drop tabs and newlines from a URL and read `\` as `/`, so `/\t/evil.test` or `/\evil.test`
 * leaves the site, and CR/LF cannot go in a Location header. The rest is parsed against an origin and must come back
 * to it; the answer is the parsed path, percent-encoded (non-ASCII included), so it is safe in a header.
 */
export const safeNext = (next: string | null | undefined): string => {
  if (!next?.startsWith("/") || /[\u0000-\u001f\u007f-\u009f\\]/.test(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return "/";
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil.test` resolves to the path `//evil.test`, which a browser reads as another host; an encoded `/` or `\`
  // in the path becomes one wherever a server decodes it before redirecting (Better Auth refuses both too).
  if (url.origin !== BASE || path.startsWith("//") || /%2f|%5c/i.test(url.pathname)) return "/";
  return path;
};
