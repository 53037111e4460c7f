import next from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * Parsing reads no settings and picks no models: its caller hands it the models (STYLE §14.3, §14.5). So nothing in
 * server/parsing/ imports the env, the old llm helpers or a provider (types excepted), by alias or by a relative path
 * that climbs out. The parse worker's entry and the tests build clients from plain configs, so they may import the
 * two factories (`providers/{vision,speech}/client`, which read no environment) and `providers/usage` (to report the
 * calls they make to the app), nothing else of providers/.
 */
const parsingBoundary = ({ allowClients }) => {
  const message = "server/parsing/ reads no settings: take the model or the value as an argument from the caller.";
  const providers = allowClients ? "providers/(?!(vision|speech)/client$|usage$)" : "providers(/|$)";
  return [
    "error",
    {
      patterns: [
        { regex: "^@/server/(env|llm)(/|$)", message },
        { regex: "^(\\.\\./)+(env|llm)(/|$)", message },
        { regex: `^@/server/${providers}`, message, allowTypeImports: true },
        { regex: `^(\\.\\./)+${providers}`, message, allowTypeImports: true },
      ],
    },
  ];
};

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
  {
    files: ["server/parsing/**/*.ts"],
    ignores: ["server/parsing/**/*.test.ts", "server/parsing/worker/main.ts"],
    rules: {
      "no-restricted-imports": parsingBoundary({ allowClients: false }),
      // Parsers load lazily with import(), which no-restricted-imports does not see.
      "no-restricted-syntax": [
        "error",
        {
          // (esquery regexes cannot hold a slash: `.` stands for it)
          selector: "ImportExpression[source.value=/^(@.server.|(\\.\\..)+)(env|llm|providers)(\\W|$)/]",
          message: "server/parsing/ reads no settings: take the model or the value as an argument from the caller.",
        },
      ],
    },
  },
  {
    files: ["server/parsing/**/*.test.ts", "server/parsing/worker/main.ts"],
    rules: { "no-restricted-imports": parsingBoundary({ allowClients: true }) },
  },
  // No function over 100 lines: split it into named steps (in browser code, state into a hook and distinct parts of
  // the markup into components). Tests are left out, as a describe() block holds all its cases. Parsers' inner loops
  // may go over, as the architecture issue allows, but none does today.
  {
    files: ["{server,inngest,scripts,app,components}/**/*.{ts,tsx,js,mjs,cjs}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: {
      "max-lines-per-function": ["error", { max: 100, skipBlankLines: false, skipComments: false }],
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
