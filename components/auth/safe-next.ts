/** Only same-site paths are followed after sign-in, so a crafted link cannot send the user elsewhere. */
export const safeNext = (next: string | null | undefined) =>
  next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
