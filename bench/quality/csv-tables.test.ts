import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { csvTables, parseCsv } from "./csv-tables";

const dir = mkdtempSync(path.join(tmpdir(), "csv-tables-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("expected tables as CSV text by name (gmft's ditr_csvs.json)", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, and empty fields", () => {
    expect(parseCsv('a,"b, c","say ""hi"""\r\n,"two\nlines",\n')).toEqual([
      ["a", "b, c", 'say "hi"'],
      ["", "two\nlines", ""],
    ]);
  });

  it("scores the named tables' non-empty cells and their neighbours", () => {
    const file = path.join(dir, "refs.json");
    writeFileSync(
      file,
      JSON.stringify({
        t0: ',SVR n = 29,p value\nAge (mean),45.2,0.09a\n"Gender, m/f",,1.0b\n',
        t1: 'nan,"Phar\uFFFEmaco\nkinetics",x\n',
      }),
    );
    const { cells, relations } = csvTables(file, ["t0"]);
    expect(cells).toEqual(["SVR n = 29", "p value", "Age (mean)", "45.2", "0.09a", "Gender, m/f", "1.0b"]);
    expect(relations).toContain("svrn29 ↓ 452");
    expect(relations).toContain("gendermf → 10b");
    expect(csvTables(file, ["t1"]).cells).toEqual(["Pharmaco kinetics", "x"]);
    expect(() => csvTables(file, ["t9"])).toThrow(/no table t9/);
  });
});
