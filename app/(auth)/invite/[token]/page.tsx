import type { Metadata } from "next";
import Link from "next/link";
import { InvitationView } from "@/components/auth/invitation-view";
import { configuredProviders } from "@/server/auth/auth";
import { currentSession } from "@/server/auth/session";
import { previewInvitation } from "@/server/teams/invitations";

export const metadata: Metadata = { title: "Invitation" };

const InvitePage = async ({ params }: { params: Promise<{ token: string }> }) => {
  const { token } = await params;
  const invitation = await previewInvitation(token);
  if (!invitation) {
    return (
      <div className="space-y-3">
        <h1 className="text-lg font-semibold">This invitation is no longer valid</h1>
        <p className="text-sm text-muted-foreground">
          It was used, revoked or has expired. Ask a team admin for a new link.
        </p>
        <Link href="/sign-in" className="text-sm text-link underline">
          Go to sign-in
        </Link>
      </div>
    );
  }
  const session = await currentSession();
  return (
    <InvitationView
      token={token}
      teamName={invitation.teamName}
      role={invitation.role}
      email={invitation.email}
      signedInAs={session?.user.email ?? null}
      providers={configuredProviders()}
    />
  );
};

export default InvitePage;
