"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";

export const ProjectList = () => {
  const trpc = useTRPC();
  const router = useRouter();
  const projects = useQuery(trpc.dashboard.projects.queryOptions());
  const only = projects.data?.length === 1 ? projects.data[0] : undefined;

  // With a single project the list is a needless click; go straight to its sources.
  const onlyId = only?.id;
  useEffect(() => {
    if (onlyId) router.replace(`/${onlyId}/sources`);
  }, [onlyId, router]);

  if (projects.isPending) return <p className="text-sm text-slate-500">Loading projects…</p>;
  if (projects.isError) return <ErrorAlert>Could not load projects: {projects.error.message}</ErrorAlert>;
  if (only) return <p className="text-sm text-slate-500">Opening {only.name}…</p>;

  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Projects</h1>
      {projects.data.length === 0 ? (
        <Card className="p-6 text-sm text-slate-600">
          No projects yet. Create one with{" "}
          <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs">
            npm run quarry -- token create --project &lt;name&gt;
          </code>
          .
        </Card>
      ) : (
        <Card>
          <ul className="divide-y divide-slate-200" aria-label="Projects">
            {projects.data.map((project) => (
              <li key={project.id}>
                <Link
                  href={`/${project.id}/sources`}
                  className="flex items-center justify-between px-5 py-4 hover:bg-slate-50"
                >
                  <span className="font-medium text-slate-900">{project.name}</span>
                  <span className="text-sm text-slate-500">
                    created {new Date(project.createdAt).toLocaleDateString()}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
};
