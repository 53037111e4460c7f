"use client";

import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";
import { TEAM_ROLES, type TeamRole } from "@/server/teams/teams.schema";
import type { TeamMembersState } from "./use-team-members";
import { TableScroll } from "@/components/ui/table-scroll";

type Member = NonNullable<TeamMembersState["members"]["data"]>["members"][number];

/** A member's role, a select for those the caller may manage. */
const RoleCell = ({
  teamId,
  member,
  myRole,
  state,
}: {
  teamId: string;
  member: Member;
  myRole: TeamRole;
  state: TeamMembersState;
}) => (
  <Select
    aria-label={`Role of ${member.email}`}
    value={member.role}
    className="h-8 w-32"
    disabled={state.changeRole.isPending}
    onChange={(e) =>
      state.changeRole.mutate({
        teamId,
        userId: member.id,
        role: e.target.value as (typeof TEAM_ROLES)[number],
      })
    }
  >
    {TEAM_ROLES.filter((r) => r !== "owner" || myRole === "owner").map((r) => (
      <option key={r} value={r}>
        {r}
      </option>
    ))}
  </Select>
);

/**
 * The members with their roles. An admin manages everyone but themselves and, unless they are the owner, the
 * owner.
 */
export const MembersTable = ({
  teamId,
  members,
  myRole,
  isAdmin,
  state,
}: {
  teamId: string;
  members: Member[];
  myRole: TeamRole;
  isAdmin: boolean;
  state: TeamMembersState;
}) => (
  <TableScroll label="Members table">
    <table className="min-w-full text-left text-sm">
      <caption className="sr-only">Members</caption>
      <thead className="border-b border-border bg-muted text-xs font-medium tracking-wide text-muted-foreground uppercase">
        <tr>
          <th scope="col" className="px-5 py-2">
            Name
          </th>
          <th scope="col" className="px-3 py-2">
            Email
          </th>
          <th scope="col" className="px-3 py-2">
            Role
          </th>
          <th scope="col" className="px-5 py-2">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-border">
        {members.map((m) => {
          const manageable = isAdmin && (m.role !== "owner" || myRole === "owner") && m.id !== state.me.data?.userId;
          return (
            <tr key={m.id}>
              <td className="px-5 py-2 font-medium">{m.name}</td>
              <td className="px-3 py-2 text-muted-foreground">{m.email}</td>
              <td className="px-3 py-2">
                {manageable ? <RoleCell teamId={teamId} member={m} myRole={myRole} state={state} /> : m.role}
              </td>
              <td className="px-5 py-2 text-right">
                {manageable && (
                  <div className="flex justify-end gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={`Reset link for ${m.email}`}
                      disabled={state.issueReset.isPending}
                      onClick={() => state.issueReset.mutate({ teamId, userId: m.id })}
                    >
                      Reset link
                    </Button>
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={`Remove ${m.email}`}
                      onClick={() => state.setRemoving({ id: m.id, email: m.email })}
                    >
                      Remove
                    </Button>
                  </div>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  </TableScroll>
);
