"use client";

import { useId, useState } from "react";
import { Input, Label } from "@/components/ui/input";
import type { GraphEntity } from "./types";

const RESULTS = 8;

/** Finds a shown entity by name or type (case-insensitive); the best matches are those starting with the text. */
export const matchEntities = (entities: GraphEntity[], text: string) => {
  const q = text.trim().toLowerCase();
  if (!q) return [];
  const hits = entities.filter((e) => e.name.toLowerCase().includes(q) || e.type.toLowerCase() === q);
  return hits
    .sort((a, b) => Number(!a.name.toLowerCase().startsWith(q)) - Number(!b.name.toLowerCase().startsWith(q)))
    .slice(0, RESULTS);
};

export const EntitySearch = ({ entities, onPick }: { entities: GraphEntity[]; onPick: (id: string) => void }) => {
  const [text, setText] = useState("");
  const id = useId();
  const results = matchEntities(entities, text);
  return (
    <div>
      <Label htmlFor={id}>Find an entity</Label>
      <Input
        id={id}
        type="search"
        value={text}
        maxLength={200}
        placeholder="Name or type"
        onChange={(e) => setText(e.target.value)}
      />
      {text.trim() && (
        <ul aria-label="Matching entities" className="mt-1 space-y-0.5">
          {results.length === 0 && <li className="px-2 py-1 text-sm text-muted-foreground">No entity matches.</li>}
          {results.map((e) => (
            <li key={e.id}>
              <button
                type="button"
                onClick={() => onPick(e.id)}
                className="flex w-full items-center justify-between gap-2 rounded-md px-2 py-1 text-left text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
              >
                <span className="min-w-0 truncate">{e.name}</span>
                <span className="shrink-0 text-xs text-muted-foreground">{e.type}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
