import { getAuth } from "@/server/auth/auth";

export const dynamic = "force-dynamic";

/** Better Auth's endpoints: sign-up, sign-in, sign-out, sessions, OAuth callbacks (its own Origin/CSRF checks apply). */
const handler = async (req: Request) => (await getAuth()).handler(req);

export { handler as GET, handler as POST };
