"use client";

import type { inferRouterOutputs } from "@trpc/server";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { AppRouter } from "@/server/trpc/root";
import { TableScroll } from "@/components/ui/table-scroll";

const formatDate = (d: Date | string | null) => (d ? new Date(d).toLocaleString() : "never");

type TokenRow = inferRouterOutputs<AppRouter>["dashboard"]["tokens"]["list"][number];

/** The project's tokens, newest first; revoked ones stay listed, greyed. */
export const TokensTable = ({
  tokens,
  onRevoke,
}: {
  tokens: TokenRow[];
  onRevoke: (token: { id: string; name: string }) => void;
}) => (
  <TableScroll label="API tokens table">
    <table className="min-w-full text-left text-sm">
      <caption className="sr-only">API tokens</caption>
      <thead className="border-b border-border bg-muted text-xs font-medium tracking-wide text-muted-foreground uppercase">
        <tr>
          <th scope="col" className="px-5 py-2">
            Name
          </th>
          <th scope="col" className="px-3 py-2">
            Token
          </th>
          <th scope="col" className="px-3 py-2">
            Permissions
          </th>
          <th scope="col" className="px-3 py-2">
            Created
          </th>
          <th scope="col" className="px-3 py-2">
            Last used
          </th>
          <th scope="col" className="px-5 py-2">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-border">
        {tokens.map((t) => (
          <tr key={t.id} className={t.revokedAt ? "text-muted-foreground" : ""}>
            <td className="px-5 py-2 font-medium">{t.name}</td>
            <td className="px-3 py-2 font-mono text-xs">{t.displayPrefix}</td>
            <td className="px-3 py-2">
              <span className="flex flex-wrap gap-1">
                {t.permissions.map((p) => (
                  <Badge key={p}>{p}</Badge>
                ))}
              </span>
            </td>
            <td className="px-3 py-2 whitespace-nowrap">
              {formatDate(t.createdAt)}
              {t.createdBy ? ` by ${t.createdBy.name}` : ""}
            </td>
            <td className="px-3 py-2 whitespace-nowrap">{formatDate(t.lastUsedAt)}</td>
            <td className="px-5 py-2 text-right">
              {t.revokedAt ? (
                <Badge tone="danger">revoked</Badge>
              ) : (
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Revoke ${t.name}`}
                  onClick={() => onRevoke({ id: t.id, name: t.name })}
                >
                  Revoke
                </Button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  </TableScroll>
);
