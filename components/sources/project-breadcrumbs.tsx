"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";

/** Breadcrumbs: Projects / <project name> / any trailing crumbs. */
export const ProjectBreadcrumbs = ({ projectId, children }: { projectId: string; children?: ReactNode }) => {
  const trpc = useTRPC();
  const projects = useQuery(trpc.dashboard.projects.queryOptions());
  const name = projects.data?.find((p) => p.id === projectId)?.name ?? "Project";
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-500">
      <ol className="flex flex-wrap items-center gap-1.5">
        <li>
          <Link href="/" className="hover:text-slate-800 hover:underline">
            Projects
          </Link>
        </li>
        <li aria-hidden="true">/</li>
        <li>
          <Link href={`/${projectId}/sources`} className="hover:text-slate-800 hover:underline">
            {name}
          </Link>
        </li>
        {children}
      </ol>
    </nav>
  );
};
