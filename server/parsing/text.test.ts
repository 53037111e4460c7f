import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { decodeText } from "./encoding";
import { partitionText } from "./text";

const parse = (text: string) => partitionText({ bytes: Buffer.from(text, "utf8") }).elements;

describe("plain text", () => {
  it("splits paragraphs on blank lines and classifies them", () => {
    const elements = parse(
      [
        "Quarterly Summary",
        "",
        "Revenue grew in every region this quarter.",
        "The growth came mostly from renewals.",
        "",
        "Key points:",
        "  - Renewals up",
        "  * New logos flat",
        "  • Churn down",
        "1. First numbered",
        "a) Lettered item",
        "",
        "Doylestown, PA 18901",
        "",
        "jane.doe@example.com",
        "",
        "ok then",
      ].join("\n"),
    );
    expect(elements.map((e) => e.type)).toEqual([
      "Title",
      "NarrativeText",
      "Title",
      "ListItem",
      "ListItem",
      "ListItem",
      "ListItem",
      "ListItem",
      "Address",
      "EmailAddress",
      "UncategorizedText",
    ]);
    expect(elements[1]?.text).toBe("Revenue grew in every region this quarter. The growth came mostly from renewals.");
    expect(elements[3]?.text).toBe("Renewals up");
    expect(elements[6]?.text).toBe("First numbered");
    expect(elements.every((e) => e.pageNumber === null)).toBe(true);
  });

  it("does not take a quoted sentence for a title", () => {
    const elements = parse('"Don\'t tease! Well, what has been decided?"\n\nHe said nothing more.');
    expect(elements[0]?.type).toBe("NarrativeText");
  });

  it("continues a list item over its wrapped lines", () => {
    const elements = parse("- a long item\n  that wraps\n- next");
    expect(elements.map((e) => e.text)).toEqual(["a long item that wraps", "next"]);
  });

  it("handles CRLF and a UTF-8 BOM", () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("Größe\r\n\r\nZweiter Absatz.", "utf8")]);
    const elements = partitionText({ bytes }).elements;
    expect(elements.map((e) => e.text)).toEqual(["Größe", "Zweiter Absatz."]);
  });

  it("stays fast on hostile input", () => {
    const started = Date.now();
    parse(`${"- ".repeat(50_000)}x\n\n${"a@".repeat(50_000)}\n\n${"1, AB ".repeat(20_000)}`);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("encoding detection", () => {
  it("reads windows-1252 text (umlauts and the euro sign)", () => {
    const bytes = iconv.encode("Die schöne Frau bezahlte 15,50 € für den Kaffee und lächelte.", "win1252");
    const { text, encoding } = decodeText({ bytes });
    expect(encoding).toBe("windows-1252");
    expect(text).toContain("schöne");
    expect(text).toContain("€");
  });

  it("reads UTF-16 with a BOM", () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("héllo wörld", "utf16le")]);
    expect(decodeText({ bytes }).text).toBe("héllo wörld");
  });

  it("prefers valid UTF-8 and honours a declared charset", () => {
    expect(decodeText({ bytes: Buffer.from("naïve café", "utf8") }).encoding).toBe("utf-8");
    const latin = iconv.encode("café", "latin1");
    expect(decodeText({ bytes: latin, declared: "ISO-8859-1" }).text).toBe("café");
  });
});
