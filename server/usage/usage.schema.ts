import { z } from "zod";

/** The usage page's inputs (isomorphic: its forms validate with the schemas the procedures use). */

export const UsageRangeInput = z.object({ days: z.number().int().min(1).max(366).default(30) });

const Price = z
  .number({ error: "Enter a price (0 or more)" })
  .min(0, "A price is 0 or more")
  .max(1_000_000, "At most 1,000,000 per million tokens");

export const ModelPriceInput = z.object({
  model: z.string().trim().min(1, "Name the model").max(200, "At most 200 characters"),
  inputPerMillion: Price,
  outputPerMillion: Price,
});
export type ModelPriceInput = z.infer<typeof ModelPriceInput>;
