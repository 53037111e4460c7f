import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    include: ["**/*.test.ts"],
    // *.pg.test.ts suites need a real Postgres (two app processes on one database, which the embedded one cannot
    // serve): they run when QUARRY_TEST_POSTGRES_URL names one (scripts/real-postgres.ts, `npm test`'s second run).
    exclude: [
      "node_modules/**",
      ".next/**",
      "e2e/**",
      ".quarry/**",
      ...(process.env.QUARRY_TEST_POSTGRES_URL ? [] : ["**/*.pg.test.ts"]),
    ],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Integration suites start servers and embedded databases; two cores do not gain from more workers.
    maxWorkers: 2,
    minWorkers: 1,
    env: { LOG_LEVEL: "warn", NEXT_TELEMETRY_DISABLED: "1" },
  },
});
