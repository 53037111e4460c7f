import { describe, expect, it } from "vitest";
import { pdfDoc } from "../testing/fixtures";
import { scopeOf } from "./web/scope";
import { lookAtPage } from "./page-checks";
import { judgeUrlPath, sniffBody } from "./sniff";

/** Telling a fetched body's type from its bytes, and judging a page before it is stored. */

describe("sniffing", () => {
  it("trusts the bytes over the Content-Type and the extension", async () => {
    const pdf = await pdfDoc({ pages: 1 });
    expect(sniffBody(pdf, "text/html", "https://q.example/page.html")).toEqual({ kind: "file", fileType: "pdf" });
    expect(
      sniffBody(
        Buffer.from("<!DOCTYPE html><html><body>Login</body></html>"),
        "application/pdf",
        "https://q.example/report.pdf",
      ),
    ).toEqual({ kind: "html" });
    expect(sniffBody(Buffer.from("GIF89a....."), "text/html", "https://q.example/x")).toEqual({
      kind: "unsupported",
      what: "text/html",
    });
    expect(
      sniffBody(
        Buffer.from([0x50, 0x4b, 0x03, 0x04, ...Buffer.from("word/document.xml")]),
        "application/octet-stream",
        "https://q.example/f",
      ),
    ).toEqual({ kind: "file", fileType: "docx" });
    expect(sniffBody(Buffer.from("plain notes about basalt"), "text/plain", "https://q.example/notes")).toEqual({
      kind: "file",
      fileType: "txt",
    });
    expect(sniffBody(Buffer.from("# Heading\n\ntext"), "text/markdown", "https://q.example/readme")).toEqual({
      kind: "file",
      fileType: "md",
    });
    expect(sniffBody(Buffer.from([0, 1, 2, 3, 0, 0]), "application/octet-stream", "https://q.example/blob")).toEqual({
      kind: "unsupported",
      what: "application/octet-stream",
    });
  });

  it("judges a URL's path at request time: allowed file types, refused ones, and pages", () => {
    const judge = (u: string) => judgeUrlPath(new URL(u));
    expect(judge("https://q.example/files/report.PDF")).toEqual({ kind: "file", fileType: "pdf" });
    expect(judge("https://q.example/setup.exe")).toEqual({ kind: "unsupported", what: ".exe" });
    expect(judge("https://q.example/index.php?id=3")).toBeNull();
    expect(judge("https://q.example/docs/v1.2")).toBeNull();
    expect(judge("https://q.example/docs/")).toBeNull();
  });
});

describe("looking at a page", () => {
  const look = (html: string, headers: Record<string, string> = {}) =>
    lookAtPage({ bytes: Buffer.from(html), url: "https://q.example/docs/a.html", headers, charset: null });

  it("spots bot challenges by vendor", () => {
    expect(
      look(
        "<html><head><title>Just a moment...</title></head><body><script src='/cdn-cgi/challenge-platform/x'></script></body></html>",
      ).challenge,
    ).toBe("Cloudflare");
    expect(look("<html><body><p>Real page</p></body></html>", { "cf-mitigated": "challenge" }).challenge).toBe(
      "Cloudflare",
    );
    expect(
      look("<html><body><iframe src='https://geo.captcha-delivery.com/captcha/'></iframe></body></html>").challenge,
    ).toBe("DataDome");
    expect(look("<html><body><div class='g-recaptcha' data-sitekey='x'></div></body></html>").challenge).toBe(
      "a CAPTCHA",
    );
    const article = `<html><body><article>${"<p>A long article about granite quarries and their benches.</p>".repeat(30)}<div class="g-recaptcha"></div></article></body></html>`;
    expect(look(article).challenge).toBeNull();
  });

  it("spots JavaScript-only shells but not short pages without scripts", () => {
    const shell = look(
      '<html><head><script src="/app.js"></script></head><body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>',
    );
    expect(shell.javascriptOnly).toMatch(
      /^only 0 characters of text without running its 1 script \("You need to enable JavaScript/,
    );
    expect(look("<html><body><p>Closed today.</p></body></html>").javascriptOnly).toBeNull();
  });

  it("collects absolute links once, without fragments, honouring <base>", () => {
    const page = look(
      '<html><head><base href="https://q.example/docs/v2/"></head><body><a href="intro.html#top">a</a><a href="intro.html">b</a><a href="mailto:x@q.example">m</a><a href="/up.html">c</a></body></html>',
    );
    expect(page.links).toEqual(["https://q.example/docs/v2/intro.html", "https://q.example/up.html"]);
  });

  it("hashes visible text only: the same text under other markup is the same page", () => {
    expect(look("<html><body><p>Same   words</p><script>var a=1</script></body></html>").textHash).toBe(
      look("<html><body><div>Same words</div></body></html>").textHash,
    );
  });
});

describe("crawl scope", () => {
  it("stays on the host and under the start page's folder", () => {
    const scope = scopeOf(new URL("https://q.example/docs/guide/intro.html"));
    expect(scope.contains("https://q.example/docs/guide/tools.html")).toBe(true);
    expect(scope.contains("https://q.example/docs/other.html")).toBe(false);
    expect(scope.contains("https://www.q.example/docs/guide/tools.html")).toBe(false);
    const folder = scopeOf(new URL("https://q.example/docs"));
    expect(folder.contains("https://q.example/docs/a.html")).toBe(true);
    expect(folder.contains("https://q.example/docs")).toBe(true);
    expect(folder.contains("https://q.example/docsxyz")).toBe(false);
  });
});
