import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createMigration, defaultMigrationsDir, defaultSchemaDir, diffMigrationsToSchema } from "./migrate-diff";

describe("migration generation with the wasm schema engine", () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "quarry-migrate-diff-test-"));

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("finds prisma/migrations in step with prisma/schema/", async () => {
    // Fails when the schema changed without `npm run migrate:diff -- <name>`.
    expect(await diffMigrationsToSchema()).toBe("");
  });

  it("writes a timestamped migration for a schema change, and nothing when there is none", async () => {
    const migrationsDir = path.join(tmp, "migrations");
    cpSync(defaultMigrationsDir, migrationsDir, { recursive: true });
    rmSync(path.join(migrationsDir, "migration_lock.toml"), { force: true });
    const schemaDir = path.join(tmp, "schema");
    cpSync(defaultSchemaDir, schemaDir, { recursive: true });
    const projectsFile = path.join(schemaDir, "projects.prisma");
    const schema = readFileSync(projectsFile, "utf8");
    const changed = schema.replace(/(model Project \{\n)/, "$1  note String?\n");
    expect(changed).not.toBe(schema);
    writeFileSync(projectsFile, changed);

    const created = await createMigration({
      name: "Add note",
      migrationsDir,
      schemaDir,
      now: new Date("2099-01-02T03:04:05Z"),
    });
    expect(created?.name).toBe("20990102030405_add_note");
    expect(readFileSync(created!.file, "utf8")).toContain(`ALTER TABLE "projects" ADD COLUMN     "note" TEXT;`);
    expect(readFileSync(path.join(migrationsDir, "migration_lock.toml"), "utf8")).toContain(`provider = "postgresql"`);

    expect(await createMigration({ name: "again", migrationsDir, schemaDir })).toBeUndefined();
    expect(existsSync(path.join(migrationsDir, "20990102030405_add_note"))).toBe(true);
  });
});
