import { describe, expect, it } from "vitest";
import { adjacencyRelations, type GridCell } from "./table-structure";

const cell = (row: number, col: number, text: string, colSpan = 1): GridCell => ({
  row,
  col,
  rowSpan: 1,
  colSpan,
  text,
});

describe("adjacencyRelations", () => {
  it("relates each cell to its next filled neighbour right and below, past empty cells", () => {
    const relations = adjacencyRelations([cell(0, 0, "Year"), cell(0, 1, ""), cell(0, 2, "Total"), cell(1, 0, "2020")]);
    expect(relations.sort()).toEqual(["year → total", "year ↓ 2020"]);
  });

  it("compares texts without their spaces, as the competition's ground truth writes them", () => {
    const ours = adjacencyRelations([cell(0, 0, "United Kingdom"), cell(0, 1, "12.5 %")]);
    const theirs = adjacencyRelations([cell(0, 0, "UnitedKingdom"), cell(0, 1, "12.5%")]);
    expect(ours).toEqual(theirs);
  });

  it("tells a merged column from two: a spanning cell relates to each cell under it", () => {
    const relations = adjacencyRelations([cell(0, 0, "Size", 2), cell(1, 0, "S"), cell(1, 1, "M")]);
    expect(relations.sort()).toEqual(["s → m", "size ↓ m", "size ↓ s"]);
  });
});
