import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/**
 * A small web site on loopback that behaves like the real thing for the web connector: pages with navigation and
 * an article, links in and out of scope, robots.txt with a group for QuarryBot, a sitemap, a linked PDF, a
 * Cloudflare-style challenge page, a JavaScript-only app shell, a duplicate page, a 404, redirects (one to a
 * private address), and a page whose redirect appears only on the second visit (a refusal the request cannot
 * know about, only the build).
 */

export type WebSite = { origin: string; port: number; requests: string[]; close: () => Promise<void> };

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title} | Quarry Field Notes</title>
<link rel="stylesheet" href="/static/site.css"></head>
<body>
<nav class="top"><a href="/docs/">Docs home</a> · <a href="/blog/outside.html">Blog</a> · <a href="/docs/about.html">About us</a></nav>
<header class="site"><p>Quarry Field Notes, the handbook for working quarries</p></header>
<main>${body}</main>
<aside><h3>Sponsored</h3><p>Buy the premium diamond wire saw today and save 20 percent.</p></aside>
<footer><p>© 2026 Quarry Field Notes · <a href="/docs/privacy.html">Privacy</a></p></footer>
</body></html>`;

const paragraph = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>${topic}, note ${i + 1}: the crew surveys the face, marks the natural joints and plans the benches so that each block ` +
      `leaves the wall with the least waste. Water keeps the dust down while the wire saw runs through the ${topic.toLowerCase()}.</p>`,
  ).join("\n");

const GUIDE = `<article><h1>Cutting guide</h1>${paragraph("Granite cutting", 4)}
<h2>Tools</h2><ul><li>Diamond wire saw</li><li>Feathers and wedges</li><li>Pneumatic drill</li></ul></article>`;

const pages = (origin: string): Record<string, string> => ({
  "/docs/": layout(
    "Field handbook",
    `<article><h1>Field handbook</h1>
<p>This handbook collects what the crews learned about granite, marble and sandstone quarries over thirty years of work in the hills above the river valley.</p>
${paragraph("Granite", 3)}
<h2>Hardness of common stone</h2>
<table><tr><th>Stone</th><th>Mohs hardness</th></tr><tr><td>Granite</td><td>6-7</td></tr><tr><td>Marble</td><td>3-4</td></tr></table>
<h2>Read next</h2>
<ul>
<li><a href="guide.html">Cutting guide</a></li>
<li><a href="guide.html#tools">Cutting guide, tools</a></li>
<li><a href="guide-copy.html">Cutting guide (print copy)</a></li>
<li><a href="manual.pdf">Safety manual (PDF)</a></li>
<li><a href="private/notes.html">Crew notes</a></li>
<li><a href="challenge.html">Supplier prices</a></li>
<li><a href="app.html">Block tracker app</a></li>
<li><a href="moved.html">Old survey page</a></li>
<li><a href="missing.html">Retired page</a></li>
<li><a href="photo.gif">Photo of the north face</a></li>
<li><a href="deep.html">Deeper reading</a></li>
<li><a href="https://example.org/elsewhere">A page on another site</a></li>
</ul></article>`,
  ),
  "/docs/guide.html": layout("Cutting guide", GUIDE),
  "/docs/guide-copy.html": layout("Cutting guide", GUIDE),
  "/docs/deep.html": layout(
    "Deeper reading",
    `<article><h1>Deeper reading</h1>${paragraph("Marble polishing", 3)}<p><a href="deeper.html">Even deeper</a></p></article>`,
  ),
  "/docs/deeper.html": layout(
    "Even deeper",
    `<article><h1>Even deeper</h1>${paragraph("Sandstone weathering", 3)}</article>`,
  ),
  "/docs/sitemap-only.html": layout(
    "Blasting permits",
    `<article><h1>Blasting permits</h1>${paragraph("Blasting permit", 3)}</article>`,
  ),
  "/docs/private/notes.html": layout("Crew notes", `<article><h1>Crew notes</h1>${paragraph("Private", 3)}</article>`),
  "/docs/about.html": layout("About", `<article><h1>About</h1>${paragraph("About", 3)}</article>`),
  "/docs/privacy.html": layout("Privacy", `<article><h1>Privacy</h1>${paragraph("Privacy", 3)}</article>`),
  "/blog/outside.html": layout("Blog", `<article><h1>Blog</h1>${paragraph("Blog", 3)}</article>`),
  "/docs/app.html": `<!doctype html><html><head><title>Block tracker</title>
<script src="/static/runtime.js"></script><script src="/static/app.js"></script></head>
<body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>`,
  "/sitemap.xml": `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>${origin}/docs/</loc></url>
<url><loc>${origin}/docs/sitemap-only.html</loc></url>
<url><loc>${origin}/blog/outside.html</loc></url>
</urlset>`,
  // The `*` group forbids everything; QuarryBot's own group replaces it (RFC 9309) and only keeps /docs/private/.
  "/robots.txt": `User-agent: *\nDisallow: /\n\nUser-agent: QuarryBot\nDisallow: /docs/private/\n\nSitemap: ${origin}/sitemap.xml\n`,
});

