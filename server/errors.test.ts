import { describe, expect, it } from "vitest";
import { AppError, isFinalFailure } from "./errors";
import { ProviderError } from "./providers/errors";

describe("isFinalFailure", () => {
  it("a refused document is final; an internal error or a model's transient failure is worth a retry", () => {
    expect(isFinalFailure(new AppError("UNPROCESSABLE", "The PDF has no pages"))).toBe(true);
    expect(isFinalFailure(new AppError("INTERNAL", "database down"))).toBe(false);
    expect(isFinalFailure(new Error("socket hang up"))).toBe(false);
    expect(isFinalFailure(new AppError("UNPROCESSABLE", "model busy", { retryable: true }))).toBe(false);
    const busy = new ProviderError("HTTP 429", { retryable: true, status: 429 });
    expect(isFinalFailure(new AppError("UNPROCESSABLE", "The vision model failed (HTTP 429)", { cause: busy }))).toBe(
      false,
    );
    const refused = new ProviderError("HTTP 400", { retryable: false, status: 400 });
    expect(
      isFinalFailure(new AppError("UNPROCESSABLE", "The vision model failed (HTTP 400)", { cause: refused })),
    ).toBe(true);
  });
});
