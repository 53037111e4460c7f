import type pg from "pg";
import type { Prisma } from "../generated/prisma/client";
import { searchQuery } from "../retrieval/search-pool";

/** A value as an SQL literal for EXECUTE (the prepared statement's parameter types apply to it). */
const literal = (client: pg.Client, value: unknown): string =>
  Array.isArray(value)
    ? client.escapeLiteral(`{${value.map((v) => `"${String(v).replace(/[\\"]/g, "\\$&")}"`).join(",")}}`)
    : typeof value === "number"
      ? String(value)
      : client.escapeLiteral(String(value));

/**
 * EXPLAIN of a search statement prepared on this connection, as runSearch prepares it (run once first): the plan the
 * connection's `plan_cache_mode` gives it, not that of the same text sent with its values.
 */
export const explainPrepared = async (client: pg.Client, sql: Prisma.Sql, options = "COSTS OFF") => {
  const query = searchQuery(sql, true);
  await client.query(query);
  const args = sql.values.map((value) => literal(client, value)).join(", ");
  const rows = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (${options}) EXECUTE ${query.name}(${args})`);
  return rows.rows.map((r) => r["QUERY PLAN"]).join("\n");
};
