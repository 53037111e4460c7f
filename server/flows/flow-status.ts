import type { FlowStatus } from "../generated/prisma/enums";

/**
 * A flow's status as the API and the dashboard show it. The database enum names "Not deployed" NotDeployed (an
 * enum value cannot hold a space in Prisma's client), so every status that leaves the server goes through here.
 */
const LABEL: Record<FlowStatus, string> = {
  New: "New",
  NotDeployed: "Not deployed",
  Deployed: "Deployed",
  Failed: "Failed",
};

export const flowStatusLabel = (status: FlowStatus): string => LABEL[status];
