import { expect, test } from "@playwright/test";
import { startFakeChatServer, type FakeChatServer } from "../../server/testing/fake-chat-server";

/**
 * The team's model providers page: an admin adds a local OpenAI-compatible stand-in, tests it (result, latency and
 * its models), edits it, sees a wrong key refused, sees a loopback address the install does not allow refused, and
 * removes it. The key never comes back to the page.
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

test("an admin adds, tests, edits and removes a model provider; the key is never shown again", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("region", { name: "Team Default team" }).getByRole("link", { name: "Model providers" }).click();
  await expect(page.getByRole("heading", { name: "Model providers" })).toBeVisible();
  await expect(page.getByRole("region", { name: "From the environment" })).toContainText("local extractive answerer");

  const add = page.getByRole("form", { name: "Add provider" });
  await add.getByLabel("Kind").selectOption("openai_compatible");
  await add.getByLabel("Name").fill("Stand-in");
  await add.getByLabel("Base URL").fill(`http://127.0.0.1:${STANDIN_PORT}/v1`);
  await add.getByLabel("API key").fill(KEY);
  await add.getByRole("button", { name: "Add provider" }).click();

  const table = page.getByRole("table", { name: "Team providers" });
  const row = table.getByRole("row", { name: /Stand-in/ });
  await expect(row).toContainText("sk-e2…");
  await expect(row).toContainText("not tested");

  await row.getByRole("button", { name: "Test connection of Stand-in" }).click();
  await expect(row.getByLabel("Last test of Stand-in")).toContainText(/ok · \d+ ms/);
  await expect(row.getByLabel("Last test of Stand-in")).toContainText("Connected: 2 models");
  await expect(row.getByLabel("Models of Stand-in")).toContainText("e2e-chat");

  // Renamed, then given a wrong key: the test says the server refused it.
  await row.getByRole("button", { name: "Edit Stand-in" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Stand-in" }).getByRole("form", { name: "Edit provider" });
  await expect(edit.getByText("Saved: sk-e2…")).toBeVisible();
  await edit.getByLabel("Name").fill("Local models");
  await edit.getByLabel("API key").fill("sk-wrong-key-000000000000");
  await edit.getByRole("button", { name: "Save provider" }).click();
  const renamed = table.getByRole("row", { name: /Local models/ });
  await renamed.getByRole("button", { name: "Test connection of Local models" }).click();
  await expect(renamed.getByLabel("Last test of Local models")).toContainText("refused the key (HTTP 401)");

  // A loopback address the install does not allow is refused at once.
  await add.getByLabel("Name").fill("Sneaky");
  await add.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
  await add.getByRole("button", { name: "Add provider" }).click();
  await expect(add.getByRole("alert")).toContainText("127.0.0.1 is a loopback address");

  await page.reload();
  expect(await page.content()).not.toContain(KEY.slice(6));
  await table.getByRole("button", { name: "Remove Local models" }).click();
  await page.getByRole("dialog", { name: "Remove Local models?" }).getByRole("button", { name: "Remove provider" }).click();
  // Other specs may have added providers to the same team: this one's row is gone, the others stay.
  await expect(table.getByRole("row", { name: /Local models/ })).toHaveCount(0);
});
