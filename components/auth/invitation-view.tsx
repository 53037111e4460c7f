"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Tabs } from "@/components/ui/tabs";
import { ROLE_DESCRIPTIONS, type TeamRole } from "@/server/teams/teams.schema";
import { signOut } from "./auth-client";
import { ProviderButtons, SignInForm, SignUpForm } from "./auth-forms";

/**
 * An invitation link: a new person creates an account (the invitation rides along and the server adds them to the
 * team); someone with an account signs in and accepts.
 */
export const InvitationView = ({
  token,
  teamName,
  role,
  email,
  signedInAs,
  providers,
}: {
  token: string;
  teamName: string;
  role: TeamRole;
  email: string | null;
  signedInAs: string | null;
  providers: { id: string; name: string }[];
}) => {
  const trpc = useTRPC();
  const [tab, setTab] = useState<"new" | "existing">("new");
  const accept = useMutation(
    // A full load, so the app starts with the new team in every cached list.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    trpc.dashboard.account.acceptInvitation.mutationOptions({ onSuccess: () => window.location.assign("/") }),
  );
  const here = `/invite/${token}`;

  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-lg font-semibold">Join {teamName}</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          You are invited as <strong className="text-foreground">{role}</strong>: {ROLE_DESCRIPTIONS[role]}.
          {email && <> This invitation is for {email}.</>}
        </p>
      </div>
      {signedInAs ? (
        <div className="space-y-3">
          <p className="text-sm">
            Signed in as <strong>{signedInAs}</strong>.
          </p>
          {accept.error && <ErrorAlert>{accept.error.message}</ErrorAlert>}
          <Button className="w-full" disabled={accept.isPending} onClick={() => accept.mutate({ token })}>
            Accept invitation
          </Button>
          <Button variant="ghost" className="w-full" onClick={() => signOut().then(() => window.location.reload())}>
            Use another account
          </Button>
        </div>
      ) : (
        <Tabs
          label="How to join"
          value={tab}
          onChange={setTab}
          tabs={[
            { value: "new", label: "Create an account" },
            { value: "existing", label: "I have an account" },
          ]}
        >
          {tab === "new" ? (
            <div className="space-y-4">
              <SignUpForm
                label="Create your account"
                submitLabel="Create account and join"
                inviteToken={token}
                email={email}
              />
              <ProviderButtons providers={providers} next="/" inviteToken={token} />
            </div>
          ) : (
            <div className="space-y-4">
              <SignInForm next={here} />
              <ProviderButtons providers={providers} next={here} />
            </div>
          )}
        </Tabs>
      )}
    </div>
  );
};
