import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".quarry/**"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Integration suites start servers and embedded databases; two cores do not gain from more workers.
    maxWorkers: 2,
    minWorkers: 1,
    env: { LOG_LEVEL: "warn", NEXT_TELEMETRY_DISABLED: "1" },
  },
});
