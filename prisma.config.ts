import { defineConfig } from "prisma/config";

// The schema is a folder, one file per domain. Used by `prisma generate` and, against a production Postgres, by
// `prisma migrate deploy`. Quarry itself applies migrations on start without the native engine (scripts/migrate.ts).
export default defineConfig({
  schema: "prisma/schema",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
});
