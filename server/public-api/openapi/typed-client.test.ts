import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { expect, it } from "vitest";
import { buildOpenApiDocument } from "./document";

/**
 * A client generated from the document type-checks: openapi-typescript writes the types, and typed-calls.fixture.mts
 * (ingest, build status, prebuilt-rag, ask and a flow run in both address forms, plus calls that must be refused)
 * is compiled against them with tsc.
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");

it("generates types that type-check the fixture's calls", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "quarry-openapi-"));
  try {
    const types = astToString(await openapiTS(buildOpenApiDocument() as never));
    expect(types).toContain('"/sources/ingest-file"');
    writeFileSync(path.join(dir, "openapi-types.ts"), types);
    copyFileSync(path.join(import.meta.dirname, "typed-calls.fixture.mts"), path.join(dir, "calls.mts"));
    const flags = ["--noEmit", "--strict", "--noUncheckedIndexedAccess", "--skipLibCheck"];
    const target = ["--target", "es2022", "--lib", "es2022,dom", "--module", "esnext", "--moduleResolution", "bundler"];
    let output = "";
    try {
      execFileSync(process.execPath, [TSC, ...flags, ...target, "calls.mts", "openapi-types.ts"], {
        cwd: dir,
        encoding: "utf8",
      });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe("");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
