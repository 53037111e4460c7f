import { db } from "../db";
import type { Prisma } from "../generated/prisma/client";

export type ElementFilters = {
  type?: string;
  pageNumbers?: number[];
  elementIds?: string[];
  elementsToRemove?: string[];
};

export type Pagination = { page: number; pageSize: number } | null;

const whereFor = ({ projectId, buildId, filters }: { projectId: string; buildId: string; filters: ElementFilters }) => {
  const where: Prisma.ElementWhereInput = { projectId, buildId };
  const typeFilter: Prisma.StringFilter = {};
  if (filters.type) typeFilter.equals = filters.type;
  if (filters.elementsToRemove?.length) typeFilter.notIn = filters.elementsToRemove;
  if (Object.keys(typeFilter).length) where.elementType = typeFilter;
  if (filters.pageNumbers?.length) where.pageNumber = { in: filters.pageNumbers };
  if (filters.elementIds?.length) where.elementId = { in: filters.elementIds };
  return where;
};

/** Elements of one build in document order, filtered, optionally one page of them. */
export const listElements = async ({
  projectId,
  buildId,
  filters = {},
  pagination = null,
  withImages = true,
}: {
  projectId: string;
  buildId: string;
  filters?: ElementFilters;
  pagination?: Pagination;
  withImages?: boolean;
}) => {
  const where = whereFor({ projectId, buildId, filters });
  const [total, items] = await Promise.all([
    db.element.count({ where }),
    db.element.findMany({
      where,
      orderBy: { position: "asc" },
      omit: withImages ? undefined : { imgBase64: true },
      ...(pagination ? { skip: (pagination.page - 1) * pagination.pageSize, take: pagination.pageSize } : {}),
    }),
  ]);
  return { total, items, totalPages: pagination ? Math.ceil(total / pagination.pageSize) : null };
};

export type ElementRow = Awaited<ReturnType<typeof listElements>>["items"][number];
