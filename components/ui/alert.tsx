import type { ReactNode } from "react";

/** An error the user should notice at once: role="alert" makes screen readers announce it. */
export const ErrorAlert = ({ children }: { children: ReactNode }) => (
  <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
    {children}
  </p>
);
