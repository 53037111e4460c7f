"use client";

import { useState } from "react";
import type { z } from "zod";

/**
 * Form validation with the server's own zod schema: the same rules run in the browser (messages next to the fields)
 * and in the procedure. Returns the parsed values, or null after recording the field errors.
 */
export const useZodForm = <S extends z.ZodType>(schema: S) => {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const validate = (values: unknown): z.infer<S> | null => {
    const result = schema.safeParse(values);
    if (result.success) {
      setErrors({});
      return result.data;
    }
    const next: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? "form");
      next[key] ??= issue.message;
    }
    setErrors(next);
    return null;
  };
  return { errors, validate, setErrors };
};
