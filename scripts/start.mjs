/**
 * `npm start`: brings the production build and the app's bundles up to date (server/startup/next-build.ts, in a
 * child process that runs the TypeScript through tsx and then exits), then runs the launcher (scripts/start.ts) from
 * its bundle with plain `node`: tsx in the app's own process cost it about 50 MB for good (its loader thread and
 * caches, an esbuild process). Plain JavaScript, so that node runs it as it is.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
if (existsSync(".env")) process.loadEnvFile(".env");

const prepared = spawnSync(process.execPath, ["--import", "tsx", "scripts/build.ts"], { stdio: "inherit" });
if (prepared.status !== 0) {
  process.stderr.write("Quarry could not start: its production build failed (see above)\n");
  process.exit(prepared.status ?? 1);
}
process.env.NODE_ENV = "production";
// bundledPath("scripts/start.ts") of server/startup/bundle.ts, which this plain script cannot import.
await import(pathToFileURL(path.join(root, ".next/quarry-bundle/scripts/start.mjs")).href);
