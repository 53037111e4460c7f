import { z } from "zod";
import type { Prisma } from "@/server/generated/prisma/client";

/**
 * Response schemas for `.output()`. tRPC answers with what the parser returns, and a zod parse builds a new object:
 * keys in the schema's order, undeclared keys stripped, which would change the bytes a client gets. So the value is
 * checked, then passed on untouched. The schemas are strict objects: a key a procedure adds without its schema fails
 * as loudly as a key it drops (a 500, see errors.ts, which the recorded-responses test catches). Open keys are
 * declared where a response genuinely has them (metadata records, structured output).
 */
export const checked = <S extends z.ZodType>(schema: S) =>
  // The schema stays readable on the parser: the OpenAPI test checks the document names the one a procedure uses.
  Object.assign(
    (value: unknown): z.output<S> => {
      schema.parse(value);
      return value as z.output<S>;
    },
    { schema },
  );

/**
 * A Prisma JSON column passed through as it is stored: checked against `schema` at run time, typed as the column's
 * JSON value (the row's type does not know the shape it holds).
 */
export const jsonColumn = (schema: z.ZodType) => z.custom<Prisma.JsonValue>((value) => schema.safeParse(value).success);
