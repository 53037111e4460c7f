import { db } from "../db";
import { environmentProviders } from "./env-providers";
import type { ServedModel } from "./types";

/**
 * Every model the team can use: what its providers listed at their last test or refresh, then what the environment
 * defines. A model served by two providers appears once per provider, so a picker can say which answers.
 */
export const servedModels = async (teamId: string): Promise<ServedModel[]> => {
  const rows = await db.modelProvider.findMany({
    where: { teamId },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, kind: true, servedModels: true },
  });
  const team = rows.flatMap((row) =>
    row.servedModels.map((model) => ({
      model,
      providerId: row.id,
      providerName: row.name,
      kind: row.kind,
      source: "team" as const,
    })),
  );
  const fromEnvironment = environmentProviders().flatMap((p) =>
    p.servedModels.map((model) => ({
      model,
      providerId: p.id,
      providerName: p.name,
      kind: p.kind,
      source: "environment" as const,
    })),
  );
  return [...team, ...fromEnvironment];
};
