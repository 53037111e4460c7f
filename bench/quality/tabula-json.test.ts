import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tabulaTables } from "./tabula-json";

const dir = mkdtempSync(path.join(tmpdir(), "tabula-json-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (left: number, top: number, text: string) => ({ top, left, width: 40, height: 10, text });
const none = { top: 0, left: 0, width: 0, height: 0, text: "" };

const TABLES = [
  {
    page_number: 1,
    data: [
      [at(10, 10, "Year"), at(50, 10, "Sales"), none],
      [none, at(50, 20, "2007"), at(90, 20, "2008")],
      [at(10, 30, "North\rregion"), at(50, 30, "1,505"), at(90, 30, "")],
    ],
  },
  { page_number: 4, data: [[at(10, 10, "Later page")]] },
];

describe("tabula-java's expected tables (json/*.json)", () => {
  const file = path.join(dir, "t.json");
  writeFileSync(file, JSON.stringify(TABLES));

  it("reads the cells of the first pages' tables, line breaks as spaces, empty cells left out", () => {
    expect(tabulaTables(file, 3).cells).toEqual(["Year", "Sales", "2007", "2008", "North region", "1,505"]);
    expect(tabulaTables(file, 4).cells).toContain("Later page");
  });

  it("folds placeholders into spans: after a cell a column span, at a row's start a row span", () => {
    const { relations } = tabulaTables(file, 3);
    expect(relations).toContain("sales ↓ 2007");
    expect(relations).toContain("sales ↓ 2008");
    expect(relations).toContain("year → sales");
    expect(relations).toContain("year → 2007");
    expect(relations).toContain("year ↓ northregion");
  });
});
