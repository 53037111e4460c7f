import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The app's own entry points as plain ES modules, written by next-build.ts beside Next's production build (packages
 * stay in node_modules). `npm start` runs the launcher from here with `node` alone, and the database thread, the CPU
 * thread and the parse workers load their code from here too. Through tsx, each of them carried tsx's loader (a
 * thread, its caches and an esbuild process) and compiled the TypeScript again at every start. Tests and development
 * run the sources through tsx.
 */
export const BUNDLE_DIR = ".next/quarry-bundle";

/** Sources with a bundled twin: the launcher, the parse worker, the database thread and the CPU thread's tasks. */
export const BUNDLED_SOURCES = [
  "scripts/start.ts",
  "server/parsing/worker/main.ts",
  "server/postgres/embedded-postgres.ts",
  "server/chunking/thread.ts",
  "server/providers/embedding/local-embedder.ts",
  "server/enrichment/enrich.ts",
  "server/graph-rag/communities.ts",
  "server/raptor/cluster.ts",
] as const;

/** `server/x/y.ts` → `.next/quarry-bundle/server/x/y.mjs` (paths from the app's root). */
export const bundledPath = (source: string) => path.join(BUNDLE_DIR, source.replace(/\.ts$/, ".mjs"));

/** The absolute path of `source`'s bundled twin when the app runs in production and the twin exists, else null. */
export const bundleOf = (source: (typeof BUNDLED_SOURCES)[number]): string | null => {
  if (process.env.NODE_ENV !== "production") return null;
  const file = path.join(process.cwd(), bundledPath(source));
  return existsSync(/*turbopackIgnore: true*/ file) ? file : null;
};
