"use client";

import type { ReactNode } from "react";
import type { FieldErrors, FieldValues } from "react-hook-form";

/** A config form's frame: read-only for viewers and revisions (a disabled fieldset disables every control). */
export const ConfigFieldset = ({
  label,
  readOnly,
  children,
}: {
  label: string;
  readOnly: boolean;
  children: ReactNode;
}) => (
  <form aria-label={label} onSubmit={(e) => e.preventDefault()} noValidate>
    <fieldset disabled={readOnly} className="space-y-3">
      {children}
    </fieldset>
  </form>
);

/** A message of the schema's cross-field check (its path is empty), if any. */
export const formLevelError = <T extends FieldValues>(errors: FieldErrors<T>) => {
  const all = errors as Record<string, { message?: string } | undefined>;
  return all[""]?.message ?? all.root?.message;
};

export const errorOf = <T extends FieldValues>(errors: FieldErrors<T>, field: string) =>
  (errors as Record<string, { message?: string } | undefined>)[field]?.message;
