import type { ReactNode } from "react";
import { AppShell } from "@/components/layout/app-shell";
import { ToastProvider } from "@/components/ui/toast";
import { requireSession } from "@/server/auth/session";

const DashboardLayout = async ({ children }: { children: ReactNode }) => {
  const session = await requireSession();
  return (
    <ToastProvider>
      <AppShell email={session.user.email}>{children}</AppShell>
    </ToastProvider>
  );
};

export default DashboardLayout;
