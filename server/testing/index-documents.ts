import { db } from "../db";
import { elementIdFor } from "../ids";
import { chunkBuild } from "../ingestion/steps/chunk";
import { embedBuild } from "../ingestion/steps/embed";
import { finalizeBuild } from "../ingestion/steps/finalize";
import { indexBuild } from "../ingestion/steps/index";
import { partitionDocument } from "../parsing/partition";

/**
 * A document parsed in process by Quarry's parser for its type (the code the parse worker runs), stored as a source
 * with a build at its chunk step and the build's elements — what the partition step leaves behind.
 */
export const storeParsedDocument = async (
  projectId: string,
  { fileName, content }: { fileName: string; content: string },
) => {
  const fileType = fileName.split(".").pop() ?? "txt";
  const bytes = new TextEncoder().encode(content);
  const { elements } = await partitionDocument({ bytes, fileName, fileType, method: "basic" });
  const source = await db.source.create({
    data: { projectId, fileName, fileType, fileSize: bytes.length, fileSource: "local file", status: "Processing" },
  });
  const build = await db.build.create({
    data: { projectId, sourceId: source.id, method: "basic", enrichment: "none", status: "Processing" },
  });
  await db.element.createMany({
    data: elements.map((el, position) => ({
      projectId,
      sourceId: source.id,
      buildId: build.id,
      position,
      elementId: elementIdFor(build.id, position),
      elementType: el.type,
      text: el.text,
      markdown: el.markdown ?? null,
      html: el.html ?? null,
      pageNumber: el.pageNumber,
      metadata: (el.metadata ?? {}) as object,
    })),
  });
  return { sourceId: source.id, buildId: build.id };
};

/**
 * Indexes documents the way a build does, minus the upload and the job runner: each is parsed and stored
 * (storeParsedDocument), then the pipeline's own chunk, embed, index and finalize steps run. For retrieval tests and
 * the retrieval bench, where thousands of documents through the HTTP API would take hours.
 */
export const indexDocuments = async ({
  projectId,
  documents,
}: {
  projectId: string;
  documents: { fileName: string; content: string }[];
}): Promise<{ sourceId: string; fileName: string }[]> => {
  const indexed: { sourceId: string; fileName: string }[] = [];
  for (const document of documents) {
    const { sourceId, buildId } = await storeParsedDocument(projectId, document);
    await chunkBuild(buildId);
    await embedBuild(buildId);
    await indexBuild(buildId);
    await finalizeBuild(buildId);
    indexed.push({ sourceId, fileName: document.fileName });
  }
  return indexed;
};
