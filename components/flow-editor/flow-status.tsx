import { Badge, type BadgeTone } from "@/components/ui/badge";

const TONE: Record<string, BadgeTone> = {
  New: "neutral",
  "Not deployed": "warning",
  Deployed: "success",
  Failed: "danger",
};

export const FlowStatusBadge = ({ status }: { status: string }) => (
  <Badge tone={TONE[status] ?? "neutral"}>{status}</Badge>
);
