import { db } from "../db";
import { AppError } from "../errors";

const PROJECT_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,62}$/;

export const assertProjectName = (name: string) => {
  if (!PROJECT_NAME.test(name)) {
    throw new AppError(
      "BAD_REQUEST",
      "Project names are 1-63 characters: letters, digits, spaces, '.', '_' or '-', starting with a letter or digit",
    );
  }
};

export const getProject = async (projectId: string) => {
  const project = await db.project.findUnique({ where: { id: projectId } });
  if (!project) throw new AppError("NOT_FOUND", "Project not found");
  return project;
};

/** Returns the project with that name, creating it when missing (idempotent under concurrent calls). */
export const ensureProject = async (name: string) => {
  assertProjectName(name);
  return db.project.upsert({ where: { name }, create: { name }, update: {} });
};

export const listProjects = () => db.project.findMany({ orderBy: { createdAt: "asc" } });
