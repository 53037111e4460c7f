import type { ModelCallCause, ModelCapability } from "./usage.schema";

/** The shapes of server/providers/usage.ts, apart so its database writer can share them without a cycle. */

/** The chat tokens spent inside one context, as they are recorded: a flow's build budget reads it (flows/…/meter.ts). */
export type ChatSpend = { calls: number; tokensIn: number; tokensOut: number };

export type UsageContext = {
  projectId: string;
  cause: ModelCallCause;
  /** What the spend counts against (a flow node index id), when something does. */
  subject?: string;
  spend?: ChatSpend;
};

/** One finished call, as the client saw it. */
export type ModelCallReport = {
  capability: ModelCapability;
  provider: string;
  model: string;
  tokensIn: number;
  tokensOut: number;
  /** The provider said nothing about usage: the tokens are estimated (approxTokens). */
  estimated: boolean;
  latencyMs: number;
  ok: boolean;
  error?: string | null;
};

export type ModelCallRow = ModelCallReport & {
  projectId: string;
  cause: ModelCallCause;
  subject: string | null;
  createdAt: Date;
};
