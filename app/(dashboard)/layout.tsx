import type { ReactNode } from "react";
import { AppShell } from "@/components/layout/app-shell";
import { requireSession } from "@/server/auth/session";

const DashboardLayout = async ({ children }: { children: ReactNode }) => {
  const session = await requireSession();
  return <AppShell email={session.user.email}>{children}</AppShell>;
};

export default DashboardLayout;
