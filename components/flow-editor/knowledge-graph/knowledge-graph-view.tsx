"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { EmptyState, Loading } from "@/components/ui/states";
import { addHit, NOTHING_ADDED, withAdded, type Added } from "./added-entities";
import { colourOf, communityColours } from "./colours";
import { CommunityList } from "./community-list";
import { EntityDetails } from "./entity-details";
import { EntitySearch } from "./entity-search";
import { GraphCanvas } from "./graph-canvas";
import { LimitPicker } from "./limit-picker";
import type { DetailEntity, GraphData, GraphScope, SearchHit } from "./types";

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
    {count(data.totals.entities, "entity", "entities")}
    {" · "}
    {count(data.totals.relationships, "relationship", "relationships")}
    {" · "}
    {count(data.totals.communities, "community", "communities")}
  </p>
);

const ReadyGraph = ({ data: top, scope }: { data: GraphData; scope: GraphScope }) => {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  /** Search hits that were not among the top N, drawn since they were picked. */
  const [added, setAdded] = useState<Added>(NOTHING_ADDED);
  const [communityId, setCommunityId] = useState<string | null>(null);
  const data = useMemo(() => withAdded(top, added), [top, added]);
  const colours = useMemo(() => communityColours(top.communities.map((c) => c.id)), [top]);
  const byId = useMemo(() => new Map(data.entities.map((e) => [e.id, e])), [data]);
  const selected = selectedId ? byId.get(selectedId) : undefined;
  const neighbours = useMemo(() => {
    if (!selectedId) return [];
    const ids = data.relationships.flatMap((r) =>
      r.source === selectedId ? [r.target] : r.target === selectedId ? [r.source] : [],
    );
    return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []).sort((a, b) => b.degree - a.degree);
  }, [data, byId, selectedId]);
  useEffect(() => {
    if (!communityId) return;
    const clear = (e: KeyboardEvent) => {
      if (e.key === "Escape") setCommunityId(null);
    };
    window.addEventListener("keydown", clear);
    return () => window.removeEventListener("keydown", clear);
  }, [communityId]);
  if (!data.entities.length)
    return <EmptyState title="The graph is empty">No entities were found in the node&apos;s documents.</EmptyState>;

  // Picking an entity ends a community's highlight, so the canvas shows the entity's neighbourhood.
  const select = (id: string | null) => {
    setSelectedId(id);
    if (id) setCommunityId(null);
  };
  // A hit outside the top N is drawn (with its relationships to drawn entities) before it is selected.
  const pickHit = (hit: SearchHit) => {
    if (!byId.has(hit.id)) setAdded((current) => addHit(current, hit, top));
    select(hit.id);
  };
  const addedEntity = selected && added.entities.find((e) => e.id === selected.id);
  const detail: DetailEntity | undefined = selected;
  const community =
    (selected && data.communities.find((c) => c.id === selected.communityId)) ?? addedEntity?.community ?? undefined;
  const highlighted = data.communities.find((c) => c.id === communityId);
  return (
    <div className="grid min-w-0 gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="min-w-0 space-y-2">
        <div className="rounded-lg border border-border bg-card p-1 shadow-sm">
          <GraphCanvas
            data={data}
            colours={colours}
            selectedId={selectedId}
            communityId={communityId}
            onSelect={select}
          />
        </div>
        {highlighted ? (
          <p role="status" className="text-xs">
            Highlighted: {highlighted.title}, {count(highlighted.shown, "entity", "entities")} drawn of its{" "}
            {highlighted.size}. Click it again or press Esc to clear.
          </p>
        ) : (
          <p className="text-xs text-muted-foreground">
            Colour: community · size: relationships · hover an entity to see its neighbours, click it for its details,
            click a community to highlight it.
          </p>
        )}
      </div>
      <div className="min-w-0 space-y-4">
        <EntitySearch scope={scope} isDrawn={(id) => byId.has(id)} onPick={pickHit} />
        {detail && (
          <EntityDetails
            key={detail.id}
            entity={detail}
            community={community}
            colour={colourOf(colours, detail.communityId)}
            neighbours={selected ? neighbours : []}
            notDrawn={
              addedEntity
                ? `Added to the canvas from search: the graph draws its ${count(top.entities.length, "most connected entity", "most connected entities")} and this one has ${count(detail.degree, "relationship", "relationships")}; only its relationships to drawn entities are shown.`
                : undefined
            }
            scope={scope}
            onPick={select}
            onClose={() => select(null)}
          />
        )}
        <CommunityList
          communities={data.communities}
          colours={colours}
          total={data.totals.communities}
          activeId={communityId}
          onToggle={(id) => setCommunityId((current) => (current === id ? null : id))}
        />
      </div>
    </div>
  );
};

/** The knowledge graph a deployed flow's graph-rag node searches: canvas, search, entity details, communities. */
export const KnowledgeGraphView = ({
  projectId,
  flow,
  node,
  limit,
}: {
  projectId: string;
  flow: string;
  node: string;
  limit: number;
}) => {
  const trpc = useTRPC();
  const router = useRouter();
  const scope = { projectId, flow, node };
  const graph = useQuery({
    ...trpc.dashboard.flows.knowledgeGraph.queryOptions({ ...scope, limit }, { enabled: !!node }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.state === "building" ? 5_000 : false),
  });
  const drawAtMost = (n: number) =>
    router.replace(`/${projectId}/flows/${encodeURIComponent(flow)}/graph?node=${encodeURIComponent(node)}&top=${n}`, {
      scroll: false,
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
        {data.state === "ready" && data.entities.length > 0 && (
          <LimitPicker
            limit={data.limit}
            drawn={data.entities.length}
            total={data.totals.entities}
            onChange={drawAtMost}
          />
        )}
      </div>
      {data.state === "ready" ? (
        <ReadyGraph key={data.limit} data={data} scope={scope} />
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
