// The layer rules (.dependency-cruiser.cjs) over every folder that holds code. Fails on any violation that is not in
// .dependency-cruiser-known-violations.json (the list of what was there when a rule landed; it only shrinks).
// `node scripts/check-layers.mjs --baseline` rewrites that list: only when a violation was fixed, never to add one.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const KNOWN = ".dependency-cruiser-known-violations.json";
const FOLDERS = ["app", "components", "server", "inngest", "scripts", "bench", "e2e", "proxy.ts", "instrumentation.ts"];
// The package exports only its API; its command line is a file inside it.
const cli = fileURLToPath(new URL("../node_modules/dependency-cruiser/bin/dependency-cruise.mjs", import.meta.url));

const args = process.argv.includes("--baseline")
  ? ["--output-type", "baseline", "--output-to", KNOWN]
  : ["--output-type", "err", ...(existsSync(KNOWN) ? ["--ignore-known", KNOWN] : [])];
const result = spawnSync(process.execPath, [cli, "--config", ".dependency-cruiser.cjs", ...args, ...FOLDERS], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
