import { AppError } from "../../errors";
import type { ChatModel, ChatUsage, GenerateOptions } from "../../providers/chat";
import type { Spend } from "../../index-builders/types";

/**
 * A chat model that counts what it spends and refuses a call once the budget is spent. Tokens are the server's
 * usage; a server that reports none is charged an estimate (4 characters a token) so the budget still holds.
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

const approxTokens = (text: string) => Math.ceil(text.length / 4);

const promptChars = (options: GenerateOptions) =>
  options.messages
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? p.text : "")).join("")))
    .join("\n");

export type Meter = { model: ChatModel; spent: () => Spend };

export const meteredModel = (model: ChatModel, budget: number, start: Spend): Meter => {
  const spend = { ...start };
  const total = () => spend.tokensIn + spend.tokensOut;
  const charge = (options: GenerateOptions, usage: ChatUsage, reply: string) => {
    spend.calls += 1;
    spend.tokensIn += usage.tokensIn || approxTokens(promptChars(options));
    spend.tokensOut += usage.tokensOut || approxTokens(reply);
  };
  const check = () => {
    if (total() >= budget) throw new BudgetReachedError(budget, total());
  };
  return {
    spent: () => ({ ...spend }),
    model: {
      ...model,
      generate: async (options) => {
        check();
        const result = await model.generate(options);
        charge(options, result.usage, result.text);
        return result;
      },
      stream: async function* (options) {
        check();
        let text = "";
        for await (const part of model.stream(options)) {
          if (part.type === "text") text += part.text;
          else charge(options, part.usage, text);
          yield part;
        }
      },
    },
  };
};
