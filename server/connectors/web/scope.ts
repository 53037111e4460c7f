/** What a crawl stays within: the start URL's host and folder. */
export type Scope = { host: string; prefix: string; contains: (raw: string) => boolean };

/** The start URL's folder: /docs/intro.html → /docs/; /docs (no extension) → /docs/ and /docs itself. */
export const scopeOf = (start: URL): Scope => {
  const path = start.pathname;
  const last = path.split("/").pop() ?? "";
  const prefix = path.endsWith("/") ? path : last.includes(".") ? path.slice(0, path.lastIndexOf("/") + 1) : `${path}/`;
  return {
    host: start.host,
    prefix,
    contains: (raw: string) => {
      const url = new URL(raw);
      return url.host === start.host && (url.pathname.startsWith(prefix) || url.pathname === path);
    },
  };
};

/** How the report names a scope: https://host/prefix/. */
export const describeScope = (protocol: string, scope: Scope) => `${protocol}//${scope.host}${scope.prefix}`;
