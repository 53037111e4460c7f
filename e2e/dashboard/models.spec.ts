import { expect, test, type Page } from "@playwright/test";
import { startFakeChatServer, type FakeChatServer } from "../../server/testing/fake-chat-server";
import { trpc } from "../helpers/dashboard";
import { createFlow, RESPONSE_NODE, searchFlowGraph } from "../helpers/flow";
import { watchProblems } from "../helpers/layout";
import { createProject, defaultTeamId, openDefaultTeam, uploadSources } from "../helpers/project";
import { checkScreen, JOURNEY_SIZES, openProjectLink } from "../helpers/screen";

/**
 * Models in the dashboard: with no model configured, a flow's Response node shows the local extractive answerer
 * (not a model nothing serves); once an admin adds a stand-in provider, the node's picker lists its model with
 * "Default (…)" first, and the project's Models page sets the default the node then shows. At a laptop's and a
 * phone's size, every screen on the way fits the window, has no console error or failed request, and no serious axe
 * violation; on a phone the canvas is read-only, so the node's picker is shown but not changed there.
 */

// The app may reach this port (playwright.config.ts allows the stand-in ports).
const STANDIN_PORT = Number(process.env.E2E_PORT ?? 3107) + 1003;
const KEY = "sk-e2e-models-key-0123456789";

let standIn: FakeChatServer;

test.beforeAll(async () => {
  standIn = await startFakeChatServer({ port: STANDIN_PORT });
  standIn.setModels(["picker-chat"]);
  standIn.requireKey(KEY);
});

test.afterAll(async () => standIn?.close());

/** Every provider of this spec's ("Picker box …"), so a run stopped half-way leaves nothing the next run's picker lists. */
const removeOurProviders = async (page: Page) => {
  const teamId = await defaultTeamId(page);
  const list = "dashboard.modelProviders.list";
  const { providers } = await trpc<{ providers: { id: string; name: string }[] }>(page, list, { teamId }, "query");
  for (const { id } of providers.filter((p) => p.name.startsWith("Picker box ")))
    await trpc(page, "dashboard.modelProviders.remove", { teamId, providerId: id });
};

for (const viewport of JOURNEY_SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("a node shows the model that answers; the picker lists served models; the project's default applies; usage shows its calls", async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const phone = viewport.width < 768;
      // A provider of this size's own, removed at the end (and any a stopped run left, at the start), so the node's
      // picker lists exactly it.
      const box = `Picker box ${viewport.width}`;
      const problems = watchProblems(page);
      const projectId = await createProject(page, `models-${viewport.width}-${Date.now()}`);
      await removeOurProviders(page);
      await createFlow(page, { projectId, name: "model-check" }, searchFlowGraph({ fileIds: [] }));

      // 1. Nothing serves gpt-4o-mini here: the node says who answers instead.
      await page.goto(`/${projectId}/flows/model-check`);
      const node = page.locator(`.react-flow__node[data-id="${RESPONSE_NODE}"]`);
      // The label waits for the served-model list ("…" until then), which is slow on a loaded machine.
      await expect(node).toContainText("local extractive answerer · t=0", { timeout: 30_000 });
      await expect(node).not.toContainText("gpt-4o-mini");
      await checkScreen(page, problems, "flow with no model configured");

      // 2. An admin adds the stand-in as a provider and tests it, which lists its model.
      const team = await openDefaultTeam(page);
      await team.getByRole("link", { name: "Model providers" }).click();
      const add = page.getByRole("form", { name: "Add provider" });
      await add.getByLabel("Kind").selectOption("openai_compatible");
      await add.getByLabel("Name").fill(box);
      await add.getByLabel("Base URL").fill(`http://127.0.0.1:${STANDIN_PORT}/v1`);
      await add.getByLabel("API key").fill(KEY);
      await add.getByRole("button", { name: "Add provider" }).click();
      const providers = page.getByRole("table", { name: "Team providers" });
      const row = providers.getByRole("row", { name: new RegExp(box) });
      await row.getByRole("button", { name: `Test connection of ${box}` }).click();
      await expect(row.getByLabel(`Models of ${box}`)).toContainText("picker-chat");

      // 3. The node's picker: Default first, then what is served (on a phone, shown read-only).
      await page.goto(`/${projectId}/flows/model-check`);
      await node.click();
      const picker = page.getByRole("form", { name: "Response settings" }).getByLabel("Model");
      await expect(picker.locator("option")).toHaveText([
        "Default (local extractive answerer)",
        `picker-chat (${box})`,
      ]);
      await checkScreen(page, problems, "response settings with a served model");
      if (phone) {
        await expect(picker).toBeDisabled();
      } else {
        await picker.selectOption("picker-chat");
        await expect(node).toContainText(`picker-chat (${box}) · t=0`);
        await picker.selectOption("");
        await expect(node).toContainText("local extractive answerer · t=0");
      }

      // 4. The project's Models page: the chat default becomes the stand-in's model, which the node's Default names.
      await openProjectLink(page, "Models");
      await expect(page).toHaveURL(new RegExp(`/${projectId}/settings/models$`));
      const form = page.getByRole("form", { name: "Default models" });
      await expect(form.getByLabel("Chat")).toHaveValue("");
      await form.getByLabel("Chat").selectOption("picker-chat");
      await form.getByRole("button", { name: "Save" }).click();
      await expect(form.getByText(`Answered now by picker-chat (${box})`)).toBeVisible();
      await checkScreen(page, problems, "default models");
      await page.goto(`/${projectId}/flows/model-check`);
      await expect(node).toContainText(`picker-chat (${box}) · t=0`);
      await node.click();
      await expect(picker.locator("option").first()).toHaveText(`Default (picker-chat (${box}))`);

      // 5. The chat page is answered by the default model, and usage shows its calls by model and cause.
      await page.goto(`/${projectId}/sources`);
      await uploadSources(page, [
        {
          name: "granite.md",
          text: "# Granite\n\nGranite blocks are cut with wire saws at the north face of the quarry.\n",
        },
      ]);
      await openProjectLink(page, "Chat");
      await page.getByLabel("Question", { exact: true }).fill("How are granite blocks cut?");
      await page.getByRole("button", { name: "Ask" }).click();
      await expect(page.getByRole("list", { name: "Conversation" }).getByText("picker-chat")).toBeVisible({
        timeout: 30_000,
      });
      await checkScreen(page, problems, "chat answered by the default model");
      await page.goto(`/${projectId}/usage`);
      const byModel = page.getByRole("table", { name: "Usage by model" });
      await expect(async () => {
        await page.reload();
        await expect(byModel).toContainText("picker-chat", { timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      const byCause = page.getByRole("table", { name: "Usage by cause" });
      await expect(byCause.getByRole("row", { name: /Ask \(chat, ask-sources\)/ })).toBeVisible();
      await expect(byCause.getByRole("row", { name: /Enrichment/ })).toBeVisible();
      await expect(page.getByLabel("Totals").getByRole("definition").first()).not.toHaveText("0");
      await checkScreen(page, problems, "usage by model and cause");

      // The provider goes again, so the other size's picker lists its own only.
      await (await openDefaultTeam(page)).getByRole("link", { name: "Model providers" }).click();
      await providers.getByRole("button", { name: `Remove ${box}` }).click();
      await page
        .getByRole("dialog", { name: `Remove ${box}?` })
        .getByRole("button", { name: "Remove provider" })
        .click();
      await expect(providers.getByRole("row", { name: new RegExp(box) })).toHaveCount(0);
      expect(problems).toEqual([]);
    });
  });
}
