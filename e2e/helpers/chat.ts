import { expect, type Locator, type Page } from "@playwright/test";
import { watchProblems } from "./layout";

/**
 * Follows the conversation's first "[1]" citation, which opens the cited source in a tab beside the chat (issue 30:
 * following it in the same tab lost the conversation). The new tab's problems are watched from its first event on;
 * returns once the tab shows `fileName` as its heading (its page loads its source first, slow on a loaded machine).
 */
export const followCitation = async (page: Page, conversation: Locator, fileName: string) => {
  const [opened] = await Promise.all([
    page
      .context()
      .waitForEvent("page")
      .then((viewer) => ({ viewer, viewerProblems: watchProblems(viewer) })),
    conversation.getByRole("link", { name: "[1]" }).first().click(),
  ]);
  await expect(opened.viewer.getByRole("heading", { level: 1, name: fileName })).toBeVisible({ timeout: 30_000 });
  return opened;
};
