"use client";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { KEY_UNREADABLE, kindName } from "@/server/model-providers/model-providers.schema";
import type { ProviderRow } from "./use-model-providers";
import { TableScroll } from "@/components/ui/table-scroll";

const Th = ({ children, className = "px-3" }: { children: React.ReactNode; className?: string }) => (
  <th scope="col" className={`${className} py-2`}>
    {children}
  </th>
);

const KeyCell = ({ p }: { p: ProviderRow }) =>
  p.keyStatus === "unreadable" ? (
    <Badge tone="danger">{KEY_UNREADABLE}</Badge>
  ) : p.keyPrefix ? (
    <span className="font-mono text-xs">{p.keyPrefix}</span>
  ) : (
    <span className="text-muted-foreground">none</span>
  );

const Models = ({ p }: { p: ProviderRow }) =>
  p.servedModels.length === 0 ? (
    <span className="text-muted-foreground">{p.source === "team" ? "test to discover" : "none named"}</span>
  ) : (
    <span className="flex max-w-72 flex-wrap gap-1" aria-label={`Models of ${p.name}`}>
      {p.servedModels.map((m) => (
        <Badge key={m}>{m}</Badge>
      ))}
    </span>
  );

const LastTest = ({ p }: { p: ProviderRow }) =>
  p.lastTest ? (
    <span aria-label={`Last test of ${p.name}`} className="flex flex-col gap-0.5">
      <Badge tone={p.lastTest.ok ? "success" : "danger"}>
        {p.lastTest.ok ? "ok" : "failed"} · {p.lastTest.latencyMs} ms
      </Badge>
      <span className="max-w-64 text-xs text-muted-foreground">{p.lastTest.message}</span>
    </span>
  ) : (
    <span className="text-muted-foreground">{p.source === "team" ? "not tested" : "—"}</span>
  );

type Actions = {
  onTest: (p: ProviderRow) => void;
  onEdit: (p: ProviderRow) => void;
  onRemove: (p: ProviderRow) => void;
  testing: string | null;
};

/** The team's providers with their actions, or the environment's, read-only (`actions` absent). */
export const ProvidersTable = ({ rows, label, actions }: { rows: ProviderRow[]; label: string; actions?: Actions }) => (
  <TableScroll label={`${label} table`}>
    <table className="min-w-full text-left text-sm">
      <caption className="sr-only">{label}</caption>
      <thead className="border-b border-border bg-muted text-xs font-medium tracking-wide text-muted-foreground uppercase">
        <tr>
          <Th className="px-5">Name</Th>
          <Th>Kind</Th>
          <Th>Address</Th>
          <Th>Key</Th>
          <Th>Models</Th>
          <Th>{actions ? "Last test" : "Set by"}</Th>
          <Th className="px-5">
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-border">
        {rows.map((p) => (
          <tr key={p.id} className="align-top">
            <td className="px-5 py-2 font-medium">{p.name}</td>
            <td className="px-3 py-2">{kindName(p.kind)}</td>
            <td className="max-w-56 truncate px-3 py-2 font-mono text-xs" title={p.baseUrl}>
              {p.baseUrl}
            </td>
            <td className="px-3 py-2">
              <KeyCell p={p} />
            </td>
            <td className="px-3 py-2">
              <Models p={p} />
            </td>
            <td className="px-3 py-2">
              {actions ? <LastTest p={p} /> : <span className="font-mono text-xs">{p.settings}</span>}
            </td>
            <td className="px-5 py-2 text-right whitespace-nowrap">
              {actions ? (
                <span className="inline-flex gap-1.5">
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={`Test connection of ${p.name}`}
                    disabled={actions.testing === p.id}
                    onClick={() => actions.onTest(p)}
                  >
                    {actions.testing === p.id ? "Testing…" : "Test connection"}
                  </Button>
                  <Button variant="secondary" size="sm" aria-label={`Edit ${p.name}`} onClick={() => actions.onEdit(p)}>
                    Edit
                  </Button>
                  <Button variant="ghost" size="sm" aria-label={`Remove ${p.name}`} onClick={() => actions.onRemove(p)}>
                    Remove
                  </Button>
                </span>
              ) : (
                <Badge tone="info">from the environment</Badge>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  </TableScroll>
);
