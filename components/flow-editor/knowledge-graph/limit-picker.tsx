"use client";

import { useId } from "react";
import { Label, Select } from "@/components/ui/input";
import { ENTITY_LIMITS } from "@/server/flows/knowledge-graph.schema";

const format = (n: number) => n.toLocaleString("en-US");

/**
 * Says how many of the graph's entities are drawn (the most connected first) and lets the user draw more or fewer:
 * the page's choices, plus the current limit when the address asked for another one.
 */
export const LimitPicker = ({
  limit,
  drawn,
  total,
  onChange,
}: {
  limit: number;
  drawn: number;
  total: number;
  onChange: (limit: number) => void;
}) => {
  const id = useId();
  const options = [...new Set<number>([...ENTITY_LIMITS, limit])].sort((a, b) => a - b);
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <p data-testid="knowledge-graph-drawn">
        {drawn < total
          ? `Drawn: the top ${format(drawn)} of ${format(total)} entities, most connected first.`
          : `All ${format(total)} entities are drawn.`}
      </p>
      <div className="flex items-center gap-2">
        <Label htmlFor={id} className="mb-0 whitespace-nowrap">
          Draw at most
        </Label>
        <Select id={id} value={limit} onChange={(e) => onChange(Number(e.target.value))} className="w-auto">
          {options.map((n) => (
            <option key={n} value={n}>
              {format(n)} entities
            </option>
          ))}
        </Select>
      </div>
    </div>
  );
};
