import type { ReactNode } from "react";
import { cn } from "./cn";

/** An error the user should notice at once: role="alert" makes screen readers announce it. */
export const ErrorAlert = ({ children, className }: { children: ReactNode; className?: string }) => (
  <p
    role="alert"
    className={cn(
      "rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200",
      className,
    )}
  >
    {children}
  </p>
);

export const Notice = ({ children, className }: { children: ReactNode; className?: string }) => (
  <div
    role="status"
    className={cn(
      "rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100",
      className,
    )}
  >
    {children}
  </div>
);
