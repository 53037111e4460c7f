import { z } from "zod";

/**
 * Query-string coercion shared by the public schemas (contract §0): repeated keys or one comma-separated value
 * for arrays; true/false/1/0 for booleans; integers with the contract's range messages.
 */

const asList = (value: unknown): unknown =>
  value === undefined
    ? undefined
    : (Array.isArray(value) ? value : [value]).flatMap((v) =>
        typeof v === "string"
          ? v
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean)
          : [v],
      );

export const queryArray = <T extends z.ZodType>(item: T) => z.preprocess(asList, z.array(item).optional());

export const queryBool = (name: string) =>
  z.preprocess(
    (v) => {
      const one = Array.isArray(v) ? v[0] : v;
      if (one === undefined || typeof one === "boolean") return one;
      const s = String(one).toLowerCase();
      return s === "true" || s === "1" ? true : s === "false" || s === "0" ? false : one;
    },
    z.boolean({ error: `${name} must be true or false` }).optional(),
  );

export const queryInt = (name: string, { min, max, message }: { min: number; max?: number; message: string }) =>
  z.preprocess(
    (v) => {
      const one = Array.isArray(v) ? v[0] : v;
      if (one === undefined || one === null || one === "") return undefined;
      return typeof one === "string" && /^-?\d+$/.test(one.trim()) ? Number(one) : one;
    },
    z
      .number({ error: message })
      .int({ error: message })
      .min(min, { error: message })
      .max(max ?? Number.MAX_SAFE_INTEGER, { error: message })
      .optional(),
  );

export const PAGE = queryInt("page", { min: 1, message: "page must be a positive integer" });
export const PAGE_SIZE = queryInt("page_size", { min: 1, max: 100, message: "page_size must be between 1 and 100" });

/** A required, non-empty string with one message for "missing", "wrong type" and "empty". */
export const requiredString = (message: string) =>
  z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.string({ error: message }).min(1, { error: message }));
