import { db } from "../db";
import { NO_SPEND, type Spend } from "../index-builders/types";
import type { ModelCallCause, ModelCapability } from "../providers/usage.schema";
import type { ModelPriceInput } from "./usage.schema";

/**
 * A project's model usage as the usage page shows it (totals by day, by model and by cause, with cost where the
 * team entered a price), the team's prices, and the chat spend recorded against one subject (a flow's build budget).
 * Everything reads `model_calls`, which the provider clients write (server/providers/usage.ts).
 */

export type UsageTotals = {
  calls: number;
  errors: number;
  tokensIn: number;
  tokensOut: number;
  /** Calls whose provider reported no usage: their tokens are estimated. */
  estimatedCalls: number;
  avgLatencyMs: number;
  /** From the prices of the models that have one; null when none has. */
  cost: number | null;
};

type Group = {
  day: Date;
  cause: ModelCallCause;
  model: string;
  capability: ModelCapability;
  calls: bigint;
  errors: bigint;
  tokens_in: bigint;
  tokens_out: bigint;
  estimated: bigint;
  latency_ms: bigint;
};

type Price = { inputPerMillion: number; outputPerMillion: number };

const empty = (): UsageTotals & { latencySum: number } => ({
  calls: 0,
  errors: 0,
  tokensIn: 0,
  tokensOut: 0,
  estimatedCalls: 0,
  avgLatencyMs: 0,
  cost: null,
  latencySum: 0,
});

const add = (into: ReturnType<typeof empty>, g: Group, price: Price | undefined) => {
  into.calls += Number(g.calls);
  into.errors += Number(g.errors);
  into.tokensIn += Number(g.tokens_in);
  into.tokensOut += Number(g.tokens_out);
  into.estimatedCalls += Number(g.estimated);
  into.latencySum += Number(g.latency_ms);
  if (price) {
    const cost = (Number(g.tokens_in) * price.inputPerMillion + Number(g.tokens_out) * price.outputPerMillion) / 1e6;
    into.cost = (into.cost ?? 0) + cost;
  }
};

const finish = ({ latencySum, ...t }: ReturnType<typeof empty>): UsageTotals => ({
  ...t,
  avgLatencyMs: t.calls ? Math.round(latencySum / t.calls) : 0,
});

/** Totals per key of `keyOf`, in first-seen order (the query sorts by day). */
const rollUp = <K extends string>(groups: Group[], prices: Map<string, Price>, keyOf: (g: Group) => K) => {
  const out = new Map<K, ReturnType<typeof empty>>();
  for (const g of groups) {
    const key = keyOf(g);
    if (!out.has(key)) out.set(key, empty());
    add(out.get(key)!, g, prices.get(g.model));
  }
  return [...out].map(([key, totals]) => [key, finish(totals)] as const);
};

export const teamPrices = async (teamId: string) =>
  db.modelPrice.findMany({ where: { teamId }, orderBy: { model: "asc" } });

/** Usage of the last `days` days (UTC days, today included). */
export const projectUsage = async ({
  projectId,
  teamId,
  days,
}: {
  projectId: string;
  teamId: string;
  days: number;
}) => {
  const since = new Date();
  since.setUTCHours(0, 0, 0, 0);
  since.setUTCDate(since.getUTCDate() - (days - 1));
  const groups = await db.$queryRaw<Group[]>`
    SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, cause, model, capability,
      count(*) AS calls, count(*) FILTER (WHERE NOT ok) AS errors, sum(tokens_in) AS tokens_in,
      sum(tokens_out) AS tokens_out, count(*) FILTER (WHERE estimated) AS estimated, sum(latency_ms) AS latency_ms
    FROM model_calls
    WHERE project_id = ${projectId}::uuid AND created_at >= ${since}
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 3`;
  const priceRows = await teamPrices(teamId);
  const prices = new Map(priceRows.map((p) => [p.model, p]));
  const byModel = rollUp(groups, prices, (g) => `${g.model}\u0000${g.capability}`).map(([key, t]) => {
    const [model, capability] = key.split("\u0000") as [string, ModelCapability];
    return { model, capability, priced: prices.has(model), ...t };
  });
  return {
    since: since.toISOString(),
    days,
    totals: rollUp(groups, prices, () => "all")[0]?.[1] ?? finish(empty()),
    byDay: rollUp(groups, prices, (g) => g.day.toISOString().slice(0, 10)).map(([day, t]) => ({ day, ...t })),
    byModel: byModel.sort((a, b) => b.tokensIn + b.tokensOut - (a.tokensIn + a.tokensOut)),
    byCause: rollUp(groups, prices, (g) => g.cause)
      .map(([cause, t]) => ({ cause, ...t }))
      .sort((a, b) => b.calls - a.calls),
    prices: priceRows.map((p) => ({
      model: p.model,
      inputPerMillion: p.inputPerMillion,
      outputPerMillion: p.outputPerMillion,
    })),
  };
};

export const setModelPrice = async (teamId: string, price: ModelPriceInput) => {
  const data = { inputPerMillion: price.inputPerMillion, outputPerMillion: price.outputPerMillion };
  await db.modelPrice.upsert({
    where: { teamId_model: { teamId, model: price.model } },
    create: { teamId, model: price.model, ...data },
    update: data,
  });
  return { model: price.model, ...data };
};

/** Whether there was a price to remove. */
export const removeModelPrice = async (teamId: string, model: string) =>
  (await db.modelPrice.deleteMany({ where: { teamId, model } })).count > 0;

/**
 * Chat spend recorded against a subject (a flow node index); null when nothing was recorded for it (an index whose
 * build began before calls were recorded keeps its own count).
 */
export const recordedChatSpend = async (projectId: string, subject: string): Promise<Spend | null> => {
  const sums = await db.modelCall.aggregate({
    where: { projectId, subject, capability: "chat" },
    _count: { _all: true },
    _sum: { tokensIn: true, tokensOut: true },
  });
  if (!sums._count._all) return null;
  return {
    ...NO_SPEND,
    calls: sums._count._all,
    tokensIn: sums._sum.tokensIn ?? 0,
    tokensOut: sums._sum.tokensOut ?? 0,
  };
};
