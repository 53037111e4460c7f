import { checkHealth } from "@/server/health";

export const dynamic = "force-dynamic";

export const GET = async () => {
  const health = await checkHealth();
  if (!health.ok) {
    return Response.json(
      { status: "unavailable", database: health.database ? "ok" : "down", jobs: health.jobs ? "ok" : "starting" },
      { status: 503 },
    );
  }
  // Busy: a build's write holds the embedded database's one session; it answers, later.
  return Response.json(
    health.busy ? { status: "ok", database: "busy" } : { status: "ok", keyword_engine: health.keywordEngine },
  );
};
