"use client";

import Link from "next/link";
import { ErrorAlert } from "@/components/ui/alert";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { EmptyState, Loading } from "@/components/ui/states";
import { ProviderForm } from "./provider-form";
import { ProvidersTable } from "./providers-table";
import { useModelProviders, type ModelProvidersState } from "./use-model-providers";

const TeamProviders = ({ teamId, state }: { teamId: string; state: ModelProvidersState }) => {
  const { list, test, setEditing, setRemoving } = state;
  const providers = list.data?.providers ?? [];
  return (
    <Card label="Team providers">
      <CardHeader title="Team providers" description="Added here; keys are stored encrypted and never shown again." />
      {test.error && <ErrorAlert className="mx-5 mt-4">{test.error.message}</ErrorAlert>}
      {list.isPending && <Loading />}
      {list.isError && <ErrorAlert className="m-5">{list.error.message}</ErrorAlert>}
      {list.data && providers.length === 0 && (
        <EmptyState title="No providers yet">Add the first one below.</EmptyState>
      )}
      {providers.length > 0 && (
        <ProvidersTable
          rows={providers}
          label="Team providers"
          actions={{
            testing: test.isPending ? (test.variables?.providerId ?? null) : null,
            onTest: (p) => test.mutate({ teamId, providerId: p.id }),
            onEdit: setEditing,
            onRemove: setRemoving,
          }}
        />
      )}
    </Card>
  );
};

/** The team's model providers: its own (add, test, edit, remove) and the install's, read-only. Admins only. */
export const ProvidersView = ({ teamId }: { teamId: string }) => {
  const state = useModelProviders(teamId);
  const { members, role, isAdmin, list, refresh, remove, editing, setEditing, removing, setRemoving } = state;
  if (members.isPending) return <Loading />;
  if (members.isError) return <ErrorAlert>{members.error.message}</ErrorAlert>;
  if (!isAdmin) {
    return <ErrorAlert>Model providers are managed by the team&apos;s admins; your role is {role}.</ErrorAlert>;
  }
  const environment = list.data?.environment ?? [];
  return (
    <div className="space-y-6">
      <div>
        <Link href={`/teams/${teamId}`} className="text-sm text-link hover:underline">
          ← Team
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Model providers</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Chat, embedding, rerank, vision and speech servers this team&apos;s projects may use. &ldquo;Test
          connection&rdquo; lists the models a provider serves.
        </p>
      </div>

      <TeamProviders teamId={teamId} state={state} />

      <Card label="Add a provider">
        <CardHeader title="Add a provider" />
        <div className="px-5 py-4">
          <ProviderForm teamId={teamId} onDone={() => void refresh()} />
        </div>
      </Card>

      <Card label="From the environment">
        <CardHeader
          title="From the environment"
          description="Install-wide defaults set in the server's environment; change them there."
        />
        {environment.length === 0 ? (
          <EmptyState title="None">Without a chat model Quarry answers with its local extractive answerer.</EmptyState>
        ) : (
          <ProvidersTable rows={environment} label="Providers from the environment" />
        )}
      </Card>

      <Dialog open={!!editing} onClose={() => setEditing(null)} title={`Edit ${editing?.name ?? "provider"}`}>
        {editing && (
          <ProviderForm
            key={editing.id}
            teamId={teamId}
            provider={editing}
            onDone={() => {
              setEditing(null);
              void refresh();
            }}
          />
        )}
      </Dialog>

      <ConfirmDialog
        open={!!removing}
        title={`Remove ${removing?.name ?? "provider"}?`}
        confirmLabel="Remove provider"
        pending={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing && remove.mutate({ teamId, providerId: removing.id }, { onSuccess: () => setRemoving(null) })
        }
      >
        Its saved key is deleted with it.
        {remove.error && <ErrorAlert className="mt-3">{remove.error.message}</ErrorAlert>}
      </ConfirmDialog>
    </div>
  );
};
