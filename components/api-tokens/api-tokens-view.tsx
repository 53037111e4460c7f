"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert, Notice } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { EmptyState, Loading } from "@/components/ui/states";
import { useZodForm } from "@/components/ui/use-zod-form";
import { useProject } from "@/components/sources/use-project";
import { CreateTokenInput, TOKEN_PERMISSIONS } from "@/server/auth/api-tokens.schema";

const PERMISSION_HINTS: Record<(typeof TOKEN_PERMISSIONS)[number], string> = {
  read: "list sources, elements, builds",
  write: "upload, reprocess, retrieve",
  delete: "delete sources",
  deploy: "deploy flows",
};

const formatDate = (d: Date | string | null) => (d ? new Date(d).toLocaleString() : "never");

/** Created once (the token is never shown again), listed by prefix, revoked with effect on the next call. */
export const ApiTokensView = ({ projectId }: { projectId: string }) => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const project = useProject(projectId);
  const isAdmin = project.can("admin");
  const listKey = trpc.dashboard.tokens.list.queryKey({ projectId });
  const tokens = useQuery(trpc.dashboard.tokens.list.queryOptions({ projectId }, { enabled: isAdmin }));
  const { errors, validate } = useZodForm(CreateTokenInput);
  const [permissions, setPermissions] = useState<string[]>(["read", "write"]);
  const [created, setCreated] = useState<{ token: string; name: string } | null>(null);
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const create = useMutation(
    trpc.dashboard.tokens.create.mutationOptions({
      onSuccess: async (result) => {
        setCreated({ token: result.token, name: result.name });
        await queryClient.invalidateQueries({ queryKey: listKey });
      },
    }),
  );
  const revoke = useMutation(
    trpc.dashboard.tokens.revoke.mutationOptions({
      onSuccess: () => setRevoking(null),
      onSettled: () => queryClient.invalidateQueries({ queryKey: listKey }),
    }),
  );

  if (project.isPending) return <Loading />;
  if (project.isError) return <ErrorAlert>{project.error.message}</ErrorAlert>;
  if (!isAdmin) {
    return <ErrorAlert>API tokens are managed by the team&apos;s admins; your role is {project.data.role}.</ErrorAlert>;
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = validate({ name: new FormData(event.currentTarget).get("name"), permissions });
    if (values) create.mutate({ projectId, ...values });
  };
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const curl = created ? `curl -H "Authorization: Bearer ${created.token}" ${origin}/api/public/v1/sources` : "";

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">API tokens</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Tokens call the public API for this project only, with the permissions you give them.
        </p>
      </div>
      <Card label="Create a token">
        <CardHeader title="Create a token" />
        <form aria-label="Create token" noValidate onSubmit={onSubmit} className="space-y-4 px-5 py-4">
          <Field label="Name" error={errors.name}>
            {(p) => <Input {...p} name="name" placeholder="e.g. nightly import" className="max-w-sm" />}
          </Field>
          <fieldset>
            <legend className="mb-1 text-sm font-medium">Permissions</legend>
            <div className="flex flex-wrap gap-4">
              {TOKEN_PERMISSIONS.map((p) => (
                <label key={p} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={permissions.includes(p)}
                    onChange={(e) =>
                      setPermissions((all) => (e.target.checked ? [...all, p] : all.filter((x) => x !== p)))
                    }
                    className="size-4 accent-[var(--primary)]"
                  />
                  <span>
                    <span className="font-medium">{p}</span>{" "}
                    <span className="text-muted-foreground">({PERMISSION_HINTS[p]})</span>
                  </span>
                </label>
              ))}
            </div>
            {errors.permissions && <p className="mt-1 text-xs text-destructive">{errors.permissions}</p>}
          </fieldset>
          {create.error && <ErrorAlert>{create.error.message}</ErrorAlert>}
          <Button type="submit" disabled={create.isPending}>
            Create token
          </Button>
        </form>
        {created && (
          <Notice className="mx-5 mb-5">
            <p className="font-medium">Token &ldquo;{created.name}&rdquo; (shown once: copy it now)</p>
            <div className="mt-2 flex items-center gap-2">
              <code
                aria-label="New token"
                className="min-w-0 flex-1 truncate rounded bg-card px-2 py-1 font-mono text-xs"
              >
                {created.token}
              </code>
              <CopyButton text={created.token} label="Copy token" />
            </div>
            <p className="mt-3 text-xs">Try it:</p>
            <div className="mt-1 flex items-center gap-2">
              <code
                aria-label="Example request"
                className="min-w-0 flex-1 truncate rounded bg-card px-2 py-1 font-mono text-xs"
              >
                {curl}
              </code>
              <CopyButton text={curl} label="Copy curl" />
            </div>
          </Notice>
        )}
      </Card>

      <Card label="Tokens">
        <CardHeader title="Tokens" />
        {tokens.isPending && <Loading />}
        {tokens.isError && <ErrorAlert className="m-5">{tokens.error.message}</ErrorAlert>}
        {tokens.data?.length === 0 && <EmptyState title="No tokens yet" />}
        {tokens.data && tokens.data.length > 0 && (
          <div className="overflow-x-auto">
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
                {tokens.data.map((t) => (
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
                          onClick={() => setRevoking({ id: t.id, name: t.name })}
                        >
                          Revoke
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>

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
