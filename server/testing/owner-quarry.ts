import { dashboardClient, type Session } from "./dashboard-client";
import { startQuarry, type QuarryProcess } from "./quarry-process";

export type OwnerQuarry = {
  quarry: QuarryProcess;
  client: ReturnType<typeof dashboardClient>;
  owner: Session;
  /** The default project (the one the first start made) and a second, empty one of the same team. */
  projectId: string;
  otherProjectId: string;
};

/**
 * A real Quarry with a headless owner signed in to the dashboard: the setup of the dashboard procedures' integration
 * tests that need one project with content and another to prove nothing crosses over.
 */
export const startOwnerQuarry = async (owner: { email: string; password: string }): Promise<OwnerQuarry> => {
  const quarry = await startQuarry({
    env: { QUARRY_ADMIN_EMAIL: owner.email, QUARRY_ADMIN_PASSWORD: owner.password },
  });
  const client = dashboardClient(quarry.url);
  const session = await client.signIn(owner.email, owner.password);
  const me = await client.me(session);
  const team = me.teams[0]!;
  const other = await client.ok<{ id: string }>(
    session,
    "dashboard.projects.create",
    { teamId: team.id, name: "o" },
    "mutation",
  );
  return { quarry, client, owner: session, projectId: team.projects[0]!.id, otherProjectId: other.id };
};
