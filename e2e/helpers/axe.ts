import AxeBuilder from "@axe-core/playwright";
import { expect, type BrowserContext, type Page } from "@playwright/test";

/** WCAG 2.0 and 2.1, levels A and AA: what the dashboard promises (issue 30). */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

export const THEMES = ["light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

/** The theme picked in the header's toggle (a cookie the server reads), and the system's preference to match. */
export const pickTheme = async (context: BrowserContext, page: Page, baseURL: string, theme: Theme) => {
  await context.addCookies([{ name: "quarry_theme", value: theme, url: baseURL }]);
  await page.emulateMedia({ colorScheme: theme });
};

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

const SHOWN = 8;

/** Per rule: its id, impact, help text and link; then each failing element's selector and what is wrong with it. */
export const describeViolations = (violations: Violation[]) =>
  violations
    .map((v) => {
      const nodes = v.nodes.slice(0, SHOWN).map((n) => {
        const why = [...n.any, ...n.all, ...n.none].map((c) => c.message)[0] ?? n.failureSummary ?? "";
        return `  - ${n.target.join(" ")}: ${why}`;
      });
      const more = v.nodes.length > SHOWN ? [`  … and ${v.nodes.length - SHOWN} more`] : [];
      return [`${v.id} (${v.impact}): ${v.help} ${v.helpUrl}`, ...nodes, ...more].join("\n");
    })
    .join("\n");

/**
 * Runs axe-core on the page as it is now and fails (softly, so one run reports every page) on any serious or critical
 * violation, naming the page, the rule, the element and axe's help text. `exclude` takes CSS selectors of regions
 * that are not the app's own markup; every use says which rule it stands in for and why.
 */
export const checkA11y = async (page: Page, label: string, options: { exclude?: string[] } = {}) => {
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect.soft(serious.length, `${label} (${page.url()}):\n${describeViolations(serious)}`).toBe(0);
  return serious;
};
