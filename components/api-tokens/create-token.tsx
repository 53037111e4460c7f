"use client";

import { ErrorAlert, Notice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { TOKEN_PERMISSIONS } from "@/server/auth/api-tokens.schema";
import { useCreateToken } from "./use-api-tokens";

const PERMISSION_HINTS: Record<(typeof TOKEN_PERMISSIONS)[number], string> = {
  read: "list sources, elements, builds",
  write: "upload, reprocess, retrieve",
  delete: "delete sources",
  deploy: "deploy flows",
};

/** The new token and a curl call with it, each with a copy button. */
const CreatedToken = ({ created }: { created: { token: string; name: string } }) => {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const curl = `curl -H "Authorization: Bearer ${created.token}" ${origin}/api/public/v1/sources`;
  return (
    <Notice className="mx-5 mb-5">
      <p className="font-medium">Token &ldquo;{created.name}&rdquo; (shown once: copy it now)</p>
      <div className="mt-2 flex items-center gap-2">
        <code aria-label="New token" className="min-w-0 flex-1 truncate rounded bg-card px-2 py-1 font-mono text-xs">
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
  );
};

/** Name and permissions of a new token; once created, the token itself. */
export const CreateToken = ({ projectId }: { projectId: string }) => {
  const { errors, permissions, togglePermission, created, create, onSubmit } = useCreateToken(projectId);
  return (
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
                  onChange={(e) => togglePermission(p, e.target.checked)}
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
      {created && <CreatedToken created={created} />}
    </Card>
  );
};
