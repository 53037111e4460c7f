import { db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { userFailureMessage } from "./failure-message";

/**
 * The newest build of a source that fetched something (a reprocess re-parses the stored snapshot and has no report of
 * its own), with its acquisition report; null when none did.
 */
export const latestAcquiringBuild = ({ projectId, sourceId }: { projectId: string; sourceId: string }) =>
  db.build.findFirst({
    where: { projectId, sourceId, NOT: { acquired: { equals: Prisma.AnyNull } } },
    orderBy: { createdAt: "desc" },
    select: { id: true, status: true, acquired: true, createdAt: true },
  });

type PageFate = { reason_code?: unknown; reason?: unknown };

/**
 * A fetch report as a role without failure details receives it: a page that could not be fetched gives the user's
 * sentence instead of the network's ("… was not found (ENOTFOUND)"). The other reasons (robots.txt, out of scope,
 * a bot challenge) are already written for users.
 */
export const acquiredForRole = (acquired: unknown, details: boolean): unknown => {
  const { pages, robots } = (acquired as { pages?: unknown; robots?: unknown } | null) ?? {};
  if (details || !Array.isArray(pages)) return acquired;
  return {
    ...(acquired as object),
    // "unreachable (Could not fetch …: ENOTFOUND): …" keeps its verdict, without the network's words.
    ...(typeof robots === "string" && robots.startsWith("unreachable (")
      ? { robots: "unreachable: the site could not be reached, so it is treated as disallowed" }
      : {}),
    pages: pages.map((page: PageFate) =>
      page?.reason_code === "fetch_error" && typeof page.reason === "string"
        ? { ...page, reason: userFailureMessage(page.reason) }
        : page,
    ),
  };
};
