"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc-provider";
import { cn } from "@/components/ui/cn";
import { roleAtLeast } from "@/server/teams/teams.schema";

/** The project's name, the caller's role and the screens that role may open. */
export const useProjectNav = (projectId: string) => {
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
  return { name: project.data?.project.name ?? "…", role: project.data?.role, links };
};

const NavLink = ({
  href,
  label,
  active,
  stacked,
}: {
  href: string;
  label: string;
  active: boolean;
  stacked?: boolean;
}) => (
  <Link
    href={href}
    aria-current={active ? "page" : undefined}
    className={cn(
      "text-sm font-medium",
      stacked ? "-ml-px border-l-2 px-3 py-2" : "-mb-px border-b-2 px-3 py-2.5 whitespace-nowrap",
      active ? "border-primary text-foreground" : "border-transparent text-muted-foreground hover:text-foreground",
    )}
  >
    {label}
  </Link>
);

/** The project's screens as a tab bar under the header (laptops), or as a list inside the header's menu (phones). */
export const ProjectNav = ({
  projectId,
  pathname,
  stacked = false,
}: {
  projectId: string;
  pathname: string;
  stacked?: boolean;
}) => {
  const { name, role, links } = useProjectNav(projectId);
  const items = links.map((link) => (
    <NavLink key={link.href} {...link} active={pathname.startsWith(link.href)} stacked={stacked} />
  ));
  const roleText = role && (
    <span className="text-xs text-muted-foreground">
      Your role: <span className="font-medium text-foreground">{role}</span>
    </span>
  );
  if (stacked) {
    return (
      <nav aria-label="Project" className="flex flex-col">
        <div className="mb-1 flex flex-wrap items-baseline justify-between gap-x-3">
          <span className="text-sm font-semibold break-all">{name}</span>
          {roleText}
        </div>
        <div className="flex flex-col border-l border-border">{items}</div>
      </nav>
    );
  }
  return (
    <nav aria-label="Project" className="hidden border-b border-border bg-card md:block">
      <div className="mx-auto flex max-w-7xl items-center gap-1 overflow-x-auto px-6">
        <span className="mr-3 max-w-48 truncate py-2 text-sm font-semibold" title={name}>
          {name}
        </span>
        {items}
        {roleText && <span className="ml-auto whitespace-nowrap">{roleText}</span>}
      </div>
    </nav>
  );
};
