import type { ReactNode } from "react";
import { cn } from "./cn";

/** Loading, empty and error states, so every list and page says what is going on in the same way. */

export const Spinner = ({ className }: { className?: string }) => (
  <span
    aria-hidden="true"
    className={cn(
      "inline-block size-4 animate-spin rounded-full border-2 border-current border-r-transparent",
      className,
    )}
  />
);

export const Loading = ({ children = "Loading…" }: { children?: ReactNode }) => (
  <p role="status" className="flex items-center gap-2 px-5 py-6 text-sm text-muted-foreground">
    <Spinner /> {children}
  </p>
);

export const EmptyState = ({ title, children }: { title: ReactNode; children?: ReactNode }) => (
  <div className="px-5 py-10 text-center">
    <p className="text-sm font-medium text-foreground">{title}</p>
    {children && <div className="mt-1 text-sm text-muted-foreground">{children}</div>}
  </div>
);

export const Skeleton = ({ className }: { className?: string }) => (
  <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-muted", className)} />
);
