import type { ReactNode } from "react";
import { cn } from "./cn";

/**
 * Holds a table that may be wider than its card: the table scrolls sideways inside this box instead of widening the
 * page. `min-w-0 max-w-full` keep the box itself from growing in a flex or grid parent; `relative` keeps absolutely
 * placed cells' content (the sr-only "Actions" headers) inside the box, where it is clipped too. The box is a labelled,
 * focusable region so keyboard users can scroll it too.
 */
export const TableScroll = ({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) => (
  <div
    role="region"
    aria-label={label}
    // A scrollable box must be reachable by keyboard (axe: scrollable-region-focusable).
    tabIndex={0}
    className={cn(
      "relative max-w-full min-w-0 overflow-x-auto focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
      className,
    )}
  >
    {children}
  </div>
);
