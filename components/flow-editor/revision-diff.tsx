"use client";

import type { Graph } from "@/server/flows/graph.schema";
import { diffGraphs } from "./graph-diff";

const MARK = { added: "+", removed: "−", changed: "~" } as const;
const TONE = {
  added: "text-emerald-700 dark:text-emerald-400",
  removed: "text-destructive",
  changed: "text-amber-700 dark:text-amber-400",
} as const;

/** What restoring a revision would change in the draft, line by line. */
export const RevisionDiff = ({ draft, revision, number }: { draft: Graph; revision: Graph; number: number }) => {
  const changes = diffGraphs(draft, revision);
  return (
    <details className="rounded-md border border-border px-3 py-2 text-sm" open={changes.length > 0}>
      <summary className="cursor-pointer font-medium">
        {changes.length
          ? `Revision ${number} differs from the draft in ${changes.length} ${changes.length === 1 ? "place" : "places"}`
          : `Revision ${number} is the same as the draft`}
      </summary>
      {changes.length > 0 && (
        <ul
          aria-label="Differences from the draft"
          // It scrolls when long: reachable by keyboard.
          tabIndex={0}
          className="mt-2 max-h-40 space-y-0.5 overflow-auto font-mono text-xs"
        >
          {changes.map((c, i) => (
            <li key={i} className={TONE[c.kind]}>
              {MARK[c.kind]} {c.text}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
};