const CHALLENGE = `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title>
<meta http-equiv="refresh" content="390"></head><body><div class="main-wrapper" role="main"><div class="main-content">
<h1 class="zone-name-title h1">quarry.example</h1><h2 class="h2" id="challenge-running">Checking if the site connection is secure</h2>
<noscript><div class="h2"><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div></noscript></div></div>
<script>(function(){window._cf_chl_opt={cvId: '3',cZone: 'quarry.example',cType: 'managed'};var a=document.createElement('script');
a.src='/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8f0000000000';document.getElementsByTagName('head')[0].appendChild(a);}());</script>
</body></html>`;

/** A 1×1 GIF: a file type Quarry does not read. */
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

export const startWebSite = async ({
  pdf,
  bigPdf,
  port: wantedPort = 0,
}: {
  pdf: Buffer;
  bigPdf?: Buffer;
  /** 0 picks a free port. */
  port?: number;
}): Promise<WebSite> => {
  const requests: string[] = [];
  const visits = new Map<string, number>();
  let origin = "";
  const send = (
    res: ServerResponse,
    status: number,
    type: string,
    body: string | Buffer,
    headers: Record<string, string> = {},
  ) => res.writeHead(status, { "content-type": type, ...headers }).end(body);

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", origin).pathname;
    requests.push(path);
    visits.set(path, (visits.get(path) ?? 0) + 1);
    const html = pages(origin)[path];
    // A challenge in front of a whole section: a crawl from there finds nothing it may read.
    if (path === "/shop/")
      return send(res, 503, "text/html; charset=UTF-8", CHALLENGE, {
        server: "cloudflare",
        "cf-mitigated": "challenge",
      });
    if (path === "/docs/challenge.html")
      return send(res, 403, "text/html; charset=UTF-8", CHALLENGE, {
        server: "cloudflare",
        "cf-ray": "8f0000000000-AMS",
      });
    if (path === "/docs/moved.html")
      return res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    if (path === "/docs/private-redirect") return res.writeHead(301, { location: "http://10.0.0.7/admin" }).end();
    // Fine the first time (the request's probe), then a redirect to cloud metadata (the build's fetch).
    if (path === "/docs/turncoat.html") {
      if (visits.get(path) === 1) return send(res, 200, "text/html", pages(origin)["/docs/guide.html"]!);
      return res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    }
    if (path === "/docs/manual.pdf") return send(res, 200, "application/pdf", pdf);
    if (path === "/docs/big.pdf" && bigPdf) return send(res, 200, "application/pdf", bigPdf);
    // A file URL without an extension: the bytes (and the header) say PDF.
    if (path === "/docs/report") return send(res, 200, "application/octet-stream", pdf);
    // Says HTML, is a PDF: sniffing wins.
    if (path === "/docs/lying.html") return send(res, 200, "text/html", pdf);
    if (path === "/docs/photo.gif") return send(res, 200, "image/gif", GIF);
    if (path === "/docs") return res.writeHead(301, { location: "/docs/" }).end();
    if (html === undefined) return send(res, 404, "text/html", layout("Not found", "<h1>Page not found</h1>"));
    const type = path.endsWith(".xml")
      ? "application/xml"
      : path.endsWith(".txt")
        ? "text/plain"
        : "text/html; charset=utf-8";
    return send(res, 200, type, html);
  };

  const server = createServer(handle);
  const port = await new Promise<number>((resolve) =>
    server.listen(wantedPort, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
