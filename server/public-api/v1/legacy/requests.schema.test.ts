import { describe, expect, it } from "vitest";
import { buildMethodFor } from "../../../sources/legacy";
import { screenshotWidth } from "../../../sources/screenshot";
import { LegacyElementsInput, LegacyProcessInput, LegacyUploadFields, ScreenshotInput } from "./requests.schema";

const detailOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error?.issues[0]?.message;

describe("legacy partition_method", () => {
  it("accepts legacy, v2 and vlm names and stores legacy-only names as they were given", () => {
    const runs = (v?: string) => buildMethodFor(LegacyUploadFields.parse({ partition_method: v }).partition_method);
    expect(runs(undefined)).toBe("basic");
    expect(runs("hi_res")).toBe("hi_res");
    expect(runs("hi_res_ft")).toBe("hi_res_ft");
    expect(runs("graphorlm")).toBe("graphorlm");
    expect(runs("auto")).toBe("auto");
    expect(runs("fast")).toBe("basic");
    expect(runs("agentic")).toBe("graphorlm");
    // Reported as stored (contract §3): the parsers run them as the method that does their job.
    expect(runs("mai")).toBe("mai");
    expect(runs("vlm")).toBe("mai");
    expect(runs("ocr")).toBe("ocr");
    expect(runs("yolox")).toBe("yolox");
    expect(runs("advanced")).toBe("advanced");
  });

  it("refuses anything else with the contract's text", () => {
    for (const bad of ["turbo", "HI_RES", 3]) {
      expect(detailOf(LegacyUploadFields.safeParse({ partition_method: bad }))).toBe(
        `Invalid partition_method '${bad}'. Valid values: basic, hi_res, hi_res_ft, mai, graphorlm`,
      );
    }
  });
});

describe("legacy request shapes", () => {
  it("needs file_id or file_name", () => {
    const required = "Invalid input: file_id or file_name is required";
    expect(detailOf(LegacyProcessInput.safeParse({}))).toBe(required);
    expect(detailOf(LegacyProcessInput.safeParse({ file_id: " ", file_name: null }))).toBe(required);
    expect(detailOf(LegacyElementsInput.safeParse({ page: 1 }))).toBe(required);
    expect(LegacyProcessInput.parse({ file_name: "a.pdf" }).file_name).toBe("a.pdf");
  });

  it("reads the nested filter, with nulls meaning no filter", () => {
    const parsed = LegacyElementsInput.parse({
      file_id: "x",
      page: "2",
      page_size: 5,
      filter: { type: "Title", page_numbers: [1, "3"], elementsToRemove: null },
    });
    expect(parsed).toMatchObject({ page: 2, page_size: 5, filter: { type: "Title", page_numbers: [1, 3] } });
    expect(parsed.filter?.elementsToRemove).toBeUndefined();
    expect(LegacyElementsInput.parse({ file_id: "x", filter: null }).filter).toBeNull();
    expect(detailOf(LegacyElementsInput.safeParse({ file_id: "x", page_size: 500 }))).toBe(
      "page_size must be between 1 and 100",
    );
    expect(detailOf(LegacyElementsInput.safeParse({ file_id: "x", filter: { page_numbers: ["a"] } }))).toBe(
      "page_numbers must be integers",
    );
  });

  it("takes screenshot page numbers and widths as integers, and clamps the width", () => {
    expect(ScreenshotInput.parse({ file_id: "f", page_number: "2" })).toEqual({ file_id: "f", page_number: 2 });
    expect(ScreenshotInput.parse({ file_id: "f", page_number: "0", max_width: "" }).page_number).toBe(0);
    expect(detailOf(ScreenshotInput.safeParse({ file_id: "f", page_number: "1.5" }))).toBe(
      "page_number must be an integer",
    );
    expect(detailOf(ScreenshotInput.safeParse({ file_id: "f", page_number: "1", max_width: "wide" }))).toBe(
      "max_width must be an integer",
    );
    expect([undefined, 10, 300, 1200, 1600, 99999].map(screenshotWidth)).toEqual([900, 300, 300, 1200, 1600, 1600]);
  });
});
