"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import type { ReactNode } from "react";
import { signOut } from "@/components/auth/auth-client";
import { useTRPC } from "@/components/providers/trpc-provider";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Select } from "@/components/ui/input";
import { HeaderMenu } from "./header-menu";
import { ProjectNav } from "./project-nav";
import { ThemeToggle } from "./theme-toggle";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The project in the URL (/<projectId>/...), if any. */
const projectIdOf = (pathname: string) => {
  const first = pathname.split("/")[1] ?? "";
  return UUID.test(first) ? first : null;
};

const ProjectSwitcher = ({ projectId, className }: { projectId: string | null; className?: string }) => {
  const trpc = useTRPC();
  const router = useRouter();
  const me = useQuery(trpc.dashboard.account.me.queryOptions());
  const teams = me.data?.teams ?? [];
  return (
    <Select
      aria-label="Project"
      value={projectId ?? ""}
      onChange={(e) => router.push(e.target.value ? `/${e.target.value}/sources` : "/")}
      className={cn("h-8 text-sm", className)}
    >
      <option value="">All projects</option>
      {teams.map((team) => (
        <optgroup key={team.id} label={team.name}>
          {team.projects.map((p) => (
            // A project being deleted cannot be opened from here; its settings (the progress) stay at their URL.
            <option key={p.id} value={p.id} disabled={p.deleting && p.id !== projectId}>
              {p.deleting ? `${p.name} (${p.deletionFailed ? "Deletion failed" : "Deleting…"})` : p.name}
            </option>
          ))}
        </optgroup>
      ))}
    </Select>
  );
};

const SignOut = () => (
  <Button
    variant="ghost"
    size="sm"
    // A full load drops every cached answer of the signed-out user.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    onClick={() => signOut().finally(() => window.location.assign("/sign-in"))}
  >
    Sign out
  </Button>
);

/** Everything the header holds on a laptop, stacked in the menu's panel on a phone. */
const MenuPanel = ({ email, projectId, pathname }: { email: string; projectId: string | null; pathname: string }) => (
  <>
    <ProjectSwitcher projectId={projectId} className="w-full" />
    {projectId && <ProjectNav projectId={projectId} pathname={pathname} stacked />}
    <div className="flex flex-wrap items-center gap-3 border-t border-border pt-4">
      <Link
        href="/account"
        className="min-w-0 text-sm break-all text-muted-foreground hover:text-link hover:underline"
        aria-label={`Account of ${email}`}
      >
        {email}
      </Link>
      <ThemeToggle />
      <SignOut />
    </div>
  </>
);

export const AppShell = ({ email, children }: { email: string; children: ReactNode }) => {
  const pathname = usePathname();
  const projectId = projectIdOf(pathname);
  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50">
        Skip to content
      </a>
      <header className="relative border-b border-border bg-card">
        <div className="mx-auto flex min-h-14 max-w-7xl items-center gap-3 px-4 py-2 sm:px-6">
          <Link href="/" className="text-lg font-semibold tracking-tight hover:text-link">
            Quarry
          </Link>
          <div className="hidden min-w-0 flex-1 items-center gap-3 md:flex">
            {/* As wide as the longest project name, up to 20 rem (28 rem on a laptop, where a name with its deletion
                state still reads whole), so the chosen name reads whole. */}
            <ProjectSwitcher projectId={projectId} className="w-auto max-w-xs min-w-40 lg:max-w-md" />
            <div className="ml-auto flex min-w-0 items-center gap-3">
              <ThemeToggle />
              <Link
                href="/account"
                className="truncate text-sm text-muted-foreground hover:text-link hover:underline"
                aria-label={`Account of ${email}`}
              >
                {email}
              </Link>
              <SignOut />
            </div>
          </div>
          <div className="ml-auto md:hidden">
            <HeaderMenu pathname={pathname}>
              <MenuPanel email={email} projectId={projectId} pathname={pathname} />
            </HeaderMenu>
          </div>
        </div>
      </header>
      {projectId && <ProjectNav projectId={projectId} pathname={pathname} />}
      <main id="main" className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8">
        {children}
      </main>
    </div>
  );
};
