"use client";

import type { inferRouterOutputs } from "@trpc/server";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { AppRouter } from "@/server/trpc/root";
import { TableScroll } from "@/components/ui/table-scroll";

type DeliveryRow = inferRouterOutputs<AppRouter>["dashboard"]["webhooks"]["deliveries"][number];

const TONE: Record<DeliveryRow["status"], BadgeTone> = { pending: "info", succeeded: "success", failed: "danger" };

const when = (d: Date | string | null) => (d ? new Date(d).toLocaleString() : "");

const statusText = (d: DeliveryRow) =>
  d.status === "pending" && d.attempts > 0
    ? `retrying (next ${new Date(d.nextAttemptAt!).toLocaleTimeString()})`
    : d.status;

/** The delivery log, newest first: what was sent, how it went, and the last error. Narrow screens drop two columns. */
export const DeliveriesTable = ({ deliveries, urls }: { deliveries: DeliveryRow[]; urls: Map<string, string> }) => (
  <TableScroll label="Webhook deliveries table">
    <table className="min-w-full text-left text-sm">
      <caption className="sr-only">Webhook deliveries</caption>
      <thead className="border-b border-border bg-muted text-xs font-medium tracking-wide text-muted-foreground uppercase">
        <tr>
          <th scope="col" className="px-5 py-2">
            Event
          </th>
          <th scope="col" className="px-3 py-2">
            Status
          </th>
          <th scope="col" className="px-3 py-2">
            Attempts
          </th>
          <th scope="col" className="hidden px-3 py-2 sm:table-cell">
            HTTP
          </th>
          <th scope="col" className="hidden px-3 py-2 sm:table-cell">
            Latency
          </th>
          <th scope="col" className="px-3 py-2">
            Last error
          </th>
          <th scope="col" className="px-5 py-2">
            Sent
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-border">
        {deliveries.map((d) => (
          <tr key={d.id}>
            <td className="px-5 py-2">
              <code className="font-mono text-xs font-medium">{d.eventType}</code>
              <span className="block max-w-48 truncate text-xs text-muted-foreground" title={urls.get(d.endpointId)}>
                {urls.get(d.endpointId)}
              </span>
            </td>
            <td className="px-3 py-2">
              <Badge tone={TONE[d.status]}>{statusText(d)}</Badge>
            </td>
            <td className="px-3 py-2 tabular-nums">{d.attempts}</td>
            <td className="hidden px-3 py-2 tabular-nums sm:table-cell">{d.lastStatus ?? "—"}</td>
            <td className="hidden px-3 py-2 tabular-nums sm:table-cell">
              {d.latencyMs === null ? "—" : `${d.latencyMs} ms`}
            </td>
            <td className="max-w-72 px-3 py-2 text-xs break-words text-muted-foreground">{d.lastError ?? "—"}</td>
            <td className="px-5 py-2 text-xs whitespace-nowrap">{when(d.createdAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  </TableScroll>
);
