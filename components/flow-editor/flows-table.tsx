"use client";

import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import type { AppRouter } from "@/server/trpc/root";
import { FlowStatusBadge } from "./flow-status";
import { TableScroll } from "@/components/ui/table-scroll";

type FlowRow = inferRouterOutputs<AppRouter>["dashboard"]["flows"]["list"][number];

/** The project's flows with status and serving revision; each can be exported, and members duplicate and delete. */
export const FlowsTable = ({
  projectId,
  flows,
  canEdit,
  onExport,
  onDuplicate,
  onDelete,
}: {
  projectId: string;
  flows: FlowRow[];
  canEdit: boolean;
  onExport: (name: string) => void;
  onDuplicate: (name: string) => void;
  onDelete: (name: string) => void;
}) => (
  <TableScroll label="Flows table">
    <table aria-label="Flows" className="min-w-full text-left text-sm">
      <thead className="border-b border-border bg-muted text-xs font-medium tracking-wide text-muted-foreground uppercase">
        <tr>
          <th scope="col" className="px-5 py-2">
            Name
          </th>
          <th scope="col" className="px-3 py-2">
            Status
          </th>
          <th scope="col" className="px-3 py-2">
            Serving
          </th>
          <th scope="col" className="px-3 py-2">
            Nodes
          </th>
          <th scope="col" className="px-3 py-2">
            Edited
          </th>
          <th scope="col" className="px-5 py-2">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-border">
        {flows.map((f) => (
          <tr key={f.name}>
            <td className="px-5 py-2">
              <Link href={`/${projectId}/flows/${f.name}`} className="font-medium text-link hover:underline">
                {f.name}
              </Link>
              {f.description && <p className="text-xs text-muted-foreground">{f.description}</p>}
            </td>
            <td className="px-3 py-2">
              <FlowStatusBadge status={f.status} />
            </td>
            <td className="px-3 py-2 whitespace-nowrap">
              {f.deployedRevision ? `revision ${f.deployedRevision}` : "—"}
            </td>
            <td className="px-3 py-2 tabular-nums">{f.nodes}</td>
            <td className="px-3 py-2 whitespace-nowrap">{new Date(f.updatedAt).toLocaleString()}</td>
            <td className="px-5 py-2 text-right whitespace-nowrap">
              <Button variant="ghost" size="sm" aria-label={`Export ${f.name}`} onClick={() => onExport(f.name)}>
                Export
              </Button>
              {canEdit && (
                <>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Duplicate ${f.name}`}
                    onClick={() => onDuplicate(f.name)}
                  >
                    Duplicate
                  </Button>
                  <Button variant="ghost" size="sm" aria-label={`Delete ${f.name}`} onClick={() => onDelete(f.name)}>
                    Delete
                  </Button>
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  </TableScroll>
);
