"use client";

import type { inferRouterOutputs } from "@trpc/server";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { CAUSE_LABELS } from "@/server/providers/usage.schema";
import type { AppRouter } from "@/server/trpc/root";
import { TableScroll } from "@/components/ui/table-scroll";

export type Usage = inferRouterOutputs<AppRouter>["dashboard"]["usage"]["summary"];
type Totals = Usage["totals"];

const number = new Intl.NumberFormat("en-US");
const money = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 4 });

export const formatCost = (cost: number | null) => (cost === null ? "—" : money.format(cost));

/** Tokens, with a note when some of them are estimates (the provider reported no usage). */
const Tokens = ({ value, totals }: { value: number; totals: Totals }) => (
  <>
    {number.format(value)}
    {totals.estimatedCalls > 0 && (
      <span className="text-muted-foreground" title={`${totals.estimatedCalls} calls estimated`}>
        {" "}
        ~
      </span>
    )}
  </>
);

const Head = ({ first }: { first: string }) => (
  <thead className="border-b border-border bg-muted text-xs font-medium tracking-wide text-muted-foreground uppercase">
    <tr>
      <th scope="col" className="px-5 py-2">
        {first}
      </th>
      {["Calls", "Errors", "Tokens in", "Tokens out", "Avg latency", "Cost"].map((h) => (
        <th key={h} scope="col" className="px-3 py-2 text-right">
          {h}
        </th>
      ))}
    </tr>
  </thead>
);

const Cells = ({ totals }: { totals: Totals }) => (
  <>
    <td className="px-3 py-2 text-right tabular-nums">{number.format(totals.calls)}</td>
    <td className="px-3 py-2 text-right tabular-nums">{number.format(totals.errors)}</td>
    <td className="px-3 py-2 text-right tabular-nums">
      <Tokens value={totals.tokensIn} totals={totals} />
    </td>
    <td className="px-3 py-2 text-right tabular-nums">
      <Tokens value={totals.tokensOut} totals={totals} />
    </td>
    <td className="px-3 py-2 text-right tabular-nums">{number.format(totals.avgLatencyMs)} ms</td>
    <td className="px-5 py-2 text-right tabular-nums">{formatCost(totals.cost)}</td>
  </>
);

/** One usage table: a row per day, model or cause, with the same columns. */
export const UsageTable = <R extends Totals>({
  caption,
  first,
  rows,
  keyOf,
  label,
}: {
  caption: string;
  first: string;
  rows: R[];
  keyOf: (row: R) => string;
  label: (row: R) => ReactNode;
}) => (
  <TableScroll label={`${caption} table`}>
    <table className="min-w-full text-left text-sm" aria-label={caption}>
      <caption className="sr-only">{caption}</caption>
      <Head first={first} />
      <tbody className="divide-y divide-border">
        {rows.map((row) => (
          <tr key={keyOf(row)}>
            <th scope="row" className="px-5 py-2 text-left font-medium">
              {label(row)}
            </th>
            <Cells totals={row} />
          </tr>
        ))}
      </tbody>
    </table>
  </TableScroll>
);

export const ModelLabel = ({ row }: { row: Usage["byModel"][number] }) => (
  <span className="flex items-center gap-2">
    <span className="font-mono text-xs">{row.model}</span>
    <Badge>{row.capability}</Badge>
    {!row.priced && <span className="text-xs font-normal text-muted-foreground">no price</span>}
  </span>
);

export const causeLabel = (cause: Usage["byCause"][number]["cause"]) => CAUSE_LABELS[cause];
