import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-next";

describe("safeNext", () => {
  it.each([
    ["/%09/evil.test as the browser decodes it", "/\t/evil.test"],
    ["a tab anywhere", "/ok\tpath"],
    ["protocol-relative", "//evil.test"],
    ["a backslash after the slash", "/\\evil.test"],
    ["two backslashes", "\\\\evil"],
    ["a backslash later on", "/ok\\..\\evil"],
    ["another origin", "https://evil.test"],
    ["the app's scheme without a host", "http:evil.test"],
    ["a script", "javascript:alert(1)"],
    ["a path the parser turns into //", "/.//evil.test"],
    ["CR", "/a\rb"],
    ["LF", "/a\nb"],
    ["CRLF with a header", "/a\r\nSet-Cookie: x=1"],
    ["NUL", "/a\u0000"],
    ["DEL", "/a\u007f"],
    ["an encoded slash", "/%2F%2Fevil.test"],
    ["an encoded backslash", "/%5Cevil.test"],
    ["a relative path", "ok/path"],
    ["empty", ""],
    ["nothing", undefined],
    ["null", null],
  ])("sends %s to /", (_, next) => {
    expect(safeNext(next)).toBe("/");
  });

  it.each([
    ["/ok/path?x=1", "/ok/path?x=1"],
    ["/", "/"],
    ["/p/sources#top", "/p/sources#top"],
    ["/a/../b", "/b"],
    ["/search?q=a%2Fb", "/search?q=a%2Fb"],
  ])("keeps %s", (next, expected) => {
    expect(safeNext(next)).toBe(expected);
  });

  it("percent-encodes non-ASCII, so the Location header holds only ASCII", () => {
    expect(safeNext("/café?q=ü")).toBe("/caf%C3%A9?q=%C3%BC");
  });
});
