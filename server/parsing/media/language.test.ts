import { describe, expect, it } from "vitest";
import { normalizeLanguage } from "./language";

describe("normalizeLanguage", () => {
  it("maps Whisper names, container tags and codes to one code", () => {
    expect(["english", "English", "eng", "en", "en-US"].map(normalizeLanguage)).toEqual(["en", "en", "en", "en", "en"]);
    expect(["french", "fre", "fra", "fr"].map(normalizeLanguage)).toEqual(["fr", "fr", "fr", "fr"]);
    expect(["german", "ger", "deu"].map(normalizeLanguage)).toEqual(["de", "de", "de"]);
    expect(normalizeLanguage("maori")).toBe("mi");
    expect(normalizeLanguage("myanmar")).toBe("my");
    expect(normalizeLanguage("hebrew")).toBe("he");
    expect(normalizeLanguage("romanian")).toBe("ro");
    expect(normalizeLanguage("cantonese")).toBe("yue");
    expect(normalizeLanguage("und")).toBeNull();
    expect(normalizeLanguage(undefined)).toBeNull();
    expect(normalizeLanguage("Klingon")).toBe("klingon");
  });
});
