import { latestSuccessfulBuild } from "../ingestion/builds";
import { db } from "../db";
import { AppError } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { pageImagesRefusal, screenshotKind } from "./screenshot";
import { findSource } from "./service";

/**
 * The element viewer's data: a source's elements page by page, with their boxes in page coordinates (the client
 * scales them onto the page image), and one element in full when it is clicked.
 */

type Box = { left: number; top: number; width: number; height: number };
type Layout = { width: number; height: number };

const asBox = (value: unknown): Box | null => {
  const v = value as Partial<Box> | null;
  return v && [v.left, v.top, v.width, v.height].every((n) => typeof n === "number" && Number.isFinite(n))
    ? (v as Box)
    : null;
};

const asLayout = (value: unknown): Layout | null => {
  const v = value as Partial<Layout> | null;
  return v && typeof v.width === "number" && typeof v.height === "number" && v.width > 0 && v.height > 0
    ? (v as Layout)
    : null;
};

const PREVIEW_CHARS = 280;

const sourceAndBuild = async ({ projectId, sourceId }: { projectId: string; sourceId: string }) => {
  const source = await findSource({ projectId, fileId: sourceId });
  if (!source) throw new AppError("NOT_FOUND", "Source not found");
  const build = await latestSuccessfulBuild({ projectId, sourceId: source.id });
  return { source, build };
};

export const viewerElements = async ({
  projectId,
  sourceId,
  pageNumber,
  type,
  page,
  pageSize,
  details,
}: {
  projectId: string;
  sourceId: string;
  pageNumber?: number;
  type?: string;
  page: number;
  pageSize: number;
  /** Whether the caller may read the server's reason when page images cannot be drawn (admins). */
  details: boolean;
}) => {
  const { source, build } = await sourceAndBuild({ projectId, sourceId });
  const pageImagesRefused = await pageImagesRefusal(source, details);
  const header = {
    source: { id: source.id, fileName: source.fileName, fileType: source.fileType, status: source.status },
    hasPageImages: screenshotKind(source.fileType) !== null && source.storageKey !== null && !pageImagesRefused,
    pageImagesRefused: pageImagesRefused && { message: pageImagesRefused.message, detail: pageImagesRefused.detail },
  };
  if (!build) return { ...header, buildId: null, pages: [], types: [], total: 0, items: [] };

  const scope = { projectId, buildId: build.id };
  const where: Prisma.ElementWhereInput = {
    ...scope,
    ...(pageNumber ? { pageNumber } : {}),
    ...(type ? { elementType: type } : {}),
  };
  const [pages, types, total, rows] = await Promise.all([
    db.element.groupBy({ by: ["pageNumber"], where: scope, _count: true, orderBy: { pageNumber: "asc" } }),
    db.element.groupBy({ by: ["elementType"], where: scope, _count: true, orderBy: { elementType: "asc" } }),
    db.element.count({ where }),
    db.element.findMany({
      where,
      orderBy: { position: "asc" },
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: { elementId: true, elementType: true, text: true, pageNumber: true, boundingBox: true, pageLayout: true },
    }),
  ]);
  return {
    ...header,
    buildId: build.id,
    pages: pages.flatMap((p) => (p.pageNumber === null ? [] : [{ pageNumber: p.pageNumber, count: p._count }])),
    types: types.map((t) => ({ type: t.elementType, count: t._count })),
    total,
    items: rows.map((e) => ({
      elementId: e.elementId,
      type: e.elementType,
      preview: e.text.length > PREVIEW_CHARS ? `${e.text.slice(0, PREVIEW_CHARS)}…` : e.text,
      pageNumber: e.pageNumber,
      box: asBox(e.boundingBox),
      layout: asLayout(e.pageLayout),
    })),
  };
};

/** One element with everything the detail panel shows: text, html tables, the picture, metadata, enrichment. */
export const viewerElement = async ({
  projectId,
  sourceId,
  elementId,
}: {
  projectId: string;
  sourceId: string;
  elementId: string;
}) => {
  const { build } = await sourceAndBuild({ projectId, sourceId });
  const element = build
    ? await db.element.findFirst({ where: { projectId, sourceId, buildId: build.id, elementId } })
    : null;
  if (!element) throw new AppError("NOT_FOUND", "Element not found");
  return {
    elementId: element.elementId,
    type: element.elementType,
    text: element.text,
    html: element.html,
    imgBase64: element.imgBase64,
    pageNumber: element.pageNumber,
    position: element.position,
    box: asBox(element.boundingBox),
    layout: asLayout(element.pageLayout),
    pageAnnotation: element.pageAnnotation,
    pageKeywords: element.pageKeywords,
    pageTopics: element.pageTopics,
    metadata: element.metadata as Record<string, unknown>,
  };
};
