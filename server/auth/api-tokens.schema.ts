import { z } from "zod";

/** Token permissions of contract §1 (isomorphic copy of the Prisma enum, for the dashboard's form). */
export const TOKEN_PERMISSIONS = ["read", "write", "delete", "deploy"] as const;

export const CreateTokenInput = z.object({
  name: z.string().trim().min(1, "Name the token").max(80, "At most 80 characters"),
  permissions: z.array(z.enum(TOKEN_PERMISSIONS)).min(1, "Pick at least one permission"),
});
