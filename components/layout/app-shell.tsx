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
import { roleAtLeast } from "@/server/teams/teams.schema";
import { ThemeToggle } from "./theme-toggle";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The project in the URL (/<projectId>/...), if any. */
const projectIdOf = (pathname: string) => {
  const first = pathname.split("/")[1] ?? "";
  return UUID.test(first) ? first : null;
};

const ProjectSwitcher = ({ projectId }: { projectId: string | null }) => {
  const trpc = useTRPC();
  const router = useRouter();
  const me = useQuery(trpc.dashboard.account.me.queryOptions());
  const teams = me.data?.teams ?? [];
  return (
    <Select
      aria-label="Project"
      value={projectId ?? ""}
      onChange={(e) => router.push(e.target.value ? `/${e.target.value}/sources` : "/")}
      className="h-8 w-36 text-sm sm:w-52"
    >
      <option value="">All projects</option>
      {teams.map((team) => (
        <optgroup key={team.id} label={team.name}>
          {team.projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </optgroup>
      ))}
    </Select>
  );
};

const ProjectNav = ({ projectId, pathname }: { projectId: string; pathname: string }) => {
  const trpc = useTRPC();
  const project = useQuery(trpc.dashboard.projects.get.queryOptions({ projectId }));
  const isAdmin = project.data ? roleAtLeast(project.data.role, "admin") : false;
  const isMember = project.data ? roleAtLeast(project.data.role, "member") : false;
  const links = [
    { href: `/${projectId}/sources`, label: "Sources" },
    { href: `/${projectId}/search`, label: "Search" },
    { href: `/${projectId}/chat`, label: "Chat" },
    { href: `/${projectId}/flows`, label: "Flows" },
    ...(isMember ? [{ href: `/${projectId}/usage`, label: "Usage" }] : []),
    { href: `/${projectId}/settings/models`, label: "Models" },
    ...(isAdmin ? [{ href: `/${projectId}/settings/api-tokens`, label: "API tokens" }] : []),
    ...(isAdmin ? [{ href: `/${projectId}/settings/webhooks`, label: "Webhooks" }] : []),
    ...(isAdmin ? [{ href: `/${projectId}/settings/general`, label: "Settings" }] : []),
  ];
  return (
    <nav aria-label="Project" className="border-b border-border bg-card">
      <div className="mx-auto flex max-w-7xl items-center gap-1 overflow-x-auto px-6">
        <span className="mr-3 py-2 text-sm font-semibold">{project.data?.project.name ?? "…"}</span>
        {links.map((link) => {
          const active = pathname.startsWith(link.href);
          return (
            <Link
              key={link.href}
              href={link.href}
              aria-current={active ? "page" : undefined}
              className={cn(
                "-mb-px border-b-2 px-3 py-2.5 text-sm font-medium",
                active
                  ? "border-primary text-foreground"
                  : "border-transparent text-muted-foreground hover:text-foreground",
              )}
            >
              {link.label}
            </Link>
          );
        })}
        {project.data && (
          <span className="ml-auto text-xs text-muted-foreground">
            Your role: <span className="font-medium text-foreground">{project.data.role}</span>
          </span>
        )}
      </div>
    </nav>
  );
};

export const AppShell = ({ email, children }: { email: string; children: ReactNode }) => {
  const pathname = usePathname();
  const projectId = projectIdOf(pathname);
  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50">
        Skip to content
      </a>
      <header className="border-b border-border bg-card">
        <div className="mx-auto flex min-h-14 max-w-7xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 sm:px-6">
          <Link href="/" className="text-lg font-semibold tracking-tight hover:text-link">
            Quarry
          </Link>
          <ProjectSwitcher projectId={projectId} />
          <div className="ml-auto flex items-center gap-3">
            <ThemeToggle />
            <Link
              href="/account"
              className="hidden text-sm text-muted-foreground hover:text-link hover:underline sm:inline"
              aria-label={`Account of ${email}`}
            >
              {email}
            </Link>
            <Link href="/account" className="text-sm text-muted-foreground hover:text-link sm:hidden">
              Account
            </Link>
            <Button
              variant="ghost"
              size="sm"
              // A full load drops every cached answer of the signed-out user.
              // eslint-disable-next-line @next/next/no-location-assign-relative-destination
              onClick={() => signOut().finally(() => window.location.assign("/sign-in"))}
            >
              Sign out
            </Button>
          </div>
        </div>
      </header>
      {projectId && <ProjectNav projectId={projectId} pathname={pathname} />}
      <main id="main" className="mx-auto max-w-7xl px-6 py-8">
        {children}
      </main>
    </div>
  );
};
