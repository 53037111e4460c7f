import { z } from "zod";

/** Project names as the server accepts them (isomorphic: the dashboard's form validates with it too). */
export const ProjectName = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,62}$/,
    "1-63 characters: letters, digits, spaces, '.', '_' or '-', starting with a letter or digit",
  );
