"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { EmptyState, Loading } from "@/components/ui/states";
import { useProject } from "@/components/sources/use-project";
import { CreateToken } from "./create-token";
import { McpEndpoint } from "./mcp-endpoint";
import { TokensTable } from "./tokens-table";
import { useRevokeToken } from "./use-api-tokens";

/** Created once (the token is never shown again), listed by prefix, revoked with effect on the next call. */
export const ApiTokensView = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const project = useProject(projectId);
  const isAdmin = project.can("admin");
  const tokens = useQuery(trpc.dashboard.tokens.list.queryOptions({ projectId }, { enabled: isAdmin }));
  const { revoking, setRevoking, revoke } = useRevokeToken(projectId);

  if (project.isPending) return <Loading />;
  if (project.isError) return <ErrorAlert>{project.error.message}</ErrorAlert>;
  if (!isAdmin) {
    return <ErrorAlert>API tokens are managed by the team&apos;s admins; your role is {project.data.role}.</ErrorAlert>;
  }

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">API tokens</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Tokens call the public API for this project only, with the permissions you give them. What they can call:{" "}
          <Link className="text-link underline" href={`/${projectId}/api-reference`}>
            the API reference
          </Link>
          .
        </p>
      </div>
      <CreateToken projectId={projectId} />

      <Card label="Tokens">
        <CardHeader title="Tokens" />
        {tokens.isPending && <Loading />}
        {tokens.isError && <ErrorAlert className="m-5">{tokens.error.message}</ErrorAlert>}
        {tokens.data?.length === 0 && <EmptyState title="No tokens yet" />}
        {tokens.data && tokens.data.length > 0 && <TokensTable tokens={tokens.data} onRevoke={setRevoking} />}
      </Card>

      <McpEndpoint projectName={project.data.project.name} />

      <ConfirmDialog
        open={!!revoking}
        title={`Revoke ${revoking?.name ?? "token"}?`}
        confirmLabel="Revoke token"
        pending={revoke.isPending}
        onClose={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate({ projectId, tokenId: revoking.id })}
      >
        Calls with this token fail from the next request on. This cannot be undone.
        {revoke.error && <ErrorAlert className="mt-3">{revoke.error.message}</ErrorAlert>}
      </ConfirmDialog>
    </div>
  );
};
