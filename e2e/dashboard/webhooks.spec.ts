import { expect, test, type Page } from "@playwright/test";
import { startWebhookReceiver, type WebhookReceiver } from "../../server/testing/webhook-receiver";
import { trpc } from "../helpers/dashboard";
import { watchProblems } from "../helpers/layout";
import { createProject } from "../helpers/project";
import { checkScreen, JOURNEY_SIZES, openProjectLink } from "../helpers/screen";

/**
 * A project's webhooks page: an admin adds an endpoint (a receiver on a loopback port the install allows), copies
 * the secret shown once, sends a test event and sees it delivered and verified, sees a real build's
 * build.completed arrive, disables and enables the endpoint (banner with the reason), sees a loopback address the
 * install does not allow refused, and deletes the endpoint. At a laptop's and a phone's size, every screen on the way
 * fits the window, has no console error or failed request, and no serious axe violation.
 */

// Allowed by playwright.config.ts (the stand-in ports); the providers spec uses it too, but specs run one at a time.
const RECEIVER_PORT = Number(process.env.E2E_PORT ?? 3107) + 1003;

let receiver: WebhookReceiver;

test.beforeAll(async () => {
  receiver = await startWebhookReceiver({ port: RECEIVER_PORT });
});

test.afterAll(async () => receiver?.close());

/**
 * A project of this run's own, so no endpoint a run stopped half-way left behind is listed, and an API token that
 * uploads to it (setup only); ends on its webhooks page.
 */
const openWebhooks = async (page: Page, name: string) => {
  const projectId = await createProject(page, name);
  const input = { projectId, name: "webhooks upload", permissions: ["read", "write"] };
  const { token } = await trpc<{ token: string }>(page, "dashboard.tokens.create", input);
  await openProjectLink(page, "Webhooks");
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  return token;
};

const uploadNote = async (baseURL: string, token: string) => {
  const form = new FormData();
  form.set("file", new Blob(["# Hooks\n\nA note that ends in a webhook.\n"]), "hooked.md");
  const res = await fetch(`${baseURL}/api/public/v1/sources/ingest-file`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { build_id: string }).build_id;
};

for (const viewport of JOURNEY_SIZES) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test("an admin adds an endpoint, tests it, receives a build's event, disables, enables and deletes it", async ({
      page,
      baseURL,
    }) => {
      // A real build runs in between.
      test.setTimeout(180_000);
      // What the other size's run delivered is not this run's.
      receiver.received.splice(0);
      // The loopback address is refused on purpose (4xx from create).
      const problems = watchProblems(page, (url, status) => status < 500 && url.includes("dashboard.webhooks.create"));
      const token = await openWebhooks(page, `webhooks-${viewport.width}-${Date.now()}`);
      await expect(page.getByText("No endpoints yet")).toBeVisible();
      await checkScreen(page, problems, "webhooks");

      const add = page.getByRole("form", { name: "Add endpoint" });
      await add.getByLabel("URL").fill(receiver.url);
      await add.getByLabel("Description").fill("Build relay");
      await add.getByRole("checkbox", { name: /build\.failed/ }).uncheck();
      await add.getByRole("button", { name: "Add endpoint" }).click();
      const secret = (await page.getByLabel("Signing secret").textContent()) ?? "";
      expect(secret).toMatch(/^whsec_/);
      receiver.setSecret(secret);
      await checkScreen(page, problems, "signing secret");
      await page.getByRole("button", { name: "Done" }).click();
      await expect(page.getByLabel("Signing secret")).toHaveCount(0);

      const card = page.getByRole("region", { name: `Endpoint ${receiver.url}` });
      await expect(card).toContainText("Build relay");
      await expect(card.getByRole("checkbox", { name: /build\.completed/ })).toBeChecked();
      await expect(card.getByRole("checkbox", { name: /build\.failed/ })).not.toBeChecked();

      await card.getByRole("button", { name: "Send test event" }).click();
      const log = page.getByRole("table", { name: "Webhook deliveries" });
      await expect(log.getByRole("row", { name: /webhook\.test/ })).toContainText("succeeded", { timeout: 20_000 });
      expect(receiver.received.at(-1)).toMatchObject({ error: null, event: { type: "webhook.test" } });

      const buildId = await uploadNote(baseURL!, token);
      await expect(log.getByRole("row", { name: /build\.completed/ })).toContainText("succeeded", { timeout: 60_000 });
      const built = receiver.received.find((r) => r.event?.type === "build.completed");
      expect(built).toMatchObject({ error: null, event: { data: { build_id: buildId, file_name: "hooked.md" } } });
      await checkScreen(page, problems, "webhooks with deliveries");

      await card.getByRole("button", { name: "Disable" }).click();
      await expect(card.getByRole("alert")).toContainText("This endpoint is disabled");
      await checkScreen(page, problems, "a disabled endpoint");
      await card.getByRole("button", { name: "Enable again" }).click();
      await expect(card.getByRole("alert")).toHaveCount(0);

      await add.getByLabel("URL").fill("http://127.0.0.1:9/hooks");
      await add.getByRole("button", { name: "Add endpoint" }).click();
      await expect(add.getByRole("alert")).toContainText("127.0.0.1 is a loopback address");
      await checkScreen(page, problems, "webhooks with a refused address");

      await card.getByRole("button", { name: `Delete ${receiver.url}`, exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Delete this endpoint?" });
      await expect(dialog).toBeVisible();
      await checkScreen(page, problems, "delete endpoint dialog");
      await dialog.getByRole("button", { name: "Delete endpoint" }).click();
      await expect(page.getByText("No endpoints yet")).toBeVisible();
      expect(problems).toEqual([]);
    });
  });
}
