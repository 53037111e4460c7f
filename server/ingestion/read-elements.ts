import { db } from "../db";
import { yieldToEventLoop } from "../runtime/cpu-thread";

const PAGE = 2000;

/** The text side of an element (no image bytes: a scanned document's images would only fill memory). */
const SELECT = {
  position: true,
  elementId: true,
  elementType: true,
  text: true,
  html: true,
  pageNumber: true,
} as const;

/**
 * Every element of a build in position order, read a page at a time: one query for 100,000 rows held the database
 * session and the event loop (decoding them) for seconds, while health checks and API calls waited.
 */
export const readBuildElements = async (buildId: string) => {
  const rows: Awaited<ReturnType<typeof readPage>> = [];
  for (let after = -1; ;) {
    const page = await readPage(buildId, after);
    rows.push(...page);
    if (page.length < PAGE) return rows;
    after = page.at(-1)!.position;
    await yieldToEventLoop();
  }
};

const readPage = (buildId: string, after: number) =>
  db.element.findMany({
    where: { buildId, position: { gt: after } },
    orderBy: { position: "asc" },
    take: PAGE,
    select: SELECT,
  });
