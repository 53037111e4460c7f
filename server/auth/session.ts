import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { sessionFromHeaders } from "./auth";
import { hasAnyUser } from "./sign-up-gate";

/** The signed-in user of the page being rendered, or null. */
export const currentSession = async () => sessionFromHeaders(await headers());

/**
 * For the dashboard's pages: the signed-in user, or off to sign-in (or to creating the owner on a fresh install).
 * Pages only decide where to send a visitor; every piece of data still goes through the procedures' role checks.
 */
export const requireSession = async (next?: string) => {
  const session = await currentSession();
  if (session) return session;
  if (!(await hasAnyUser())) redirect("/setup");
  redirect(next ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in");
};
