import { describe, expect, it } from "vitest";
import { withSureFurniture } from "./furniture";
import type { ElementType, ParsedElement } from "./types";

const el = (pageNumber: number, type: ElementType, text: string): ParsedElement => ({ type, text, pageNumber });

describe("sure page furniture", () => {
  it("keeps Header/Footer repeated across pages, retypes one seen once so it is indexed", () => {
    const elements = [
      el(1, "Header", "Annual Report on the Fleet"),
      el(1, "Header", "ACME Corp — Internal"),
      el(1, "Footer", "Page 1 of 3"),
      el(2, "Header", "ACME Corp — Internal"),
      el(2, "Footer", "Page 2 of 3"),
      el(3, "Header", "ACME Corp — Internal"),
      el(3, "Footer", "The fleet grew by twelve trucks in the last quarter of the year."),
    ];
    const out = withSureFurniture(elements);
    expect(out.map((e) => e.type)).toEqual([
      "UncategorizedText",
      "Header",
      "Footer",
      "Header",
      "Footer",
      "Header",
      "NarrativeText",
    ]);
    // The input is not changed.
    expect(elements[0]?.type).toBe("Header");
    // One page: nothing can repeat, so nothing is sure.
    expect(withSureFurniture([el(1, "Header", "Quarterly Scan Report")])[0]?.type).toBe("UncategorizedText");
  });
});
