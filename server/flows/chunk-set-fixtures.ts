import type { ChunkingConfig } from "./node-kinds";

/** Test fixture of the flow chunk set tests (chunk-set-claims.int, chunk-set-race.pg). */

const PARAGRAPHS = Array.from({ length: 12 }, (_, i) => `Basalt column ${i} cooled into a hexagonal prism.`);

/** A source with a completed build of a dozen paragraphs, and the input that chunks it. */
export const builtSource = async (name: string) => {
  const { db } = await import("../db");
  const { ensureProject } = await import("../projects/service");
  const { parseNodeConfig } = await import("./node-kinds");
  const { ensureFlowChunkSet } = await import("./chunk-sets");
  const project = await ensureProject(name);
  const source = await db.source.create({
    data: { projectId: project.id, fileName: "basalt.txt", fileType: "txt", fileSize: 100, fileSource: "local file" },
  });
  const build = await db.build.create({
    data: { projectId: project.id, sourceId: source.id, method: "fast", status: "Completed" },
  });
  await db.element.createMany({
    data: PARAGRAPHS.map((text, position) => ({
      projectId: project.id,
      sourceId: source.id,
      buildId: build.id,
      elementId: position.toString(16).padStart(32, "0"),
      position,
      elementType: "NarrativeText",
      text,
    })),
  });
  const input = {
    projectId: project.id,
    sourceId: source.id,
    config: parseNodeConfig("chunking", { chunkSize: 60, chunkOverlap: 0 }) as ChunkingConfig,
  };
  return { input, ensureFlowChunkSet };
};
