import { db } from "../../db";
import { AppError } from "../../errors";
import { enterStep, stepDone } from "../step-progress";

/**
 * First step of an index build (POST /index) in place of parsing: a copy of the parent build's elements, enrichment
 * included, under the same element ids. Parsing is not repeated; the parent's rows go when this build finalizes,
 * as any older build's do.
 */
export const reuseParentElements = async (buildId: string) => {
  const build = await db.build.findUnique({ where: { id: buildId } });
  if (!build) return null;
  const parent = build.parentBuildId ? await db.build.findUnique({ where: { id: build.parentBuildId } }) : null;
  if (!parent) throw new AppError("UNPROCESSABLE", "The build to index no longer exists; reprocess the source");
  const available = await db.element.count({ where: { buildId: parent.id } });
  if (available === 0 && (parent.totalPartitions ?? 0) > 0) {
    throw new AppError("UNPROCESSABLE", "The elements of the build to index were replaced by a newer build");
  }
  await db.$transaction([
    enterStep(buildId, "partition"),
    db.element.deleteMany({ where: { buildId } }),
    db.$executeRaw`
      INSERT INTO elements (id, project_id, source_id, build_id, element_id, position, element_type, text, markdown,
                            html, img_base64, page_number, bounding_box, page_layout, page_annotation, page_keywords,
                            page_topics, metadata)
      SELECT gen_random_uuid(), project_id, source_id, ${buildId}::uuid, element_id, position, element_type, text,
             markdown, html, img_base64, page_number, bounding_box, page_layout, page_annotation, page_keywords,
             page_topics, metadata
      FROM elements WHERE build_id = ${parent.id}::uuid`,
    db.build.update({
      where: { id: buildId },
      data: {
        totalPartitions: parent.totalPartitions,
        totalPages: parent.totalPages,
        warnings: parent.warnings,
        documentAnnotation: parent.documentAnnotation,
        ...stepDone("partition"),
      },
    }),
  ]);
  return { elements: available, parentBuildId: parent.id };
};
