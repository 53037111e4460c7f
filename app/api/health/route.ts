import { checkHealth } from "@/server/health";

export const dynamic = "force-dynamic";

export const GET = async () => {
  const health = await checkHealth();
  return health.ok
    ? Response.json({ status: "ok", keyword_engine: health.keywordEngine })
    : Response.json(
        { status: "unavailable", database: health.database ? "ok" : "down", jobs: health.jobs ? "ok" : "starting" },
        { status: 503 },
      );
};
