import { expect, type Browser, type Page } from "@playwright/test";

/** A dashboard tRPC call from a signed-in page (setup only: what a test is about goes through the UI). */
export const trpc = async <T>(page: Page, path: string, input: unknown, method: "query" | "mutation" = "mutation") => {
  const origin = new URL(page.url()).origin;
  const res =
    method === "query"
      ? await page.request.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`)
      : await page.request.post(`/api/trpc/${path}`, { data: { json: input }, headers: { Origin: origin } });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return ((await res.json()) as { result: { data: { json: T } } }).result.data.json;
};

/** The owner makes an invitation link for `role` in the default team, from the projects page. */
export const createInvitation = async (owner: Page, role: "admin" | "member" | "viewer") => {
  await owner.goto("/");
  await owner
    .getByRole("region", { name: "Team Default team" })
    .getByRole("link", { name: "Members and invitations" })
    .click();
  const invite = owner.getByRole("form", { name: "Create invitation" });
  await invite.getByLabel("Role").selectOption(role);
  await invite.getByRole("button", { name: "Create invitation link" }).click();
  return (await owner.getByLabel("Invitation link").textContent())!.trim();
};

type Account = { name: string; email: string; password: string };

/** A page in a browser context of its own, signed out (someone new), at `viewport` when given. */
export const newGuestPage = async (browser: Browser, viewport?: { width: number; height: number }) => {
  const context = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    ...(viewport && { viewport }),
  });
  return context.newPage();
};

/** On an open invitation page: creates the account and waits for the projects list. */
export const signUpByInvitation = async (page: Page, account: Account) => {
  const signUp = page.getByRole("form", { name: "Create your account" });
  await signUp.getByLabel("Name").fill(account.name);
  await signUp.getByLabel("Email").fill(account.email);
  await signUp.getByLabel("Password").fill(account.password);
  await signUp.getByRole("button", { name: "Create account and join" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible({ timeout: 30_000 });
};

/**
 * Someone new opens an invitation link in a browser of their own and creates an account; returns their signed-in
 * page on the projects list. `beforeSignUp` sees the invitation page first.
 */
export const joinByInvitation = async (
  browser: Browser,
  link: string,
  account: Account,
  beforeSignUp?: (page: Page) => Promise<void>,
) => {
  const page = await newGuestPage(browser);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Join Default team" })).toBeVisible();
  await beforeSignUp?.(page);
  await signUpByInvitation(page, account);
  return page;
};
