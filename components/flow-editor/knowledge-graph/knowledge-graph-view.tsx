"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { EmptyState, Loading } from "@/components/ui/states";
import { communityColours, NO_COMMUNITY } from "./colours";
import { CommunityList } from "./community-list";
import { EntityDetails } from "./entity-details";
import { EntitySearch } from "./entity-search";
import { GraphCanvas } from "./graph-canvas";
import type { GraphData } from "./types";

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

const NOT_READY: Record<Exclude<GraphData["state"], "ready">, { title: string; text: string }> = {
  "not-deployed": {
    title: "This graph has not been built",
    text: "Deploy the flow: the deploy builds the node's knowledge graph from its documents.",
  },
  building: { title: "The graph is being built", text: "It appears here when the deploy has finished." },
  failed: { title: "The graph could not be built", text: "Deploy the flow again to rebuild it." },
};

const Summary = ({ data }: { data: GraphData }) => (
  <p className="text-sm text-muted-foreground">
    {data.entities.length < data.totals.entities
      ? `The ${count(data.entities.length, "most connected entity", "most connected entities")} of ${data.totals.entities.toLocaleString("en-US")}`
      : count(data.totals.entities, "entity", "entities")}
    {" · "}
    {count(data.totals.relationships, "relationship", "relationships")}
    {" · "}
    {count(data.totals.communities, "community", "communities")}
  </p>
);

const ReadyGraph = ({ data, scope }: { data: GraphData; scope: { projectId: string; flow: string; node: string } }) => {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const colours = useMemo(() => communityColours(data.communities.map((c) => c.id)), [data]);
  const byId = useMemo(() => new Map(data.entities.map((e) => [e.id, e])), [data]);
  const selected = selectedId ? byId.get(selectedId) : undefined;
  const neighbours = useMemo(() => {
    if (!selectedId) return [];
    const ids = data.relationships.flatMap((r) =>
      r.source === selectedId ? [r.target] : r.target === selectedId ? [r.source] : [],
    );
    return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []).sort((a, b) => b.degree - a.degree);
  }, [data, byId, selectedId]);
  if (!data.entities.length)
    return <EmptyState title="The graph is empty">No entities were found in the node&apos;s documents.</EmptyState>;
  const community = data.communities.find((c) => c.id === selected?.communityId);
  return (
    <div className="grid min-w-0 gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="min-w-0 space-y-2">
        <div className="rounded-lg border border-border bg-card p-1 shadow-sm">
          <GraphCanvas data={data} colours={colours} selectedId={selectedId} onSelect={setSelectedId} />
        </div>
        <p className="text-xs text-muted-foreground">
          Colour: community · size: relationships · hover an entity to see its neighbours, click it for its details.
        </p>
      </div>
      <div className="min-w-0 space-y-4">
        <EntitySearch entities={data.entities} onPick={setSelectedId} />
        {selected && (
          <EntityDetails
            entity={selected}
            community={community}
            colour={(selected.communityId && colours.get(selected.communityId)) || NO_COMMUNITY}
            neighbours={neighbours}
            scope={scope}
            onPick={setSelectedId}
            onClose={() => setSelectedId(null)}
          />
        )}
        <CommunityList communities={data.communities} colours={colours} total={data.totals.communities} />
      </div>
    </div>
  );
};

/** The knowledge graph a deployed flow's graph-rag node searches: canvas, search, entity details, communities. */
export const KnowledgeGraphView = ({ projectId, flow, node }: { projectId: string; flow: string; node: string }) => {
  const trpc = useTRPC();
  const scope = { projectId, flow, node };
  const graph = useQuery({
    ...trpc.dashboard.flows.knowledgeGraph.queryOptions(scope, { enabled: !!node }),
    refetchInterval: (q) => (q.state.data?.state === "building" ? 5_000 : false),
  });
  const back = (
    <Link href={`/${projectId}/flows/${encodeURIComponent(flow)}`} className="text-sm text-link hover:underline">
      ← {flow}
    </Link>
  );
  if (!node)
    return (
      <div className="space-y-4">
        {back}
        <ErrorAlert>Choose a graph-rag node of the flow.</ErrorAlert>
      </div>
    );
  if (graph.isPending) return <Loading>Loading the knowledge graph…</Loading>;
  if (graph.isError)
    return (
      <div className="space-y-4">
        {back}
        <ErrorAlert>{graph.error.message}</ErrorAlert>
      </div>
    );
  const data = graph.data;
  return (
    <div className="min-w-0 space-y-4">
      <div className="space-y-1">
        {back}
        <h1 className="text-2xl font-semibold tracking-tight break-words">Knowledge graph: {data.node.name}</h1>
        {data.state === "ready" && <Summary data={data} />}
      </div>
      {data.state === "ready" ? (
        <ReadyGraph data={data} scope={scope} />
      ) : (
        <div className="rounded-lg border border-border bg-card shadow-sm">
          <EmptyState title={NOT_READY[data.state].title}>
            {NOT_READY[data.state].text}
            {data.state === "building" && ` (${data.progress}% done)`}
          </EmptyState>
        </div>
      )}
    </div>
  );
};
