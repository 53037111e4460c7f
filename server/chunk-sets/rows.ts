import type { Chunk } from "../chunking/types";
import { chunkHeading, documentTitle, sectionHeadings } from "./service";

/**
 * Chunk rows of one document: each chunk carries its document's title and its section's heading for keyword search
 * and embedding. Shared by source builds and flow chunking nodes. A document chunked a window at a time passes its
 * title, the heading in force before the window's first element and the position of its first chunk.
 */
export const chunkRows = <Base extends object>({
  rows,
  chunks,
  fileName,
  base,
  title = documentTitle(rows, fileName),
  headingBefore = "",
  firstPosition = 0,
}: {
  rows: { elementId: string; elementType: string; text: string }[];
  chunks: Chunk[];
  fileName: string;
  base: Base;
  title?: string;
  headingBefore?: string;
  firstPosition?: number;
}) => {
  const headings = sectionHeadings(rows, headingBefore);
  return chunks.map((chunk, i) => {
    const firstIndex = chunk.elementIndexes[0] ?? -1;
    const first = rows[firstIndex];
    const section = typeof chunk.metadata.section_title === "string" ? chunk.metadata.section_title : undefined;
    return {
      ...base,
      position: firstPosition + i,
      text: chunk.text,
      title,
      heading: chunkHeading(section ?? headings[firstIndex], title),
      pageNumber: chunk.pageNumber,
      elementIds: chunk.elementIndexes.map((j) => rows[j]?.elementId).filter((id): id is string => Boolean(id)),
      metadata: { ...chunk.metadata, element_type: first?.elementType ?? null },
    };
  });
};
