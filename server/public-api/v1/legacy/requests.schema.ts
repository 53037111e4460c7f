import { z } from "zod";
import { LEGACY_LISTED_METHODS, normalizeLegacyMethod, type InternalMethod } from "@/server/parsing/methods.schema";
import { PAGE, PAGE_SIZE, queryArray } from "../query";

/** Request shapes of the earlier (legacy) sources endpoints (contract §6), with the contract's texts. */

/**
 * A legacy `partition_method`: the legacy names, the v2 names (old clients mixed them) and `vlm`, which the
 * official client offered for a while as the v2 name of `mai` (contract §11.11). Normalised to the internal name.
 */
export const LEGACY_METHOD = z
  .unknown()
  .optional()
  .transform((v, ctx): InternalMethod | undefined => {
    if (v === undefined || v === null) return undefined;
    const method = typeof v === "string" ? (v === "vlm" ? "mai" : normalizeLegacyMethod(v)) : null;
    if (method) return method;
    ctx.addIssue({
      code: "custom",
      message: `Invalid partition_method '${String(v)}'. Valid values: ${LEGACY_LISTED_METHODS.join(", ")}`,
    });
    return z.NEVER;
  });

export const LegacyUploadFields = z.object({ partition_method: LEGACY_METHOD });

const SOURCE_REQUIRED = "Invalid input: file_id or file_name is required";

/** `file_id` is preferred; `file_name` is the deprecated fallback (ambiguous names are refused later). */
const sourceRef = {
  file_id: z.string({ error: "file_id must be a string" }).nullish(),
  file_name: z.string({ error: "file_name must be a string" }).nullish(),
};
const hasSourceRef = (v: { file_id?: string | null; file_name?: string | null }) =>
  Boolean(v.file_id?.trim() || v.file_name?.trim());

/** Old clients send `null` for filters they do not use. */
const nullAsMissing = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === null ? undefined : v), schema);

/** The route hands the request's abort signal along, so a client that gives up stops the wait. */
const signal = z.custom<AbortSignal>((v) => v instanceof AbortSignal).optional();

export const LegacyProcessInput = z
  .object({ ...sourceRef, partition_method: LEGACY_METHOD, signal })
  .refine(hasSourceRef, { message: SOURCE_REQUIRED });

export const LegacyElementsInput = z
  .object({
    ...sourceRef,
    page: PAGE,
    page_size: PAGE_SIZE,
    filter: z
      .object(
        {
          type: z.string({ error: "filter.type must be a string" }).nullish(),
          page_numbers: nullAsMissing(
            queryArray(
              z.coerce
                .number({ error: "page_numbers must be integers" })
                .int({ error: "page_numbers must be integers" }),
            ),
          ),
          elementsToRemove: nullAsMissing(queryArray(z.string({ error: "elementsToRemove must be strings" }))),
        },
        { error: "filter must be an object" },
      )
      .nullish(),
  })
  .refine(hasSourceRef, { message: SOURCE_REQUIRED });

export type LegacyElementsInput = z.infer<typeof LegacyElementsInput>;

/** An integer from a path or query string ("" counts as missing); anything else is refused with `message`. */
const integerParam = <T extends z.ZodType>(toInteger: (message: string) => T, message: string) =>
  z.preprocess((v) => {
    const one = Array.isArray(v) ? v[0] : v;
    if (one === undefined || one === "") return undefined;
    return typeof one === "string" && /^[+-]?\d{1,9}$/.test(one.trim()) ? Number(one) : one;
  }, toInteger(message));
const integer = (message: string) => z.number({ error: message }).int({ error: message });

/**
 * GET /{file_id}/pages/{page_number}/screenshot (contract §5.11; it lives here with the legacy shapes it came with).
 * A page number that is not an integer is a malformed request (400); an integer below 1 is a page that does not
 * exist (404, like one past the end). `max_width` out of range is clamped, not refused.
 */
export const ScreenshotInput = z.object({
  file_id: z.string(),
  page_number: integerParam(integer, "page_number must be an integer"),
  max_width: integerParam((m) => integer(m).optional(), "max_width must be an integer"),
});
