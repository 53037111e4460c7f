import { documentTitle } from "../chunk-sets/service";
import { db } from "../db";
import { yieldToEventLoop } from "../concurrency/cpu-thread";

export const ELEMENTS_PAGE = 2000;

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
  const rows: ElementText[] = [];
  for (let after = -1; ;) {
    const page = await readPage(buildId, after);
    rows.push(...page);
    if (page.length < ELEMENTS_PAGE) return rows;
    after = page.at(-1)!.position;
    await yieldToEventLoop();
  }
};

/** Up to ELEMENTS_PAGE elements of a build after position `after`, in position order. */
export const readPage = (buildId: string, after: number) =>
  db.element.findMany({
    where: { buildId, position: { gt: after } },
    orderBy: { position: "asc" },
    take: ELEMENTS_PAGE,
    select: SELECT,
  });

export type ElementText = Awaited<ReturnType<typeof readPage>>[number];

/**
 * The title of a build's document as documentTitle finds it in all its elements (its first Title with text, else the
 * file name), read without them.
 */
export const buildDocumentTitle = async (buildId: string, fileName: string) => {
  const [first] = await db.$queryRaw<{ text: string }[]>`
    SELECT text FROM elements WHERE build_id = ${buildId}::uuid AND element_type = 'Title' AND text ~ '[^[:space:]]'
    ORDER BY position LIMIT 1`;
  return documentTitle(first ? [{ elementType: "Title", text: first.text }] : [], fileName);
};
