/** @type {import('next').NextConfig} */
const nextConfig = {
  // Parsers and the database driver stay plain Node modules: they load wasm, workers and native addons at run time.
  serverExternalPackages: [
    "@embedpdf/pdfium",
    "@napi-rs/canvas",
    "sharp",
    "tesseract.js",
    "heic-decode",
    "libheif-js",
    "mammoth",
    "exceljs",
    "jszip",
    "yauzl",
    "fast-xml-parser",
    "js-tiktoken",
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pino",
    "busboy",
    "wink-nlp",
    "wink-eng-lite-web-model",
  ],
  poweredByHeader: false,
  // `npm test` type-checks the whole repository (tests and scripts too) as its own step; the build need not repeat it.
  typescript: { ignoreBuildErrors: true },
  // The public API takes paths with or without a trailing slash (contract §0); a redirect would break POST clients.
  skipTrailingSlashRedirect: true,
  rewrites: async () => [{ source: "/api/public/:path+/", destination: "/api/public/:path+" }],
  // Every response: no MIME sniffing, never framed, no full URLs leaked to other sites. Pages get their CSP (with a
  // per-request script nonce) from proxy.ts; API responses are data and get a policy that allows nothing. No
  // Access-Control-* header is ever sent: the public API is for servers and scripts with a token, not other sites.
  headers: async () => [
    {
      source: "/:path*",
      headers: [
        { key: "X-Content-Type-Options", value: "nosniff" },
        { key: "X-Frame-Options", value: "DENY" },
        { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
        { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
      ],
    },
    {
      source: "/api/:path*",
      headers: [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }],
    },
  ],
};

export default nextConfig;
