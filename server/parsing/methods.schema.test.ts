import { describe, expect, it } from "vitest";
import {
  INTERNAL_METHODS,
  internalToV2,
  methodDisplayName,
  normalizeLegacyMethod,
  V2_METHODS,
  v2ToInternal,
} from "./methods.schema";
import { ELEMENT_TYPES, isElementType } from "./types";

describe("partition method tables", () => {
  it("maps every v2 name to an internal one and back", () => {
    for (const v2 of V2_METHODS) expect(internalToV2[v2ToInternal[v2]]).toBe(v2);
  });

  it("reports stand-in methods under the v2 name they stand in for", () => {
    expect(internalToV2.yolox).toBe("balanced");
    expect(internalToV2.advanced).toBe("accurate");
    expect(internalToV2.mai).toBeNull();
    expect(internalToV2.ocr).toBeNull();
    expect(Object.keys(internalToV2).sort()).toEqual([...INTERNAL_METHODS].sort());
  });

  it("normalises legacy input and names methods for people", () => {
    expect(normalizeLegacyMethod("fast")).toBe("basic");
    expect(normalizeLegacyMethod("hi_res")).toBe("hi_res");
    expect(normalizeLegacyMethod("vlm")).toBeNull();
    expect(methodDisplayName("hi_res_ft")).toBe("accurate");
    expect(methodDisplayName("mai")).toBe("mai");
  });
});

describe("element types", () => {
  it("lists the 27 contract types", () => {
    expect(ELEMENT_TYPES).toHaveLength(27);
    expect(new Set(ELEMENT_TYPES).size).toBe(27);
    expect(isElementType("FormulaNumber")).toBe(true);
    expect(isElementType("Paragraph")).toBe(false);
  });
});
