// The layer rules (.dependency-cruiser.cjs) over every folder that holds code; any violation fails (npm run lint).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const FOLDERS = ["app", "components", "server", "inngest", "scripts", "bench", "e2e", "proxy.ts", "instrumentation.ts"];
// The package exports only its API; its command line is a file inside it.
const cli = fileURLToPath(new URL("../node_modules/dependency-cruiser/bin/dependency-cruise.mjs", import.meta.url));

const result = spawnSync(
  process.execPath,
  [cli, "--config", ".dependency-cruiser.cjs", "--output-type", "err", ...FOLDERS],
  { stdio: "inherit" },
);
process.exit(result.status ?? 1);
