"use client";

import type { ReactNode } from "react";
import type { FieldErrors, FieldValues } from "react-hook-form";

/** A config form's frame, without the fieldset: for a form that shows something to read between its controls. */
export const ConfigForm = ({ label, children }: { label: string; children: ReactNode }) => (
  <form aria-label={label} onSubmit={(e) => e.preventDefault()} noValidate className="space-y-3">
    {children}
  </form>
);

/**
 * A config form's controls, read-only for viewers, revisions and phones (a disabled fieldset disables every control).
 * Keep scrollable text outside it: what a disabled fieldset holds counts as disabled, so it could not take the focus
 * that lets a keyboard scroll it (axe's scrollable-region-focusable).
 */
export const ConfigControls = ({ readOnly, children }: { readOnly: boolean; children: ReactNode }) => (
  <fieldset disabled={readOnly} className="space-y-3">
    {children}
  </fieldset>
);

/** A config form's frame with its controls. */
export const ConfigFieldset = ({
  label,
  readOnly,
  children,
}: {
  label: string;
  readOnly: boolean;
  children: ReactNode;
}) => (
  <ConfigForm label={label}>
    <ConfigControls readOnly={readOnly}>{children}</ConfigControls>
  </ConfigForm>
);

/** A message of the schema's cross-field check (its path is empty), if any. */
export const formLevelError = <T extends FieldValues>(errors: FieldErrors<T>) => {
  const all = errors as Record<string, { message?: string } | undefined>;
  return all[""]?.message ?? all.root?.message;
};

export const errorOf = <T extends FieldValues>(errors: FieldErrors<T>, field: string) =>
  (errors as Record<string, { message?: string } | undefined>)[field]?.message;
