import { createApiToken, hashToken } from "./auth/api-tokens";
import { getAuth } from "./auth/auth";
import { hasAnyUser } from "./auth/sign-up-gate";
import { db } from "./db";
import { env } from "./env";
import { ensureProject, listProjects } from "./projects/service";

export type BootstrapResult =
  | { kind: "init-token"; projectName: string; created: boolean }
  | { kind: "first-start"; projectName: string; token: string }
  | { kind: "existing" };

/**
 * First start. With QUARRY_INIT_TOKEN, that token (all permissions) and its project exist afterwards, so scripts
 * can call the API at once; without it, an empty database gets a default project and a fresh token, shown once.
 */
export const bootstrap = async (): Promise<BootstrapResult> => {
  const initToken = env.QUARRY_INIT_TOKEN;
  if (initToken) {
    if (!/^qry_[0-9A-Za-z]{20,}$/.test(initToken)) {
      throw new Error("QUARRY_INIT_TOKEN must look like qry_ followed by at least 20 letters or digits");
    }
    // Once made, the token keeps its project, also after an admin renamed it (it is not made again by name).
    const existing = await db.apiToken.findUnique({
      where: { hashedToken: hashToken(initToken) },
      include: { project: true },
    });
    if (existing) return { kind: "init-token", projectName: existing.project.name, created: false };
    const project = await ensureProject(env.QUARRY_INIT_PROJECT);
    await createApiToken({ projectId: project.id, name: "init token", token: initToken });
    return { kind: "init-token", projectName: project.name, created: true };
  }
  if ((await listProjects()).length > 0) return { kind: "existing" };
  const project = await ensureProject(env.QUARRY_INIT_PROJECT);
  const { token } = await createApiToken({ projectId: project.id, name: "first-start token" });
  return { kind: "first-start", projectName: project.name, token };
};

export type OwnerBootstrap = { kind: "exists" } | { kind: "created"; email: string } | { kind: "needs-setup" };

/**
 * The install's first owner. With QUARRY_ADMIN_EMAIL and QUARRY_ADMIN_PASSWORD it is created headless (through the
 * same sign-up path as the browser, so it owns the default team and its projects); without them the first browser
 * visit offers to create it. Once any account exists, this does nothing (it never resets a password).
 */
export const bootstrapOwner = async (): Promise<OwnerBootstrap> => {
  if (await hasAnyUser()) return { kind: "exists" };
  const email = env.QUARRY_ADMIN_EMAIL;
  const password = env.QUARRY_ADMIN_PASSWORD;
  if (!email || !password) {
    if (email || password) throw new Error("Set both QUARRY_ADMIN_EMAIL and QUARRY_ADMIN_PASSWORD, or neither");
    return { kind: "needs-setup" };
  }
  const auth = await getAuth();
  await auth.api.signUpEmail({
    body: { email, password, name: email.split("@")[0] ?? "Owner" },
    // No browser request here; the address only names the instance for Better Auth.
    headers: new Headers({ host: `localhost:${env.PORT}` }),
  });
  return { kind: "created", email };
};
