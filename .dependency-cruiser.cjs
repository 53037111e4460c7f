/**
 * The layer rules of ARCHITECTURE.md, checked on every `npm run lint` (and so in CI).
 *
 *   app/ (routes, pages) → server/trpc, server/public-api, server/mcp, inngest/ (transport)
 *     → server/<domain> → platform (the Prisma client in server/db.ts, server/postgres, server/jobs,
 *       server/providers, server/storage, server/startup, server/concurrency)
 *
 * Arrows point down only. A rule that fails names the two files; read ARCHITECTURE.md for where the code belongs.
 */
const TESTS = "(\\.test\\.tsx?$|^e2e/|^bench/|^server/testing/)";
const TRANSPORT = "^(app|inngest|server/trpc|server/public-api|server/mcp)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment:
        "A cycle, whether closed by a static import, an import() or an `import type`: move the shared types to a " +
        "types.ts both sides import, or make the lower layer take what it needs as an argument.",
      from: {},
      to: { circular: true },
    },
    {
      name: "domain-not-to-transport",
      severity: "error",
      comment:
        "Domain code (server/<domain>) is called by transport (tRPC, the public API, Inngest functions, app/) and " +
        "never calls back into it: return domain objects and let the transport shape them.",
      from: { path: "^server/", pathNot: `${TRANSPORT}|${TESTS}` },
      to: { path: TRANSPORT },
    },
    {
      name: "components-only-schemas-and-types",
      severity: "error",
      comment:
        "Browser code imports only `*.schema.ts` files and types from server/: anything else would ship server " +
        "code (and its secrets or native modules) to the browser.",
      from: { path: "^components/", pathNot: TESTS },
      to: { path: "^server/", pathNot: "\\.schema\\.ts$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "testing-only-from-tests",
      severity: "error",
      comment: "server/testing/ holds stand-ins and harness for tests and benchmarks, never for the product.",
      from: { pathNot: TESTS },
      to: { path: "^server/testing/" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that resolves to nothing.",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next|server/generated)/" },
    // Type-only imports count: a cycle closed by `import type` is still a cycle in the reader's head.
    tsPreCompilationDeps: true,
    webpackConfig: { fileName: "scripts/layers-resolve.cjs" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
