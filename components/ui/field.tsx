import { useId, type ReactElement, type ReactNode } from "react";
import { Label } from "./input";

/**
 * A labelled form control with its validation message. The control gets the id, aria-invalid and
 * aria-describedby through a render function, so it stays an ordinary input/select.
 */
export const Field = ({
  label,
  error,
  hint,
  children,
}: {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  children: (props: { id: string; "aria-invalid": boolean; "aria-describedby"?: string }) => ReactElement;
}) => {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, "aria-invalid": !!error, "aria-describedby": error || hint ? messageId : undefined })}
      {error ? (
        <p id={messageId} className="mt-1 text-xs text-destructive">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="mt-1 text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  );
};
