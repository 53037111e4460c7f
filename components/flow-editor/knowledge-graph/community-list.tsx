"use client";

import type { GraphCommunity } from "./types";

/**
 * The communities of the shown entities, largest first, each with its colour on the canvas and its summary. Clicking
 * one highlights its entities on the canvas and shows its whole summary; clicking it again clears that.
 */
export const CommunityList = ({
  communities,
  colours,
  total,
  activeId,
  onToggle,
}: {
  communities: GraphCommunity[];
  colours: Map<string, string>;
  total: number;
  activeId: string | null;
  onToggle: (id: string) => void;
}) => (
  <section aria-label="Communities" className="rounded-lg border border-border bg-card shadow-sm">
    <h2 className="border-b border-border px-4 py-3 text-base font-semibold">
      Communities <span className="text-sm font-normal text-muted-foreground">({total})</span>
    </h2>
    {communities.length === 0 ? (
      <p className="px-4 py-3 text-sm text-muted-foreground">The shown entities belong to no community.</p>
    ) : (
      <ul className="max-h-[32rem] divide-y divide-border overflow-auto">
        {communities.map((c) => {
          const active = c.id === activeId;
          return (
            <li key={c.id} className={active ? "bg-muted" : undefined}>
              <button
                type="button"
                aria-pressed={active}
                onClick={() => onToggle(c.id)}
                className="block w-full px-4 py-2.5 text-left hover:bg-muted focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
              >
                <span className="flex items-center gap-2 text-sm font-medium">
                  <span
                    aria-hidden="true"
                    className="size-2.5 shrink-0 rounded-full"
                    style={{ background: colours.get(c.id) }}
                  />
                  <span className="min-w-0 break-words">{c.title}</span>
                </span>
                <span className="mt-0.5 block text-xs text-muted-foreground">
                  {c.size} entit{c.size === 1 ? "y" : "ies"}
                  {c.shown < c.size ? `, ${c.shown} shown` : ""}
                  {active ? " · highlighted on the graph (Esc clears)" : ""}
                </span>
                {c.summary && (
                  <span className={`mt-1 block text-xs break-words ${active ? "" : "line-clamp-4"}`}>{c.summary}</span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
    )}
  </section>
);
