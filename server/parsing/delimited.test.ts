import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { MAX_TABLE_ROWS, partitionDelimited } from "./delimited";

describe("csv and tsv", () => {
  it("makes one table with a header row, quoted commas kept", () => {
    const csv = 'Name,Note,Count\nAlpha,"one, two",1\nBeta,"say ""hi""",2\n';
    const [table] = partitionDelimited({ bytes: Buffer.from(csv), fileType: "csv" }).elements;
    expect(table?.type).toBe("Table");
    expect(table?.text).toBe('Name Note Count\nAlpha one, two 1\nBeta say "hi" 2');
    expect(table?.html).toContain("<thead><tr><th>Name</th><th>Note</th><th>Count</th></tr></thead>");
    expect(table?.html).toContain("<td>say &quot;hi&quot;</td>");
  });

  it("splits TSV on tabs only", () => {
    const tsv = "Team\tCity, State\tCups\r\nBlues\tSt. Louis, MO\t1\r\n";
    const [table] = partitionDelimited({ bytes: Buffer.from(tsv), fileType: "tsv" }).elements;
    expect(table?.html).toContain("<th>City, State</th>");
  });

  it("splits big sheets into tables that repeat the header", () => {
    const rows = Array.from({ length: MAX_TABLE_ROWS * 2 + 5 }, (_, i) => `r${i},${i}`);
    const { elements } = partitionDelimited({ bytes: Buffer.from(`key,value\n${rows.join("\n")}`), fileType: "csv" });
    expect(elements).toHaveLength(3);
    for (const e of elements) expect(e.text.startsWith("key value\n")).toBe(true);
    expect(elements[2]?.metadata).toMatchObject({ row_start: MAX_TABLE_ROWS * 2 + 1, row_end: MAX_TABLE_ROWS * 2 + 5 });
  });

  it("decodes windows-1252 files", () => {
    const bytes = iconv.encode("Produkt;Preis\nKäse;3,50 €\n", "win1252");
    const [table] = partitionDelimited({ bytes, fileType: "csv" }).elements;
    expect(table?.text).toBe("Produkt Preis\nKäse 3,50 €");
  });
});
