import { expect, test, type APIRequestContext } from "@playwright/test";

/**
 * A signed-in user changes their password from the Account page (the header's email links there): a wrong current
 * password and a mismatch are refused with a reason, the new password signs in and the old one no longer does. The
 * owner's password is changed back at the end, since other specs sign in with it.
 */

const email = process.env.E2E_OWNER_EMAIL!;
const original = process.env.E2E_OWNER_PASSWORD!;

const signIn = async (request: APIRequestContext, baseURL: string, password: string) =>
  (await request.post("/api/auth/sign-in/email", { data: { email, password }, headers: { Origin: baseURL } })).status();

test("the owner changes their password and signs in with the new one", async ({ page, playwright, baseURL }) => {
  await page.goto("/");
  await page.getByRole("link", { name: `Account of ${email}` }).click();
  await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "Change password" });
  const change = async (current: string, next: string, repeat = next) => {
    await form.getByLabel("Current password").fill(current);
    await form.getByLabel("New password", { exact: true }).fill(next);
    await form.getByLabel("New password again").fill(repeat);
    await form.getByRole("button", { name: "Change password" }).click();
  };
  const next = `${original}-new`;

  await change(original, next, `${next}x`);
  await expect(form.getByText("The two new passwords differ")).toBeVisible();
  await change("not-my-password", next);
  await expect(form.getByRole("alert")).toContainText(/password/i);
  await change(original, next);
  await expect(form.getByRole("status")).toHaveText("Your password was changed.");
  try {
    const fresh = await playwright.request.newContext({ baseURL });
    expect(await signIn(fresh, baseURL!, original)).toBe(401);
    expect(await signIn(fresh, baseURL!, next)).toBe(200);
    await fresh.dispose();
    // This page's session was kept; the password goes back for the specs after this one.
    await change(next, original);
    await expect(form.getByRole("status")).toHaveText("Your password was changed.");
  } finally {
    // Whatever failed above, the owner's password is the one the other specs sign in with (a no-op when restored).
    await page.request.post("/api/auth/change-password", {
      data: { currentPassword: next, newPassword: original },
      headers: { Origin: baseURL! },
    });
  }
});
