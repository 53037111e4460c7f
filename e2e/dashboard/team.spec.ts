import { expect, test, type Page } from "@playwright/test";

const openDefaultProject = async (page: Page) => {
  await page.goto("/");
  await page
    .getByRole("region", { name: "Team Default team" })
    .getByRole("link", { name: /^default/ })
    .click();
  await expect(page).toHaveURL(/\/[0-9a-f-]{36}\/sources$/);
  return page.url().split("/").at(-2)!;
};

test("an admin creates an API token, shown once with a curl line, and revokes it", async ({ page, request }) => {
  await openDefaultProject(page);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "API tokens" }).click();
  const form = page.getByRole("form", { name: "Create token" });
  await form.getByLabel("Name").fill("nightly import");
  await form.getByRole("checkbox", { name: /^write/ }).uncheck();
  await form.getByRole("button", { name: "Create token" }).click();

  const token = (await page.getByLabel("New token").textContent())!.trim();
  expect(token).toMatch(/^qry_[0-9A-Za-z]{40,}$/);
  await expect(page.getByLabel("Example request")).toContainText(`Authorization: Bearer ${token}`);
  await expect(page.getByRole("button", { name: "Copy token" })).toBeVisible();

  const auth = { Authorization: `Bearer ${token}` };
  expect((await request.get("/api/public/v1/sources", { headers: auth })).status()).toBe(200);
  // Only the permissions it was given.
  expect(
    (await request.post("/api/public/v1/sources/prebuilt-rag", { headers: auth, data: { query: "x" } })).status(),
  ).toBe(403);

  const tokens = page.getByRole("table", { name: "API tokens" });
  const row = tokens.getByRole("row", { name: /nightly import/ });
  await expect(row).toContainText(token.slice(0, 8));
  await expect(row).toContainText("read");
  await expect(row).not.toContainText(token.slice(12, 30)); // the list never shows the secret
  await page.reload();
  await expect(page.getByLabel("New token")).toHaveCount(0); // shown once
  await expect(tokens.getByRole("row", { name: /nightly import/ })).not.toContainText("never"); // last used

  await tokens.getByRole("button", { name: "Revoke nightly import" }).click();
  await page
    .getByRole("dialog", { name: "Revoke nightly import?" })
    .getByRole("button", { name: "Revoke token" })
    .click();
  await expect(tokens.getByRole("row", { name: /nightly import/ })).toContainText("revoked");
  expect((await request.get("/api/public/v1/sources", { headers: auth })).status()).toBe(401);
});

