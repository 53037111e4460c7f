"use client";

import { ErrorAlert } from "@/components/ui/alert";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Loading } from "@/components/ui/states";
import { ROLE_DESCRIPTIONS, roleAtLeast } from "@/server/teams/teams.schema";
import { Invitations } from "./invitations";
import { MembersTable } from "./members-table";
import { RenameTeam } from "./rename-team";
import { ResetLinkNotice } from "./reset-link-notice";
import { useTeamMembers } from "./use-team-members";

export const TeamSettings = ({ teamId }: { teamId: string }) => {
  const state = useTeamMembers(teamId);
  const { me, members, changeRole, remove, removing, setRemoving, issueReset, resetLink } = state;

  const team = me.data?.teams.find((t) => t.id === teamId);
  if (members.isPending) return <Loading>Loading the team…</Loading>;
  if (members.isError) return <ErrorAlert>{members.error.message}</ErrorAlert>;
  const myRole = members.data.role;
  const isAdmin = roleAtLeast(myRole, "admin");

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{team?.name ?? "Team"}</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Your role: <strong className="text-foreground">{myRole}</strong> ({ROLE_DESCRIPTIONS[myRole]})
        </p>
      </div>

      <Card label="Members">
        <CardHeader title="Members" description={`${members.data.members.length} in this team`} />
        {(changeRole.error || remove.error || issueReset.error) && (
          <ErrorAlert className="mx-5 mt-4">
            {(changeRole.error ?? remove.error ?? issueReset.error)?.message}
          </ErrorAlert>
        )}
        <ResetLinkNotice resetLink={resetLink} />
        <MembersTable teamId={teamId} members={members.data.members} myRole={myRole} isAdmin={isAdmin} state={state} />
      </Card>

      {isAdmin && <Invitations teamId={teamId} myRole={myRole} />}

      {myRole === "owner" && <RenameTeam teamId={teamId} name={team?.name} />}

      <ConfirmDialog
        open={!!removing}
        title="Remove member?"
        confirmLabel="Remove member"
        pending={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing && remove.mutate({ teamId, userId: removing.id }, { onSettled: () => setRemoving(null) })
        }
      >
        {removing?.email} loses access to every project of this team at once.
      </ConfirmDialog>
    </div>
  );
};
