import { expect, test } from "@playwright/test";
import { createInvitation, joinByInvitation } from "../helpers/dashboard";
import { watchProblems } from "../helpers/layout";
import { checkScreen, JOURNEY_SIZES } from "../helpers/screen";

/**
 * Password resets in the browser, at a laptop's and a phone's size. This install sends no mail, so "Forgot password"
 * (linked from sign-in) says to ask an admin; the owner issues a one-time link for a new member from the members
 * page (shown once, with a copy button), the member sets a new password with it, and the link then says it no longer
 * works. The member is new and in a browser of their own: the owner's session is the one every other spec uses. Every
 * screen on the way fits the window, has no console error or failed request, and no serious axe violation.
 */

for (const size of JOURNEY_SIZES) {
  test(`an admin-issued link resets a member's password (${size.width}×${size.height})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(150_000);
    const email = `reset-${size.width}-${Date.now()}@e2e.test`;
    await page.setViewportSize(size);
    const problems = watchProblems(page);

    // The owner invites a member, who makes an account in a browser of their own: at the default size (the header's
    // account link is in a menu on a phone), then the member's page takes the size under test.
    const invitation = await createInvitation(page, "member");
    const member = await joinByInvitation(browser, invitation, {
      name: "Rita Reset",
      email,
      password: "member-password-1",
    });
    await expect(member.getByRole("link", { name: `Account of ${email}` })).toBeVisible();
    await member.context().clearCookies();
    await member.setViewportSize(size);

    // Without SMTP, "Forgot password" on the sign-in page tells the member to ask an admin.
    await member.goto("/sign-in");
    // From here on (the signed-out dashboard tab's last polls before this navigation may have answered 401).
    const memberProblems = watchProblems(member);
    await member.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(member.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
    await expect(member.getByText("Ask an admin of your team for a password reset link")).toBeVisible();
    await checkScreen(member, memberProblems, "forgot password");

    // The owner issues a link from the members page: shown once, with a copy button.
    await page.reload();
    await page.getByRole("button", { name: `Reset link for ${email}` }).click();
    const linkText = page.getByLabel("Reset link", { exact: true });
    await expect(linkText).toContainText("/reset-password/");
    await expect(page.getByRole("button", { name: "Copy link" }).first()).toBeVisible();
    // The notice fits the screen (the members page's other parts are another slice's layout work).
    const box = (await page.getByText(`Password reset link for ${email}`).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(size.width);
    const link = (await linkText.textContent())!.trim();
    await checkScreen(page, problems, "members with a reset link");

    // The member sets a new password with it; the link then no longer works.
    await member.goto(link);
    const form = member.getByRole("form", { name: "Choose a new password" });
    await form.getByLabel("New password", { exact: true }).fill("member-password-2");
    await form.getByLabel("New password again").fill("member-password-3");
    await form.getByRole("button", { name: "Set new password" }).click();
    await expect(form.getByText("The two passwords differ")).toBeVisible();
    await checkScreen(member, memberProblems, "reset with passwords that differ");
    await form.getByLabel("New password again").fill("member-password-2");
    await form.getByRole("button", { name: "Set new password" }).click();
    await expect(member.getByRole("status")).toContainText("Your password was changed.");
    await checkScreen(member, memberProblems, "password reset");

    const headers = { Origin: baseURL! };
    const signIn = (password: string) =>
      member.request.post("/api/auth/sign-in/email", { data: { email, password }, headers });
    expect((await signIn("member-password-1")).status()).toBe(401);
    expect((await signIn("member-password-2")).status()).toBe(200);

    await member.goto(link);
    await expect(member.getByRole("heading", { name: "This reset link no longer works" })).toBeVisible();
    await expect(member.getByText("This link has expired or was already used")).toBeVisible();
    await checkScreen(member, memberProblems, "a used reset link");
    expect(problems).toEqual([]);
    await member.context().close();
  });
}
