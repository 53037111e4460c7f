import type { ReactNode } from "react";
import { cn } from "./cn";

export const Card = ({ children, className, label }: { children: ReactNode; className?: string; label?: string }) => (
  <section aria-label={label} className={cn("rounded-lg border border-border bg-card shadow-sm", className)}>
    {children}
  </section>
);

export const CardHeader = ({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) => (
  <div className="flex flex-wrap items-start justify-between gap-3 border-b border-border px-5 py-4">
    <div>
      <h2 className="text-base font-semibold">{title}</h2>
      {description && <p className="mt-0.5 text-sm text-muted-foreground">{description}</p>}
    </div>
    {actions}
  </div>
);
