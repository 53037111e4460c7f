/**
 * The connector stand-ins as one process, for the browser suite: Playwright starts it beside the app
 * (playwright.config.ts) and the app may reach exactly these ports (QUARRY_FETCH_ALLOW_HOSTS).
 *   E2E_STANDIN_PORT     the web site; +1 GitHub's API; +2 codeload
 */
import { pdfDoc } from "./fixtures";
import { startGithubStandIn } from "./github-stand-in";
import { startWebSite } from "./web-site-server";

const base = Number(process.env.E2E_STANDIN_PORT);
if (!Number.isInteger(base) || base <= 0) throw new Error("E2E_STANDIN_PORT is required");

const site = await startWebSite({ pdf: await pdfDoc({ pages: 2, title: "Safety manual" }), port: base });
const github = await startGithubStandIn(
  {
    "quarry-co/handbook": {
      defaultBranch: "main",
      branches: ["main"],
      sha: "feedc0ffee",
      files: [
        { path: "README.md", content: "# Quarry handbook\n\nHow the crew plans a bench, cuts and splits blocks.\n" },
        { path: "src/plan.ts", content: "export const benchHeight = 6;\n" },
      ],
    },
  },
  { api: base + 1, codeload: base + 2 },
);

const stop = async () => {
  await Promise.all([site.close(), github.close()]);
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
process.stdout.write(`stand-ins: ${site.origin} ${github.origin} ${github.codeloadOrigin}\n`);
