import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import type { BuildStatus } from "../generated/prisma/enums";
import { TIMED_OUT, waitUntilFinal } from "./legacy";

describe("waitUntilFinal", () => {
  const sequence = (...statuses: (BuildStatus | null)[]) => {
    let calls = 0;
    return { status: async () => statuses[Math.min(calls++, statuses.length - 1)] ?? null, calls: () => calls };
  };

  it("polls until the build leaves Pending/Processing", async () => {
    const s = sequence("Pending", "Processing", "Processing", "Completed");
    await expect(waitUntilFinal({ status: s.status, timeoutMs: 5000, firstDelayMs: 1 })).resolves.toBe("Completed");
    expect(s.calls()).toBe(4);
  });

  it("answers 504 with the contract's text when the build outlasts the wait", async () => {
    const started = Date.now();
    const error = await waitUntilFinal({
      status: sequence("Processing").status,
      timeoutMs: 60,
      firstDelayMs: 10,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "TIMEOUT", status: 504, message: TIMED_OUT });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("stops when the client goes away", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const error = await waitUntilFinal({
      status: sequence("Processing").status,
      timeoutMs: 60_000,
      firstDelayMs: 10_000,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "BAD_REQUEST", message: "The request was cancelled" });
  });
});
