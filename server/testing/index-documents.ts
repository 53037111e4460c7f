import { db } from "../db";
import { elementIdFor } from "../ids";
import { chunkBuild } from "../ingestion/steps/chunk";
import { embedBuild } from "../ingestion/steps/embed";
import { finalizeBuild } from "../ingestion/steps/finalize";
import { indexBuild } from "../ingestion/steps/index";
import { partitionDocument } from "../parsing/partition";

/**
 * Indexes documents the way a build does, minus the upload and the job runner: the file is parsed in process by
 * Quarry's parser for its type (the code the parse worker runs), its elements stored, then the pipeline's own chunk,
 * embed, index and finalize steps run. For retrieval tests and the retrieval bench, where thousands of documents
 * through the HTTP API would take hours.
 */
export const indexDocuments = async ({
  projectId,
  documents,
}: {
  projectId: string;
  documents: { fileName: string; content: string }[];
}): Promise<{ sourceId: string; fileName: string }[]> => {
  const indexed: { sourceId: string; fileName: string }[] = [];
  for (const { fileName, content } of documents) {
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
    await chunkBuild(build.id);
    await embedBuild(build.id);
    await indexBuild(build.id);
    await finalizeBuild(build.id);
    indexed.push({ sourceId: source.id, fileName });
  }
  return indexed;
};
