import { describe, expect, it } from "vitest";
import { stepBudgetMs, withinBudget } from "./step-budget";

describe("withinBudget", () => {
  it("hands back what a step returns within the budget", async () => {
    await expect(withinBudget("chunk", async () => 42, 1000)).resolves.toBe(42);
  });

  it("fails a step that never ends with a sentence naming it", async () => {
    const never = new Promise<never>(() => undefined);
    await expect(withinBudget("embed", () => never, 50)).rejects.toMatchObject({
      code: "UNPROCESSABLE",
      message: "Building ran out of time after 0 s (QUARRY_PARSE_TIMEOUT_S) while embedding the chunks",
    });
  });

  it("gives a larger document more time, and an empty one the base budget", () => {
    expect(stepBudgetMs(0, 1_800_000)).toBe(1_800_000);
    expect(stepBudgetMs(318_000, 1_800_000)).toBe(1_800_000 + 3_180_000);
  });
});
