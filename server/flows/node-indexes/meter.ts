import { AppError } from "../../errors";
import type { ChatModel } from "../../providers/chat";
import type { ChatSpend } from "../../providers/usage";
import type { Spend } from "../../index-builders/types";

/**
 * A chat model that refuses a call once the flow's build budget is spent. It counts nothing itself: what is spent is
 * what usage records (server/providers/usage.ts: the server's usage, or an estimate of 4 characters a token when the
 * server reports none), read back from `model_calls` when the step starts (`start`) plus the calls recorded during
 * the step (`step`, the usage context's running count).
 */

export class BudgetReachedError extends AppError {
  constructor(budget: number, spent: number) {
    super(
      "CONFLICT",
      `the flow's token budget of ${budget.toLocaleString("en-US")} tokens is reached ` +
        `(${spent.toLocaleString("en-US")} spent); what was built is kept, so a larger budget and a new deploy resume it`,
    );
  }
}

export type Meter = { model: ChatModel; spent: () => Spend };

export const meteredModel = (model: ChatModel, budget: number, start: Spend, step: ChatSpend): Meter => {
  const spent = () => ({
    calls: start.calls + step.calls,
    tokensIn: start.tokensIn + step.tokensIn,
    tokensOut: start.tokensOut + step.tokensOut,
  });
  const check = () => {
    const { tokensIn, tokensOut } = spent();
    if (tokensIn + tokensOut >= budget) throw new BudgetReachedError(budget, tokensIn + tokensOut);
  };
  return {
    spent,
    model: {
      ...model,
      generate: async (options) => {
        check();
        return model.generate(options);
      },
      stream: async function* (options) {
        check();
        yield* model.stream(options);
      },
    },
  };
};
