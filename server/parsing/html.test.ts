import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { partitionHtml, partitionHtmlText } from "./html";

describe("html", () => {
  it("drops boilerplate and hidden content and maps blocks to types", () => {
    const elements = partitionHtmlText(`
      <html><head><title>T</title><style>p{}</style></head><body>
        <nav><a href="/">Home</a></nav>
        <header><p>Site banner</p></header>
        <script>var x = "<p>not text</p>";</script>
        <h1>Main   Heading</h1>
        <p>First paragraph with <b>bold</b> and
           a line break.</p>
        <div style="display: none">hidden text</div>
        <p hidden>also hidden</p>
        <ul><li>One</li><li>Two <ul><li>Nested</li></ul></li></ul>
        <pre><code class="language-python">print("hi")
  indented</code></pre>
        <p><a href="https://example.com/a">Read more</a></p>
        <p>contact@example.com</p>
        <form><label>Search</label><input></form>
        <footer>Copyright</footer>
      </body></html>`);
    expect(elements.map((e) => [e.type, e.text])).toEqual([
      ["Title", "Main Heading"],
      ["NarrativeText", "First paragraph with bold and a line break."],
      ["ListItem", "One"],
      ["ListItem", "Two"],
      ["ListItem", "Nested"],
      ["CodeSnippet", 'print("hi")\n  indented'],
      ["Link", "Read more"],
      ["EmailAddress", "contact@example.com"],
    ]);
    expect(elements[0]?.metadata?.category_depth).toBe(1);
    expect(elements[4]?.metadata?.category_depth).toBe(1);
    expect(elements[5]?.metadata?.language).toBe("python");
  });

  it("keeps data tables as tables with clean HTML", () => {
    const [table] = partitionHtmlText(`<table class="x" style="width:100%">
      <tr><th>Team</th><th>Cups</th></tr>
      <tr><td style="color:red">Blues</td><td>1</td></tr>
      <tr><td colspan="2">Total 1</td></tr></table>`);
    expect(table?.type).toBe("Table");
    expect(table?.text).toBe("Team Cups\nBlues 1\nTotal 1");
    expect(table?.html).toBe(
      '<table><tr><th>Team</th><th>Cups</th></tr><tr><td>Blues</td><td>1</td></tr><tr><td colspan="2">Total 1</td></tr></table>',
    );
  });

  it("reads layout tables as paragraphs, splitting on double <br>", () => {
    const prose = "This sentence is long enough to be prose in an old-school page. ".repeat(5);
    const elements = partitionHtmlText(`<table><tr><td><img src="x.gif" alt=""></td><td>
      <font>January 2023<br><br>${prose}<br><br>${prose}</font></td></tr></table>`);
    expect(elements.map((e) => e.type)).toEqual(["NarrativeText", "NarrativeText", "NarrativeText"]);
    expect(elements[0]?.text).toBe("January 2023");
  });

  it("detects the charset from a meta tag or from the bytes", () => {
    const body = "<p>Grüße für 15 € – schön</p>";
    const declared = iconv.encode(
      `<html><head><meta charset="windows-1252"></head><body>${body}</body></html>`,
      "win1252",
    );
    expect(partitionHtml({ bytes: declared }).elements[0]?.text).toBe("Grüße für 15 € – schön");
    const sniffed = iconv.encode(
      `<html><body>${body}<p>Das Frühstück war köstlich und günstig.</p></body></html>`,
      "win1252",
    );
    expect(partitionHtml({ bytes: sniffed }).elements[0]?.text).toBe("Grüße für 15 € – schön");
  });

  it("takes a lone multi-line <code> for a listing, inline code for text", () => {
    const elements = partitionHtmlText(
      "<div><code>line one\nline two</code></div><p>Run <code>npm\ninstall</code> first.</p>",
    );
    expect(elements.map((e) => [e.type, e.text])).toEqual([
      ["CodeSnippet", "line one\nline two"],
      ["NarrativeText", "Run npm install first."],
    ]);
  });

  it("survives absurd nesting", () => {
    const deep = `${"<div>".repeat(5000)}deep text${"</div>".repeat(5000)}`;
    expect(partitionHtmlText(deep).map((e) => e.text)).toEqual(["deep text"]);
  });

  it("reads 80,000 nested elements in seconds (the browser parser is quadratic in depth: 86 s before)", () => {
    const html = `<body>${"<div>".repeat(80_000)}deep text${"</div>".repeat(80_000)}<p>after</p></body>`;
    const started = Date.now();
    const result = partitionHtml({ bytes: new TextEncoder().encode(html) });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.elements.map((e) => e.text)).toEqual(["deep text", "after"]);
    expect(result.warnings).toEqual(["Elements nested deeper than 256 levels were read as plain text"]);
  });
});
