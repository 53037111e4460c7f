import { expect, test } from "@playwright/test";
import { openDefaultProject } from "../helpers/project";

/**
 * The API reference page: reached from the API tokens page, it renders the app's own OpenAPI document with Scalar's
 * bundle served by the app (no CDN), within the pages' content security policy.
 */

test("an admin follows the API reference link from the tokens page and reads the generated reference", async ({
  page,
}) => {
  const blocked: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  // Everything the page loads comes from the app (localhost), nothing from a CDN or a font host.
  const outside: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (/^https?:$/.test(url.protocol) && !["localhost", "127.0.0.1"].includes(url.hostname)) outside.push(url.href);
  });

  await openDefaultProject(page);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "API tokens" }).click();
  await page.getByRole("link", { name: "the API reference" }).click();
  await expect(page).toHaveURL(/\/api-reference$/);
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();

  const reference = page.getByTestId("api-reference");
  await expect(reference.getByText("Quarry public API").first()).toBeVisible({ timeout: 30_000 });
  await expect(reference.getByText("Upload a file and build it").first()).toBeVisible();
  // The flow routes in both address forms: the path form, and the host form's bare suffixes.
  const flows = reference.getByRole("list", { name: "Flows endpoints" });
  const item = (path: string) =>
    flows.getByRole("listitem").filter({ hasText: new RegExp(`^\\s*post\\s*${path}\\s*$`) });
  await expect(item("/flows/\\{flow_name\\}/deploy")).toHaveCount(1);
  await expect(item("/deploy")).toHaveCount(1);
  expect(blocked).toEqual([]);
  expect(outside).toEqual([]);
});
