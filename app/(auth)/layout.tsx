import type { ReactNode } from "react";

const AuthLayout = ({ children }: { children: ReactNode }) => (
  <main className="flex min-h-screen items-center justify-center px-4 py-12">
    <div className="w-full max-w-sm">
      <p className="mb-6 text-center text-xl font-semibold tracking-tight">Quarry</p>
      <div className="rounded-lg border border-border bg-card p-6 shadow-sm">{children}</div>
    </div>
  </main>
);

export default AuthLayout;
