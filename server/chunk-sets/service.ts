import { db } from "../db";

/**
 * Chunk sets (see the ChunkSet model in prisma/schema/): what retrieval scopes by. A source's build opens one
 * when it chunks, and indexing the build makes it the source's only searchable set.
 */

/** Longer titles and headings are cut: they are search context, not content. */
const MAX_CONTEXT_CHARS = 300;

/** The chunk set a source build writes its chunks into: created on first use, reset to "building" on a retry. */
export const openBuildChunkSet = async ({
  projectId,
  sourceId,
  buildId,
  config,
}: {
  projectId: string;
  sourceId: string;
  buildId: string;
  config: Record<string, unknown>;
}) =>
  db.chunkSet.upsert({
    where: { buildId },
    create: { projectId, sourceId, buildId, ownerKind: "source_build", config: config as object },
    update: { status: "building" },
  });

/**
 * The statements (for one transaction) that make a build's chunk set the source's searchable one, or with
 * `indexed` false leave the source with none: every other source-build set of the source leaves search at once
 * (status "building", which searches skip); retiredChunkSets names them for deletion after the transaction. One
 * DELETE of a 100 MB build's chunks held the embedded database for everyone while it ran.
 */
type BuildChunkSetRef = { sourceId: string; buildId: string; indexed: boolean };

/** The source's other source-build sets: all of them when the build is not indexed, else all but the build's own. */
const otherBuildSets = ({ sourceId, buildId, indexed }: BuildChunkSetRef) => ({
  sourceId,
  ownerKind: "source_build",
  ...(indexed ? { NOT: { buildId } } : {}),
});

export const activateBuildChunkSet = (ref: BuildChunkSetRef) => [
  db.chunkSet.updateMany({
    where: { buildId: ref.buildId, sourceId: ref.sourceId },
    data: { status: ref.indexed ? "ready" : "building" },
  }),
  db.chunkSet.updateMany({ where: otherBuildSets(ref), data: { status: "building" } }),
];

/** The source-build sets of a source that activateBuildChunkSet took out of search, to delete. */
export const retiredChunkSets = async (ref: BuildChunkSetRef) =>
  db.chunkSet.findMany({ where: { ...otherBuildSets(ref), status: "building" }, select: { id: true } });

type ElementForContext = { elementType: string; text: string };

const clean = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, MAX_CONTEXT_CHARS);

/**
 * The title of a document: its first Title element, else the file name without its extension. (The first Title is
 * usually the document's own title; in a file that opens with a section heading, that heading stands in for it.)
 */
export const documentTitle = (elements: ElementForContext[], fileName: string): string => {
  const first = elements.find((e) => e.elementType === "Title" && e.text.trim());
  return clean(first ? first.text : fileName.replace(/\.[^./]*$/, ""));
};

/**
 * For each element, the text of the last Title at or before it: the heading of the section it is in (`before`: the
 * heading in force before the first element, for a document read in windows).
 */
export const sectionHeadings = (elements: ElementForContext[], before = ""): string[] => {
  let current = before;
  return elements.map((e) => {
    if (e.elementType === "Title" && e.text.trim()) current = clean(e.text);
    return current;
  });
};

/** A chunk's heading, left empty when it only repeats the document title. */
export const chunkHeading = (heading: string | undefined, title: string) => {
  const value = clean(heading ?? "");
  return value === title ? "" : value;
};

/** What a chunk's vector is computed from: its document title and section heading give the text its context. */
export const embeddingInput = ({ title, heading, text }: { title: string; heading: string; text: string }) =>
  [title, heading, text].filter(Boolean).join("\n");

/** The searchable chunk sets of the sources' own (indexed) builds: what a node fed straight by a dataset reads. */
export const sourceChunkSets = async (projectId: string, sourceIds: string[]) =>
  (
    await db.chunkSet.findMany({
      where: { projectId, sourceId: { in: sourceIds }, ownerKind: "source_build", status: "ready" },
      select: { id: true },
    })
  ).map((s) => s.id);
