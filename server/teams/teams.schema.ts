import { z } from "zod";

/**
 * Team roles, weakest first (isomorphic: the dashboard's forms validate with the same schemas the procedures use).
 * Viewers read; members ingest, ask and edit flows; admins manage tokens and members; owners manage the team.
 */
export const TEAM_ROLES = ["viewer", "member", "admin", "owner"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const roleRank = (role: TeamRole): number => TEAM_ROLES.indexOf(role);
export const roleAtLeast = (role: TeamRole, minimum: TeamRole): boolean => roleRank(role) >= roleRank(minimum);

export const ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  viewer: "reads sources, elements and search results",
  member: "also uploads, reprocesses and deletes sources",
  admin: "also manages API tokens, projects, members and invitations",
  owner: "also renames the team and appoints owners",
};

export const TeamName = z.string().trim().min(1, "Name the team").max(80, "At most 80 characters");

export const CreateTeamInput = z.object({ name: TeamName });

export const CreateInvitationInput = z.object({
  role: z.enum(TEAM_ROLES),
  email: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z.email("Enter a valid email address or leave it empty").optional(),
  ),
  expiresInDays: z.number().int().min(1).max(30).default(7),
});
export type CreateInvitationInput = z.infer<typeof CreateInvitationInput>;

export const SignUpInput = z.object({
  name: z.string().trim().min(1, "Enter your name").max(100),
  email: z.email("Enter a valid email address"),
  password: z.string().min(8, "At least 8 characters").max(128, "At most 128 characters"),
});

export const SignInInput = z.object({
  email: z.email("Enter a valid email address"),
  password: z.string().min(1, "Enter your password"),
});
