"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Loading } from "@/components/ui/states";
import type { DetailEntity, GraphEntity, GraphScope } from "./types";

const Chunks = ({ input }: { input: GraphScope & { entityId: string } }) => {
  const trpc = useTRPC();
  const chunks = useQuery(trpc.dashboard.flows.knowledgeGraphEntity.queryOptions(input));
  if (chunks.isPending) return <Loading>Loading its passages…</Loading>;
  if (chunks.isError) return <ErrorAlert>{chunks.error.message}</ErrorAlert>;
  if (!chunks.data.length) return <p className="text-sm text-muted-foreground">No passage mentions it.</p>;
  return (
    <ol
      aria-label="Passages it comes from"
      // A scrollable box must be reachable by keyboard (axe: scrollable-region-focusable).
      tabIndex={0}
      className="max-h-72 space-y-1.5 overflow-auto focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      {chunks.data.map((c) => (
        <li key={c.id} className="rounded-md border border-border px-2.5 py-1.5 text-xs">
          <p className="flex justify-between gap-2 font-medium">
            <span className="min-w-0 truncate">{c.source}</span>
            <span className="shrink-0 text-muted-foreground">
              passage {c.position + 1}
              {c.count > 1 ? `, ${c.count} mentions` : ""}
            </span>
          </p>
          <p className="mt-0.5 line-clamp-4 break-words text-muted-foreground">{c.text}</p>
        </li>
      ))}
    </ol>
  );
};

/**
 * The selected entity: type, description, its community's summary and the passages it was extracted from. An entity
 * found by search that is not on the canvas (`notDrawn`) says so, and why.
 */
export const EntityDetails = ({
  entity,
  community,
  colour,
  neighbours,
  notDrawn,
  scope,
  onPick,
  onClose,
}: {
  entity: DetailEntity;
  community: { title: string; summary: string } | undefined;
  colour: string;
  neighbours: GraphEntity[];
  notDrawn?: string;
  scope: GraphScope;
  onPick: (id: string) => void;
  onClose: () => void;
}) => (
  <section aria-label="Selected entity" className="space-y-3 rounded-lg border border-border bg-card p-4 shadow-sm">
    <div className="flex items-start justify-between gap-2">
      <div className="min-w-0">
        <h2 className="text-base font-semibold break-words">{entity.name}</h2>
        <p className="mt-1 flex flex-wrap gap-1.5">
          <Badge tone="info">{entity.type}</Badge>
          <Badge>
            {entity.degree} relationship{entity.degree === 1 ? "" : "s"}
          </Badge>
          <Badge>
            {entity.mentions} passage{entity.mentions === 1 ? "" : "s"}
          </Badge>
        </p>
      </div>
      <Button variant="ghost" size="sm" onClick={onClose}>
        Close
      </Button>
    </div>
    {notDrawn && (
      <p role="note" className="rounded-md border border-border bg-muted px-2.5 py-1.5 text-xs">
        {notDrawn}
      </p>
    )}
    <p className="text-sm break-words">{entity.description || "No description was extracted."}</p>
    <div>
      <h3 className="text-xs font-semibold text-muted-foreground uppercase">Community</h3>
      {community ? (
        <div className="mt-1 text-sm">
          <p className="flex items-center gap-2 font-medium">
            <span aria-hidden="true" className="size-2.5 shrink-0 rounded-full" style={{ background: colour }} />
            {community.title}
          </p>
          <p className="mt-0.5 break-words text-muted-foreground">{community.summary || "Not summarised."}</p>
        </div>
      ) : (
        <p className="mt-1 text-sm text-muted-foreground">It belongs to no community.</p>
      )}
    </div>
    {neighbours.length > 0 && (
      <div>
        <h3 className="text-xs font-semibold text-muted-foreground uppercase">Related entities</h3>
        <ul aria-label="Related entities" className="mt-1 flex flex-wrap gap-1">
          {neighbours.slice(0, 12).map((n) => (
            <li key={n.id}>
              <button
                type="button"
                onClick={() => onPick(n.id)}
                className="max-w-48 truncate rounded-full border border-border px-2 py-0.5 text-xs hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
              >
                {n.name}
              </button>
            </li>
          ))}
        </ul>
      </div>
    )}
    <div>
      <h3 className="mb-1 text-xs font-semibold text-muted-foreground uppercase">Where it comes from</h3>
      <Chunks input={{ ...scope, entityId: entity.id }} />
    </div>
  </section>
);
