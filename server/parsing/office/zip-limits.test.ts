import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import {
  buildDocx,
  deflatedZip,
  expectUnprocessable,
  wPara,
  withDeclaredSize,
  withEncryptedFlag,
} from "./test-fixtures";
import { checkOfficeZip, DEFAULT_ZIP_LIMITS } from "./zip-limits";

const zipOf = async (files: Record<string, Uint8Array | string>) => {
  const zip = new JSZip();
  for (const [name, data] of Object.entries(files)) zip.file(name, data);
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
};

describe("checkOfficeZip", () => {
  it("accepts a real package and lists its parts", async () => {
    const docx = await buildDocx({ body: wPara("Hello") });
    const entries = await checkOfficeZip(docx, "docx");
    expect(entries.map((e) => e.name)).toContain("word/document.xml");
    expect(entries.every((e) => e.size >= 0)).toBe(true);
  });

  it("rejects bytes that are not a ZIP", async () => {
    const error = await expectUnprocessable(
      checkOfficeZip(new TextEncoder().encode("just some text, not a zip"), "docx"),
    );
    expect(error.message).toMatch(/^The \.docx file is not a valid Office document/);
  });

  it("rejects a truncated package", async () => {
    const docx = await buildDocx({ body: wPara("Hello ".repeat(200)) });
    const error = await expectUnprocessable(checkOfficeZip(docx.subarray(0, Math.floor(docx.length / 2)), "docx"));
    expect(error.message).toMatch(/not a valid Office document/);
  });

  it("says a CFB file is password-protected when it holds EncryptionInfo", async () => {
    const cfb = new Uint8Array(2048);
    cfb.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    cfb.set(Buffer.from("EncryptionInfo", "utf16le"), 1024);
    const error = await expectUnprocessable(checkOfficeZip(cfb, "xlsx"));
    expect(error.message).toMatch(/password-protected/);
  });

  it("says a CFB file without encryption is the legacy format", async () => {
    const cfb = new Uint8Array(2048);
    cfb.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const error = await expectUnprocessable(checkOfficeZip(cfb, "docx"));
    expect(error.message).toMatch(/legacy binary format \(Word 97-2003 \(\.doc\)\)/);
  });

  it("rejects encrypted entries", async () => {
    const docx = withEncryptedFlag(await buildDocx({ body: wPara("Secret") }));
    const error = await expectUnprocessable(checkOfficeZip(docx, "docx"));
    expect(error.message).toMatch(/password-protected/);
  });

  it("rejects more entries than allowed", async () => {
    const zip = await zipOf({ a: "1", b: "2", c: "3", d: "4" });
    const error = await expectUnprocessable(checkOfficeZip(zip, "xlsx", { ...DEFAULT_ZIP_LIMITS, maxEntries: 3 }));
    expect(error.message).toMatch(/has 4 parts, more than the 3/);
  });

  it("rejects a package that expands past the total limit", async () => {
    const zip = await zipOf({ a: "x".repeat(600), b: "y".repeat(600) });
    const error = await expectUnprocessable(
      checkOfficeZip(zip, "pptx", { ...DEFAULT_ZIP_LIMITS, maxTotalBytes: 1000 }),
    );
    expect(error.message).toMatch(/expands to more than/);
  });

  it("rejects a zip bomb: one part that inflates 1000 times past 10 MB", async () => {
    // 11 MB of zeros deflate to ~11 KB: over both the size floor and the 200:1 ratio of the real limits.
    const zip = deflatedZip([{ name: "word/document.xml", data: new Uint8Array(11 * 1024 * 1024) }]);
    expect(zip.length).toBeLessThan(100_000);
    const error = await expectUnprocessable(checkOfficeZip(zip, "docx"));
    expect(error.message).toMatch(/ZIP bomb.*word\/document\.xml/);
  });

  it("allows a highly compressible part below the size floor", async () => {
    const zip = deflatedZip([{ name: "xl/sharedStrings.xml", data: new Uint8Array(1024 * 1024) }]);
    const entries = await checkOfficeZip(zip, "xlsx");
    expect(entries.find((e) => e.name === "xl/sharedStrings.xml")?.size).toBe(1024 * 1024);
  });

  it("rejects a part whose data is longer than its declared size (lying headers)", async () => {
    const zip = withDeclaredSize(await zipOf({ "word/document.xml": "z".repeat(50_000) }), 100);
    const error = await expectUnprocessable(checkOfficeZip(zip, "docx"));
    expect(error.message).toMatch(/damaged/);
  });
});
