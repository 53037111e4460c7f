import ExcelJS from "exceljs";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { expectUnprocessable } from "./test-fixtures";
import { partitionXlsx } from "./xlsx";

const write = async (fill: (wb: ExcelJS.Workbook) => void): Promise<Uint8Array> => {
  const wb = new ExcelJS.Workbook();
  fill(wb);
  return new Uint8Array(await wb.xlsx.writeBuffer());
};

describe("partitionXlsx", () => {
  it("splits a sheet into a title, a table and notes, with cached values", async () => {
    const xlsx = await write((wb) => {
      const ws = wb.addWorksheet("Sales 2024");
      ws.getCell("A1").value = "Quarterly Sales";
      ws.mergeCells("A1:D1");
      ws.addRow([]);
      ws.getRow(3).values = ["Region", "Q1", "Q2", "Total"];
      ws.getRow(4).values = ["North", 10, 20];
      ws.getRow(5).values = ["South", 0.1, 0.2];
      ws.getRow(6).values = ["Closed on", new Date(Date.UTC(2024, 2, 15)), "n/a", "n/a"];
      // The cached result is what the file says, even when it is "wrong": formulas are never computed.
      ws.getCell("D4").value = { formula: "B4+C4", result: 999 } as ExcelJS.CellFormulaValue;
      ws.getCell("D5").value = { formula: "B5+C5" } as ExcelJS.CellFormulaValue;
      ws.getCell("B6").numFmt = "yyyy-mm-dd";
      ws.getCell("A8").value = "Source: the regional offices, unaudited.";
      wb.addWorksheet("Empty");
    });
    const { elements, totalPages, warnings } = await partitionXlsx(xlsx);
    expect(totalPages).toBe(2);
    expect(warnings).toEqual([]);
    // The sheet's name heads its page; the empty sheet adds nothing.
    expect(elements.map((e) => [e.type, e.text, e.pageNumber])).toEqual([
      ["Title", "Sales 2024", 1],
      ["Title", "Quarterly Sales", 1],
      ["Table", "Region Q1 Q2 Total\nNorth 10 20 999\nSouth 0.1 0.2\nClosed on 2024-03-15 n/a n/a", 1],
      ["NarrativeText", "Source: the regional offices, unaudited.", 1],
    ]);
    const table = elements[2];
    expect(table?.metadata).toEqual({ sheet_name: "Sales 2024", cell_range: "A3:D6" });
    expect(table?.html).toBe(
      "<table><thead><tr><th>Region</th><th>Q1</th><th>Q2</th><th>Total</th></tr></thead><tbody>" +
        "<tr><td>North</td><td>10</td><td>20</td><td>999</td></tr>" +
        "<tr><td>South</td><td>0.1</td><td>0.2</td><td></td></tr>" +
        "<tr><td>Closed on</td><td>2024-03-15</td><td>n/a</td><td>n/a</td></tr></tbody></table>",
    );
    expect(elements[0]?.metadata).toMatchObject({ sheet_name: "Sales 2024" });
  });

  it("cuts tables at empty rows and columns, keeps merged cells as spans", async () => {
    const xlsx = await write((wb) => {
      wb.addWorksheet("First").getCell("A1").value = "Nothing much here";
      const ws = wb.addWorksheet("Blocks");
      ws.getRow(1).values = ["Name", "Age", null, null, "City", "Zip"];
      ws.getRow(2).values = ["Ann", 31, null, null, "Oslo", 150];
      ws.getRow(5).values = ["Merged header", null, "Other"];
      ws.mergeCells("A5:B5");
      ws.getRow(6).values = [1, 2, 3];
    });
    const { elements } = await partitionXlsx(xlsx);
    const tables = elements.filter((e) => e.type === "Table");
    expect(tables.map((t) => [t.text, t.pageNumber, t.metadata?.cell_range])).toEqual([
      ["Name Age\nAnn 31", 2, "A1:B2"],
      ["City Zip\nOslo 150", 2, "E1:F2"],
      ["Merged header Other\n1 2 3", 2, "A5:C6"],
    ]);
    expect(tables[2]?.html).toContain('<th colspan="2">Merged header</th><th>Other</th>');
    expect(elements[1]).toMatchObject({ text: "Nothing much here", pageNumber: 1, metadata: { sheet_name: "First" } });
  });

  it("joins header rows and spacer-separated column groups into one table", async () => {
    const xlsx = await write((wb) => {
      const ws = wb.addWorksheet("Report");
      ws.getRow(1).values = ["In millions", null, null, null, "2023"];
      ws.getRow(2).values = [null, "Sales", "Profit", null, "Costs"];
      ws.getRow(4).values = ["Zone A", 100, 20, null, -5];
      ws.getRow(5).values = ["Zone B", 200, 40, null, -7];
    });
    const { elements } = await partitionXlsx(xlsx);
    expect(elements.map((e) => e.type)).toEqual(["Title", "Table"]);
    expect(elements[1]?.html).toMatch(
      /^<table><thead><tr><th>In millions<\/th><th><\/th><th><\/th><th>2023<\/th><\/tr>/,
    );
    expect(elements[1]?.text).toBe("In millions 2023\nSales Profit Costs\nZone A 100 20 -5\nZone B 200 40 -7");
  });

  it("skips hidden sheets and says so; keeps a chart's title and series as text", async () => {
    const base = await write((wb) => {
      const ws = wb.addWorksheet("Revenue");
      ws.getRow(1).values = ["Year", "Revenue"];
      ws.getRow(2).values = [2022, 12];
      ws.getRow(3).values = [2023, 15];
      const hidden = wb.addWorksheet("Lookup");
      hidden.state = "hidden";
      hidden.getCell("A1").value = "internal rate table";
    });
    const zip = await JSZip.loadAsync(base);
    const rels = (id: string, type: string, target: string) =>
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/></Relationships>`;
    zip.file("xl/worksheets/_rels/sheet1.xml.rels", rels("rId9", "drawing", "../drawings/drawing1.xml"));
    zip.file(
      "xl/drawings/drawing1.xml",
      `<xdr:wsDr xmlns:xdr="x" xmlns:c="c" xmlns:r="r"><xdr:twoCellAnchor><xdr:graphicFrame><c:chart r:id="rId1"/></xdr:graphicFrame></xdr:twoCellAnchor></xdr:wsDr>`,
    );
    zip.file("xl/drawings/_rels/drawing1.xml.rels", rels("rId1", "chart", "../charts/chart1.xml"));
    const pts = (values: string[]) => values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join("");
    zip.file(
      "xl/charts/chart1.xml",
      `<c:chartSpace xmlns:c="c" xmlns:a="a"><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Revenue by year</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:ser>` +
        `<c:tx><c:strRef><c:strCache><c:pt idx="0"><c:v>Revenue</c:v></c:pt></c:strCache></c:strRef></c:tx>` +
        `<c:cat><c:numRef><c:numCache>${pts(["2022", "2023"])}</c:numCache></c:numRef></c:cat>` +
        `<c:val><c:numRef><c:numCache>${pts(["12", "15"])}</c:numCache></c:numRef></c:val>` +
        `</c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>`,
    );
    const { elements, warnings } = await partitionXlsx(await zip.generateAsync({ type: "uint8array" }));
    expect(warnings).toEqual(['Sheet "Lookup" is hidden and was not read']);
    expect(elements.map((e) => e.text).join("\n")).not.toContain("internal rate table");
    expect(elements.map((e) => [e.type, e.text])).toEqual([
      ["Title", "Revenue"],
      ["Table", "Year Revenue\n2022 12\n2023 15"],
      ["Chart", "Revenue by year\nRevenue: 2022: 12, 2023: 15"],
    ]);
  });

  it("stops at the cell cap with a warning", async () => {
    const xlsx = await write((wb) => {
      const ws = wb.addWorksheet("Big");
      for (let r = 1; r <= 10; r++) ws.getRow(r).values = [`row ${r}`, r, r * 2];
      wb.addWorksheet("After").getCell("A1").value = "never read";
    });
    const { elements, warnings } = await partitionXlsx(xlsx, "xlsx", { maxCells: 12 });
    expect(warnings).toEqual([
      'Sheet "Big" was read only in part: Quarry reads the first 12 cells of a workbook',
      'Sheet "After" and the sheets after it were not read: the workbook has more than 12 cells',
    ]);
    expect(elements.map((e) => e.text).join("\n")).not.toContain("never read");
    expect(elements[1]?.text.split("\n")).toHaveLength(4);
  });

  describe("malformed files end as UNPROCESSABLE", () => {
    it("a truncated file", async () => {
      const xlsx = await write((wb) => {
        wb.addWorksheet("S").getCell("A1").value = "x".repeat(2000);
      });
      await expectUnprocessable(partitionXlsx(xlsx.subarray(0, xlsx.length - 30)));
    });

    it("a package that is not a workbook", async () => {
      const zip = new JSZip();
      zip.file("hello.txt", "hello");
      await expectUnprocessable(partitionXlsx(await zip.generateAsync({ type: "uint8array" })));
    });

    it("a workbook part that is not XML", async () => {
      const zip = await JSZip.loadAsync(
        await write((wb) => {
          wb.addWorksheet("S").getCell("A1").value = 1;
        }),
      );
      zip.file("xl/workbook.xml", "<<< garbage");
      await expectUnprocessable(partitionXlsx(await zip.generateAsync({ type: "uint8array" })));
    });

    it("a sheet part that is not XML", async () => {
      const zip = await JSZip.loadAsync(
        await write((wb) => {
          wb.addWorksheet("S").getCell("A1").value = 1;
        }),
      );
      zip.file("xl/worksheets/sheet1.xml", "<worksheet><sheetData><row><c r=");
      await expectUnprocessable(partitionXlsx(await zip.generateAsync({ type: "uint8array" })));
    });
  });
});
