/** @type {import('next').NextConfig} */
const nextConfig = {
  // Parsers and the database driver stay as plain Node modules: they load wasm, workers and native addons at run time.
  serverExternalPackages: ["pdfjs-dist", "unpdf", "@electric-sql/pglite", "@electric-sql/pglite-socket", "pino", "busboy"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
