import { expect, test } from "@playwright/test";
import { pdfDoc } from "../../server/testing/fixtures";
import { followCitation } from "../helpers/chat";
import { watchProblems } from "../helpers/layout";
import { createProject, uploadSources } from "../helpers/project";
import { checkScreen, JOURNEY_SIZES, openProjectLink } from "../helpers/screen";

/**
 * The chat playground: pick a source, ask, continue, start over, and follow a citation to its page beside the chat. At
 * a laptop's and a phone's size, every screen on the way fits the window, has no console error or failed request, and
 * no serious axe violation.
 */
for (const viewport of JOURNEY_SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("the chat playground: pick a source, ask, follow a citation to its page, continue and start over", async ({
      page,
    }) => {
      test.setTimeout(240_000);
      const problems = watchProblems(page);
      await createProject(page, `chat-${Date.now()}`);
      await uploadSources(page, [
        {
          name: "sandstone-report.pdf",
          text: await pdfDoc({ pages: 2, title: "Sandstone Report" }),
          mimeType: "application/pdf",
        },
        { name: "basalt.md", text: "# Basalt\n\nBasalt columns cool into hexagons. Lava cools fast at the surface.\n" },
      ]);
      await checkScreen(page, problems, "sources to chat with");

      await openProjectLink(page, "Chat");
      await expect(page.getByRole("heading", { level: 1, name: "Chat" })).toBeVisible();
      await checkScreen(page, problems, "an empty chat");
      await page.getByRole("checkbox", { name: "sandstone-report.pdf" }).check();
      await page.getByLabel("Thinking level").selectOption("fast");
      await page.getByLabel("Question", { exact: true }).fill("What do quarry operators test each block for?");
      await page.getByRole("button", { name: "Ask" }).click();

      const conversation = page.getByRole("list", { name: "Conversation" });
      await expect(conversation.getByText("quarry-extractive")).toBeVisible({ timeout: 30_000 });
      await expect(conversation).toContainText("test each block for strength");
      const citations = conversation.getByRole("list", { name: "Citations" }).first();
      await expect(citations).toContainText("sandstone-report.pdf, page");
      // Only the picked source is cited.
      await expect(citations).not.toContainText("basalt.md");
      await checkScreen(page, problems, "chat with a cited answer");

      // A follow-up in the same conversation, then a fresh one.
      await page.getByLabel("Follow-up question").fill("How do basalt columns cool?");
      await page.getByRole("checkbox", { name: "sandstone-report.pdf" }).uncheck();
      await page.getByRole("button", { name: "Ask" }).click();
      await expect(conversation.getByRole("listitem").filter({ hasText: "How do basalt columns cool?" })).toContainText(
        "Basalt columns cool into hexagons.",
        { timeout: 30_000 },
      );
      await checkScreen(page, problems, "chat with a follow-up");
      await page.getByRole("button", { name: "New conversation" }).click();
      await expect(page.getByText("Ask your documents a question")).toBeVisible();
      await checkScreen(page, problems, "a new conversation");

      // Ask again and follow the citation marker to the element viewer at its page.
      await page.getByRole("checkbox", { name: "sandstone-report.pdf" }).check();
      await page.getByLabel("Question", { exact: true }).fill("What do quarry operators test each block for?");
      await page.getByRole("button", { name: "Ask" }).click();
      // It opens beside the chat.
      const { viewer, viewerProblems } = await followCitation(page, conversation, "sandstone-report.pdf");
      await expect(viewer).toHaveURL(/\/sources\/[0-9a-f-]{36}\?page=\d+&element=[0-9a-f]{32}/);
      await expect(viewer.getByRole("article", { name: "Element details" })).toBeVisible();
      await checkScreen(viewer, viewerProblems, "a cited page beside the chat");
      await expect(conversation).toContainText("test each block for strength");
      expect(problems).toEqual([]);
    });
  });
}
