/**
 * `npm run quarry -- <command>`: administration that uses the same services as the app.
 *   token create --project <name> [--name <label>] [--permissions read,write,delete,deploy]
 *       creates the project if needed; prints only the new token on stdout
 *   token revoke <token>
 *   flow create|import|export|delete|rollback ... (scripts/flow-cli.ts)
 *   testset import|list|delete ... (scripts/testset-cli.ts)
 *   storage migrate (scripts/storage-cli.ts): the local file store copied to S3 and verified; no database needed
 * Works whether or not Quarry is running: it reaches the running embedded database through its lock file, or opens
 * the data directory itself when nothing runs (or uses DATABASE_URL).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { FLOW_USAGE, runFlowCommand } from "./flow-cli";
import { runStorageCommand, STORAGE_USAGE } from "./storage-cli";
import { runTestSetCommand, TESTSET_USAGE } from "./testset-cli";

process.chdir(path.resolve(import.meta.dirname, ".."));
if (existsSync(".env")) process.loadEnvFile(".env");
process.env.LOG_LEVEL ??= "warn";

const USAGE = `Usage:
  npm run quarry -- token create --project <name> [--name <label>] [--permissions read,write,delete,deploy]
  npm run quarry -- token revoke <token>
${FLOW_USAGE}
${TESTSET_USAGE}
${STORAGE_USAGE}`;

const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(1);
};

const main = async () => {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      project: { type: "string" },
      name: { type: "string" },
      permissions: { type: "string" },
      file: { type: "string" },
      description: { type: "string" },
      replace: { type: "boolean" },
      revision: { type: "string" },
      tokens: { type: "string" },
      format: { type: "string" },
    },
  });
  const [area, action, arg] = positionals;
  const isToken = area === "token" && (action === "create" || action === "revoke");
  if (!isToken && area !== "flow" && area !== "testset" && area !== "storage") fail(USAGE);
  if (area === "storage") {
    process.exitCode = await runStorageCommand(action);
    return;
  }

  const { env, setRuntimeEnv } = await import("../server/env");
  const { keepFilesPrivate } = await import("../server/startup/private-files");
  keepFilesPrivate(env.QUARRY_DATA_DIR);
  const { connectDatabase } = await import("../server/postgres/connect");
  const { applyMigrations } = await import("../server/postgres/migrate");
  const database = await connectDatabase();
  setRuntimeEnv("DATABASE_URL", database.url);
  try {
    await applyMigrations({ url: database.url });
    const tokens = await import("../server/auth/api-tokens");
    if (area === "flow") await runFlowCommand(action, arg, values);
    else if (area === "testset") await runTestSetCommand(action, arg, values);
    else if (action === "create") {
      if (!values.project) fail(`--project is required\n${USAGE}`);
      const permissions = values.permissions?.split(",").map((p) => p.trim()) ?? tokens.ALL_PERMISSIONS;
      const unknown = permissions.filter((p) => !(tokens.ALL_PERMISSIONS as string[]).includes(p));
      if (unknown.length)
        fail(`Unknown permission(s): ${unknown.join(", ")}. Valid: ${tokens.ALL_PERMISSIONS.join(", ")}`);
      const { ensureProject } = await import("../server/projects/service");
      const project = await ensureProject(values.project!);
      const { token } = await tokens.createApiToken({
        projectId: project.id,
        name: values.name ?? "CLI token",
        permissions: permissions as typeof tokens.ALL_PERMISSIONS,
      });
      process.stdout.write(`${token}\n`);
    } else {
      if (!arg) fail(`token revoke needs the token\n${USAGE}`);
      if (!(await tokens.revokeApiToken(arg!))) fail("No active token matches");
      process.stderr.write("Token revoked\n");
    }
  } finally {
    const { disconnectDb } = await import("../server/db");
    await disconnectDb();
    await database.stop();
  }
};

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
