import { expect, test, type APIRequestContext } from "@playwright/test";
import { createInvitation, joinByInvitation } from "../helpers/dashboard";
import { watchProblems } from "../helpers/layout";
import { checkScreen, JOURNEY_SIZES, openMenu } from "../helpers/screen";

/**
 * A user changes their password from the Account page (the header's email links there; on a phone it sits in the
 * header's Menu): a mismatch and a wrong current password are refused with a reason, the new password signs in and
 * the old one no longer does. The user is a new member in a browser of their own: a change signs out the user's other
 * sessions, and the owner's session is the one every other spec uses. At a laptop's and a phone's size, every screen
 * on the way fits the window, has no console error or failed request, and no serious axe violation.
 */

const signIn = async (request: APIRequestContext, baseURL: string, email: string, password: string) =>
  (await request.post("/api/auth/sign-in/email", { data: { email, password }, headers: { Origin: baseURL } })).status();

for (const viewport of JOURNEY_SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("a member changes their password and signs in with the new one", async ({
      page,
      browser,
      playwright,
      baseURL,
    }) => {
      test.setTimeout(90_000);
      const email = `account-${viewport.width}-${Date.now()}@e2e.test`;
      const original = "member-password-1";
      const next = "member-password-2";

      // The owner invites a member, who creates an account in their own browser, at the size under test.
      const link = await createInvitation(page, "member");
      const member = await joinByInvitation(browser, link, { name: "Ada Account", email, password: original });
      await member.setViewportSize(viewport);
      // The wrong current password is refused on purpose (4xx from the auth endpoint).
      const problems = watchProblems(
        member,
        (url, status) => status < 500 && url.includes("/api/auth/change-password"),
      );
      await openMenu(member);
      await member.getByRole("link", { name: `Account of ${email}` }).click();
      await expect(member.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
      await checkScreen(member, problems, "account");
      const form = member.getByRole("form", { name: "Change password" });
      const change = async (current: string, password: string, repeat = password) => {
        await form.getByLabel("Current password").fill(current);
        await form.getByLabel("New password", { exact: true }).fill(password);
        await form.getByLabel("New password again").fill(repeat);
        await form.getByRole("button", { name: "Change password" }).click();
      };

      await change(original, next, `${next}x`);
      await expect(form.getByText("The two new passwords differ")).toBeVisible();
      await change("not-my-password", next);
      await expect(form.getByRole("alert")).toContainText(/password/i);
      await checkScreen(member, problems, "account with a refused change");
      await change(original, next);
      await expect(form.getByRole("status")).toHaveText("Your password was changed.");
      await checkScreen(member, problems, "account after a change");

      const fresh = await playwright.request.newContext({ baseURL });
      expect(await signIn(fresh, baseURL!, email, original)).toBe(401);
      expect(await signIn(fresh, baseURL!, email, next)).toBe(200);
      await fresh.dispose();
      await member.context().close();
    });
  });
}
