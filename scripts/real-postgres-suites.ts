import { readdirSync } from "node:fs";

/**
 * Which integration suites `npm test` runs a second time on the throwaway Postgres 15 (scripts/real-postgres.ts), in
 * one place. Chosen for what the embedded Postgres cannot show — it runs one statement at a time for the whole app,
 * has no autovacuum and always has BM25: suites whose SQL meets real concurrency (the job table, builds and their
 * resumption after kill -9, webhooks), the real planner over HNSW and the ts_rank keyword fallback (retrieval, RAPTOR,
 * graph), writes of chunks and chunk sets (ingestion), tenant scoping of every route (the isolation matrix), flows,
 * evaluations and model providers. The budget is about ten minutes on two cores, install included; the suites left
 * out run on the embedded Postgres as always, and `npm test` prints them with the reason.
 */
export const REAL_POSTGRES_SUITES = [
  "server/retrieval/retrieve.int.test.ts",
  "server/retrieval/retrieval-api.int.test.ts",
  "server/ingestion/steps/chunk-embed.int.test.ts",
  "server/ingestion/fail.int.test.ts",
  "server/ingestion/crash-recovery.int.test.ts",
  "server/jobs/local-executor.int.test.ts",
  "server/webhooks/webhooks.int.test.ts",
  "server/public-api/sources-api.int.test.ts",
  "server/sources/orphans.int.test.ts",
  "server/public-api/isolation.int.test.ts",
  "server/flows/flows-api.int.test.ts",
  "server/evaluation/evaluation.int.test.ts",
  "server/raptor/raptor.int.test.ts",
  "server/graph-rag/graph-rag.int.test.ts",
  "server/model-providers/model-providers.int.test.ts",
  "server/model-providers/project-model-builds.int.test.ts",
  // Real-Postgres only (vitest.config.ts leaves *.pg.test.ts out of the embedded run): two replicas, one database.
  "server/scale/replicas.pg.test.ts",
  // Real-Postgres only: the plan Postgres 15 picks for the vector side (HNSW, not a sort of every vector).
  "server/retrieval/vector-plan.pg.test.ts",
  // Real-Postgres only: the ts_rank fallback's statement (its tsquery built inside it, the ranking bounded).
  "server/retrieval/keyword-plan.pg.test.ts",
  "server/scale/replicas-jobs.pg.test.ts",
  // Real-Postgres only: two first callers of one flow chunking configuration at once make one chunk set.
  "server/flows/chunk-set-race.pg.test.ts",
];

/** Suites that test a server itself or start their own: running them "on" the real server changes nothing. */
const EMBEDDED_ONLY: Record<string, string> = {
  "server/postgres/embedded-postgres.int.test.ts": "tests the embedded server itself",
  "server/postgres/outside-clients.int.test.ts": "tests outside clients of the embedded server",
  "server/postgres/migrate.int.test.ts": "starts embedded servers of its own",
  "server/postgres/migrate-upgrade.int.test.ts": "starts embedded servers of its own",
  "server/chunk-sets/migration.int.test.ts": "starts embedded servers of its own",
  "server/teams/team-migration.int.test.ts": "starts embedded servers of its own",
  "server/retrieval/keyword-query.int.test.ts": "starts an embedded server of its own",
  "server/flows/unfinished-chunk-sets.int.test.ts": "starts an embedded server of its own",
  "server/flows/chunk-set-claims.int.test.ts": "starts an embedded server of its own",
  "server/ingestion/busy-build.int.test.ts": "tests the embedded server's one shared session",
  "scripts/start.int.test.ts": "tests the first start on an embedded data dir",
  "scripts/migrate-diff.int.test.ts": "starts embedded servers of its own",
  "scripts/real-postgres.int.test.ts": "starts a throwaway real server of its own",
};

/** Every integration suite not in the list, with why it is not run on the real Postgres. */
export const realPostgresSkipped = (): { suite: string; why: string }[] =>
  readdirSync(".", { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".int.test.ts") && !/^(node_modules|\.next)\//.test(file))
    .filter((file) => !REAL_POSTGRES_SUITES.includes(file))
    .sort()
    .map((suite) => ({ suite, why: EMBEDDED_ONLY[suite] ?? "time budget; runs on the embedded Postgres" }));
