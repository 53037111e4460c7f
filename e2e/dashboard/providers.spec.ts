import { expect, test } from "@playwright/test";
import { startFakeChatServer, type FakeChatServer } from "../../server/testing/fake-chat-server";
import { watchProblems } from "../helpers/layout";
import { checkScreen, JOURNEY_SIZES } from "../helpers/screen";

/**
 * The team's model providers page: an admin adds a local OpenAI-compatible stand-in, tests it (result, latency and
 * its models), edits it, sees a wrong key refused, sees a loopback address the install does not allow refused, and
 * removes it. The key never comes back to the page. At a laptop's and a phone's size, every screen on the way fits
 * the window, has no console error or failed request, and no serious axe violation.
 */

// The app may reach this port (playwright.config.ts allows the stand-in ports); nothing else on loopback.
const STANDIN_PORT = Number(process.env.E2E_PORT ?? 3107) + 1003;
const KEY = "sk-e2e-provider-key-0123456789";

let standIn: FakeChatServer;

test.beforeAll(async () => {
  standIn = await startFakeChatServer({ port: STANDIN_PORT });
  standIn.setModels(["e2e-chat", "e2e-embed"]);
  standIn.requireKey(KEY);
});

test.afterAll(async () => standIn?.close());

for (const viewport of JOURNEY_SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("an admin adds, tests, edits and removes a model provider; the key is never shown again", async ({ page }) => {
      // Axe on every screen takes seconds each on a loaded machine.
      test.setTimeout(120_000);
      // Names of this size's own, so neither run sees the other's provider.
      const first = `Stand-in ${viewport.width}`;
      const second = `Local models ${viewport.width}`;
      // The loopback address is refused on purpose (4xx from create).
      const problems = watchProblems(
        page,
        (url, status) => status < 500 && url.includes("dashboard.modelProviders.create"),
      );
      await page.goto("/");
      await page
        .getByRole("region", { name: "Team Default team" })
        .getByRole("link", { name: "Model providers" })
        .click();
      await expect(page.getByRole("heading", { name: "Model providers" })).toBeVisible();
      await expect(page.getByRole("region", { name: "From the environment" })).toContainText(
        "local extractive answerer",
      );
      await checkScreen(page, problems, "model providers");

      const add = page.getByRole("form", { name: "Add provider" });
      await add.getByLabel("Kind").selectOption("openai_compatible");
      await add.getByLabel("Name").fill(first);
      await add.getByLabel("Base URL").fill(`http://127.0.0.1:${STANDIN_PORT}/v1`);
      await add.getByLabel("API key").fill(KEY);
      await add.getByRole("button", { name: "Add provider" }).click();

      const table = page.getByRole("table", { name: "Team providers" });
      const row = table.getByRole("row", { name: new RegExp(first) });
      await expect(row).toContainText("sk-e2…");
      await expect(row).toContainText("not tested");

      await row.getByRole("button", { name: `Test connection of ${first}` }).click();
      await expect(row.getByLabel(`Last test of ${first}`)).toContainText(/ok · \d+ ms/);
      await expect(row.getByLabel(`Last test of ${first}`)).toContainText("Connected: 2 models");
      await expect(row.getByLabel(`Models of ${first}`)).toContainText("e2e-chat");
      await checkScreen(page, problems, "model providers with a tested provider");

      // Renamed, then given a wrong key: the test says the server refused it.
      await row.getByRole("button", { name: `Edit ${first}` }).click();
      const edit = page.getByRole("dialog", { name: `Edit ${first}` }).getByRole("form", { name: "Edit provider" });
      await expect(edit.getByText("Saved: sk-e2…")).toBeVisible();
      await checkScreen(page, problems, "edit provider dialog");
      await edit.getByLabel("Name").fill(second);
      await edit.getByLabel("API key").fill("sk-wrong-key-000000000000");
      await edit.getByRole("button", { name: "Save provider" }).click();
      const renamed = table.getByRole("row", { name: new RegExp(second) });
      await renamed.getByRole("button", { name: `Test connection of ${second}` }).click();
      await expect(renamed.getByLabel(`Last test of ${second}`)).toContainText("refused the key (HTTP 401)");

      // A loopback address the install does not allow is refused at once.
      await add.getByLabel("Name").fill("Sneaky");
      await add.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
      await add.getByRole("button", { name: "Add provider" }).click();
      await expect(add.getByRole("alert")).toContainText("127.0.0.1 is a loopback address");
      await checkScreen(page, problems, "model providers with refusals");

      await page.reload();
      expect(await page.content()).not.toContain(KEY.slice(6));
      await table.getByRole("button", { name: `Remove ${second}` }).click();
      const remove = page.getByRole("dialog", { name: `Remove ${second}?` });
      await expect(remove).toBeVisible();
      await checkScreen(page, problems, "remove provider dialog");
      await remove.getByRole("button", { name: "Remove provider" }).click();
      // Other specs may have added providers to the same team: this one's row is gone, the others stay.
      await expect(table.getByRole("row", { name: new RegExp(second) })).toHaveCount(0);
      expect(problems).toEqual([]);
    });
  });
}
