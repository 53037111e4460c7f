import type { Metadata } from "next";
import { TeamSettings } from "@/components/teams/team-settings";

export const metadata: Metadata = { title: "Team" };

const TeamPage = async ({ params }: { params: Promise<{ teamId: string }> }) => {
  const { teamId } = await params;
  return <TeamSettings teamId={teamId} />;
};

export default TeamPage;
