import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { camelotData, camelotTables } from "./camelot";

const dir = mkdtempSync(path.join(tmpdir(), "camelot-data-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DATA = `# noqa

data_a = [
    ["Title", "", ""],  # a comment, with "quotes"
    [
        "State", "Revenue"
        " (Rs.)", 'It\\'s',
    ],
    ["Baj\\xedo", "1,2", "\\u2014"],
]

data_b = data_a[1:]
data_a = [["later", "wins"]]
`;

describe("camelot's expected tables (tests/data.py)", () => {
  const file = path.join(dir, "data.py");
  writeFileSync(file, DATA);

  it("reads the lists as Python does: concatenated strings, escapes, comments, slices, the later assignment", () => {
    const data = camelotData(file);
    expect(data.get("data_b")).toEqual([
      ["State", "Revenue (Rs.)", "It's"],
      ["Bajío", "1,2", "—"],
    ]);
    expect(data.get("data_a")).toEqual([["later", "wins"]]);
  });

  it("scores a grid's empty strings as empty cells", () => {
    const { cells, relations } = camelotTables(file, ["data_b"]);
    expect(cells).toEqual(["State", "Revenue (Rs.)", "It's", "Bajío", "1,2", "—"]);
    expect(relations).toContain("state ↓ bajío");
    expect(relations).toContain("revenuers → its");
  });
});
