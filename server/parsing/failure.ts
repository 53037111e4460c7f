import { AppError } from "@/server/errors";

/**
 * Parse failures in words a person can use. Errors Quarry raises itself (AppError) already say what is wrong; any
 * other error comes from inside a library ("Cannot read properties of undefined (reading 'x')", "bad XRef entry")
 * and says nothing to the person who uploaded the file, so it is replaced by a sentence about the file.
 */

/** What went wrong, for a warning ("Page 3 could not be read (…)") or a build error. */
export const describeFailure = (error: unknown): string => {
  if (error instanceof AppError) return error.message;
  if (typeof error === "string" && !/[{}()[\]]|undefined|null/.test(error)) return error;
  return "its content is damaged or uses a feature Quarry does not read";
};

/** A failure of a whole parse, as the build's error. */
export const asParseFailure = (error: unknown, ext: string): AppError =>
  error instanceof AppError
    ? error
    : new AppError("UNPROCESSABLE", `The .${ext} file could not be parsed: ${describeFailure(error)}`, {
        cause: error,
      });

/**
 * A parse that found nothing at all ends as a failure with its reason, not as a Completed build without elements:
 * the warnings say why (a scan read with fast, blank pages, an empty file).
 */
export const nothingRead = (ext: string, warnings: readonly string[]): AppError => {
  const why = warnings.slice(0, 3).join("; ");
  return new AppError(
    "UNPROCESSABLE",
    why ? `No text could be read from this .${ext} file: ${why}` : `No text could be read from this .${ext} file`,
  );
};
