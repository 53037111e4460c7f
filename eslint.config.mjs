import next from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...next,
  ...nextTs,
  {
    ignores: [
      "server/generated/**",
      ".next/**",
      ".quarry/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
      ".test-reports/**",
    ],
  },
  {
    // Client code may import only types and isomorphic *.schema.ts files from server/ (STYLE §12).
    files: ["components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^@/server/(?!.*\\.schema$)",
              message: "Client code may import only *.schema.ts files (and types) from server/.",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  // Server code logs through pino; tests may print the figures they measure.
  {
    rules: { "no-console": ["error", { allow: ["warn", "error"] }] },
    files: ["server/**/*.ts"],
    ignores: ["**/*.test.ts"],
  },
];

export default config;
