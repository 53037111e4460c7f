import { z } from "zod";

/** Project names as the server accepts them (isomorphic: the dashboard's form validates with it too). */
export const ProjectName = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,62}$/,
    "1-63 characters: letters, digits, spaces, '.', '_' or '-', starting with a letter or digit",
  );

/** The detail of every refused call (409) on a project being deleted: its API tokens, and changes in the dashboard. */
export const PROJECT_DELETING_DETAIL = "This project is being deleted";

/** The confirmation the dashboard asks for: the project's name, typed exactly. */
export const DeleteProjectInput = z.object({ projectId: z.uuid(), confirmName: z.string().max(200) });
