import { z } from "zod";

/** Field builders whose failures carry the contract's exact sentences (§7.4). Isomorphic. */

export const enumField = <const T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, {
    error: (issue) => `Invalid ${field} '${String(issue.input)}'. Valid values: ${values.join(", ")}`,
  });

/** A number in [min, max] (integers only with `int`); every failure says the same sentence. */
export const rangeField = (
  message: string,
  { min, max, int = false }: { min?: number; max?: number; int?: boolean },
) => {
  let schema = z.number({ error: message });
  if (int) schema = schema.int({ error: message });
  if (min !== undefined) schema = schema.min(min, { error: message });
  if (max !== undefined) schema = schema.max(max, { error: message });
  return schema;
};

export const POSITIVE_TOP_K = "topK must be a positive integer or null";
export const positiveTopK = () => rangeField(POSITIVE_TOP_K, { min: 1, int: true }).nullable();
