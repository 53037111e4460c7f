/**
 * Database migrations without Prisma's native engine.
 *   deploy                        apply pending migrations (npm run migrate)
 *   diff --name <name>            write prisma/migrations/<timestamp>_<name>/migration.sql from the schema changes
 *                                 (npm run migrate:diff -- <name>); nothing is written when there are none
 *   resolve --rolled-back <name>  unblock migrations after a failed one was dealt with
 * deploy and resolve use DATABASE_URL, else the embedded database of the running Quarry, else open the data dir.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

process.chdir(path.resolve(import.meta.dirname, ".."));
if (existsSync(".env")) process.loadEnvFile(".env");
process.env.LOG_LEVEL ??= "warn";

const USAGE = `Usage:
  npx tsx scripts/migrate.ts deploy
  npx tsx scripts/migrate.ts diff --name <name>
  npx tsx scripts/migrate.ts resolve --rolled-back <name>`;

const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(1);
};

const withDatabase = async (run: (url: string) => Promise<void>) => {
  const { connectDatabase } = await import("../server/postgres/connect");
  const database = await connectDatabase();
  try {
    await run(database.url);
  } finally {
    await database.stop();
  }
};

const deploy = () =>
  withDatabase(async (url) => {
    const { applyMigrations } = await import("../server/postgres/migrate");
    const applied = await applyMigrations({ url });
    process.stderr.write(applied.length ? `Applied: ${applied.join(", ")}\n` : "No pending migrations\n");
  });

const diff = async (name: string) => {
  const { createMigration } = await import("./migrate-diff");
  const created = await createMigration({ name });
  process.stderr.write(
    created
      ? `Created ${path.relative(process.cwd(), created.file)}\n`
      : "Schema and migrations match: nothing to write\n",
  );
};

const resolve = (name: string) =>
  withDatabase(async (url) => {
    const { markMigrationRolledBack } = await import("../server/postgres/migrate");
    await markMigrationRolledBack({ url, name });
    process.stderr.write(`Marked ${name} as rolled back\n`);
  });

const main = async () => {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { name: { type: "string" }, "rolled-back": { type: "string" } },
  });
  const [command, extra] = positionals;
  if (command === "deploy") return deploy();
  // `npm run migrate:diff -- add_tags` runs `diff --name add_tags`; a bare `diff add_tags` works too.
  if (command === "diff") return diff(values.name ?? extra ?? fail(`diff needs --name <name>\n${USAGE}`));
  if (command === "resolve")
    return resolve(values["rolled-back"] ?? fail(`resolve needs --rolled-back <name>\n${USAGE}`));
  fail(USAGE);
};

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