test("the API tokens page shows the MCP endpoint and a client configuration that works with a token", async ({
  page,
  request,
}) => {
  await openDefaultProject(page);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "API tokens" }).click();
  const mcp = page.getByRole("region", { name: "MCP server" });
  await expect(mcp.getByLabel("MCP endpoint")).toHaveText(/^http:\/\/[^ ]+\/api\/mcp$/);
  const config = JSON.parse((await mcp.getByLabel("MCP client configuration").textContent())!);
  const server = config.mcpServers["quarry-default"];
  expect(server).toMatchObject({ type: "http", url: await mcp.getByLabel("MCP endpoint").textContent() });

  const form = page.getByRole("form", { name: "Create token" });
  await form.getByLabel("Name").fill("mcp reader");
  for (const p of ["write", "delete", "deploy"])
    await form.getByRole("checkbox", { name: new RegExp(`^${p}`) }).uncheck();
  await form.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByLabel("New token").textContent())!.trim();
  // The configuration's header with the new token in it: a read-only token is shown the read tools only.
  const listed = await request.post(server.url, {
    headers: {
      Authorization: server.headers.Authorization.replace(/<[^>]+>/, token),
      Accept: "application/json, text/event-stream",
    },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(listed.status()).toBe(200);
  const names = ((await listed.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
  expect(names.sort()).toEqual(["get_build_status", "get_elements", "list_sources"]);
});

test("a viewer joins by invitation link, reads, and can neither create tokens nor delete sources", async ({
  page,
  browser,
  request,
}) => {
  // Two browsers, a sign-up, a sign-in and two role changes: more than the default 30 s on 2 shared cores.
  test.setTimeout(90_000);
  // A source in the default project, through the API token of the first start.
  const upload = await request.post("/api/public/v1/sources/ingest-file", {
    headers: { Authorization: `Bearer ${process.env.E2E_API_TOKEN}` },
    multipart: {
      file: { name: "granite.md", mimeType: "text/markdown", buffer: Buffer.from("# Granite\n\nHard rock.\n") },
    },
  });
  expect(upload.status()).toBe(200);

  // The owner makes a viewer invitation link.
  await page.goto("/");
  await page
    .getByRole("region", { name: "Team Default team" })
    .getByRole("link", { name: "Members and invitations" })
    .click();
  const invite = page.getByRole("form", { name: "Create invitation" });
  await invite.getByLabel("Role").selectOption("viewer");
  await invite.getByRole("button", { name: "Create invitation link" }).click();
  const link = (await page.getByLabel("Invitation link").textContent())!.trim();
  expect(link).toMatch(/\/invite\/[\w-]{20,}$/);
  await expect(page.getByRole("list", { name: "Pending invitations" })).toContainText("viewer");

  // Someone new opens it in their own browser and creates an account.
  const guest = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const viewer = await guest.newPage();
  await viewer.goto(link);
  await expect(viewer.getByRole("heading", { name: "Join Default team" })).toBeVisible();
  await expect(viewer.getByText(/invited as/)).toContainText("viewer");
  const signUp = viewer.getByRole("form", { name: "Create your account" });
  await signUp.getByLabel("Name").fill("Vera Viewer");
  await signUp.getByLabel("Email").fill("viewer@e2e.test");
  await signUp.getByLabel("Password").fill("viewer-password-1");
  await signUp.getByRole("button", { name: "Create account and join" }).click();
  await expect(viewer.getByRole("region", { name: "Team Default team" }).getByText("Your role: viewer")).toBeVisible();
  const projectId = await openDefaultProject(viewer);

  // Reads the sources, but is offered no upload, no delete and no API tokens.
  await expect(viewer.getByRole("table", { name: "Sources" }).getByRole("link", { name: "granite.md" })).toBeVisible();
  await expect(viewer.getByRole("region", { name: "Add sources" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: /^Delete / })).toHaveCount(0);
  await expect(
    viewer.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "API tokens" }),
  ).toHaveCount(0);
  await viewer.goto(`/${projectId}/settings/api-tokens`);
  await expect(viewer.getByText(/API tokens are managed by the team's admins/)).toBeVisible();

  // And the server refuses it even when asked directly from the viewer's page.
  const statuses = await viewer.evaluate(async (project) => {
    const call = (path: string, input: unknown) =>
      fetch(`/api/trpc/${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ json: input }),
      }).then((r) => r.status);
    return {
      token: await call("dashboard.tokens.create", { projectId: project, name: "sneaky", permissions: ["read"] }),
      remove: await call("dashboard.sources.delete", { projectId: project, sourceId: crypto.randomUUID() }),
    };
  }, projectId);
  expect(statuses).toEqual({ token: 403, remove: 403 });

  // The link worked once.
  const again = await guest.newPage();
  await again.goto(link);
  await expect(again.getByRole("heading", { name: "This invitation is no longer valid" })).toBeVisible();

  // Sign out, and back in.
  await viewer.getByRole("button", { name: "Sign out" }).click();
  await expect(viewer).toHaveURL(/\/sign-in$/);
  await viewer.goto(`/${projectId}/sources`);
  await expect(viewer).toHaveURL(/\/sign-in/);
  await viewer.getByLabel("Email").fill("viewer@e2e.test");
  await viewer.getByLabel("Password").fill("wrong-password");
  await viewer.getByRole("button", { name: "Sign in" }).click();
  await expect(viewer.getByText("Invalid email or password")).toBeVisible();
  await viewer.getByLabel("Password").fill("viewer-password-1");
  await viewer.getByRole("button", { name: "Sign in" }).click();
  await expect(viewer.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
  await guest.close();

  // The owner sees the new member.
  await page.reload();
  const members = page.getByRole("table", { name: "Members" });
  await expect(members.getByRole("row", { name: /viewer@e2e\.test/ })).toContainText("viewer");

  // A role change confirms itself (issue 30: it changed in silence), and changes back the same way.
  const toasts = page.getByRole("status", { name: "Notifications" });
  await members.getByLabel("Role of viewer@e2e.test").selectOption("member");
  await expect(toasts).toContainText("viewer@e2e.test is now member");
  await members.getByLabel("Role of viewer@e2e.test").selectOption("viewer");
  await expect(toasts).toContainText("viewer@e2e.test is now viewer");
});

test("unknown addresses get a styled 404", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to your projects" })).toBeVisible();
});
