"use client";

import type { GraphCommunity } from "./types";

/** The communities of the shown entities, largest first, each with its colour on the canvas and its summary. */
export const CommunityList = ({
  communities,
  colours,
  total,
}: {
  communities: GraphCommunity[];
  colours: Map<string, string>;
  total: number;
}) => (
  <section aria-label="Communities" className="rounded-lg border border-border bg-card shadow-sm">
    <h2 className="border-b border-border px-4 py-3 text-base font-semibold">
      Communities <span className="text-sm font-normal text-muted-foreground">({total})</span>
    </h2>
    {communities.length === 0 ? (
      <p className="px-4 py-3 text-sm text-muted-foreground">The shown entities belong to no community.</p>
    ) : (
      <ul className="max-h-[32rem] divide-y divide-border overflow-auto">
        {communities.map((c) => (
          <li key={c.id} className="px-4 py-2.5">
            <p className="flex items-center gap-2 text-sm font-medium">
              <span
                aria-hidden="true"
                className="size-2.5 shrink-0 rounded-full"
                style={{ background: colours.get(c.id) }}
              />
              <span className="min-w-0 break-words">{c.title}</span>
            </p>
            <p className="mt-0.5 text-xs text-muted-foreground">
              {c.size} entit{c.size === 1 ? "y" : "ies"}
              {c.shown < c.size ? `, ${c.shown} shown` : ""}
            </p>
            {c.summary && <p className="mt-1 line-clamp-4 text-xs break-words">{c.summary}</p>}
          </li>
        ))}
      </ul>
    )}
  </section>
);
