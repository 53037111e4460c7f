import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { expect, it } from "vitest";
import { buildOpenApiDocument } from "./document";

/**
 * A client generated from the document type-checks: openapi-typescript writes the types, and typed-calls.fixture.mts
 * (ingest, build status, prebuilt-rag, ask and a flow run in both address forms, plus calls that must be refused)
 * is compiled with them, in one module, by tsc.
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");

it("generates types that type-check the fixture's calls", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "quarry-openapi-"));
  try {
    const types = astToString(await openapiTS(buildOpenApiDocument() as never));
    expect(types).toContain('"/sources/ingest-file"');
    const calls = readFileSync(path.join(import.meta.dirname, "typed-calls.fixture.mts"), "utf8");
    writeFileSync(path.join(dir, "calls.mts"), `${types}\n${calls}`);
    const flags = ["--noEmit", "--strict", "--noUncheckedIndexedAccess", "--skipLibCheck"];
    const target = ["--target", "es2022", "--lib", "es2022,dom", "--module", "esnext", "--moduleResolution", "bundler"];
    let output = "";
    try {
      execFileSync(process.execPath, [TSC, ...flags, ...target, "calls.mts"], {
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
