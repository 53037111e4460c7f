import { expect, test, type Page } from "@playwright/test";
import { checkA11y } from "./axe";
import { attachScreenshot, cutSelects, expectFitsWindow, hiddenTabs } from "./layout";

/** The two sizes issue 30's quality bar holds every journey to: a laptop and a phone. */
export const JOURNEY_SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/**
 * Issue 30's four checks on the screen as it is now: nothing wider than the window (no select cutting its label, no
 * tab out of sight), no console error or failed request so far (`problems` from watchProblems), and no serious or
 * critical axe violation. A full-page screenshot of it, named by the window's width and the screen, goes into the test
 * report (never a file in the repository).
 */
export const checkScreen = async (page: Page, problems: string[], screen: string) => {
  await attachScreenshot(page, test.info(), `${page.viewportSize()!.width}px ${screen}`);
  await expectFitsWindow(page, screen);
  expect(await cutSelects(page), `${screen}: selects whose label is cut`).toEqual([]);
  expect(await hiddenTabs(page), `${screen}: tabs out of sight`).toEqual([]);
  expect(problems, `${screen}: console errors and failed requests`).toEqual([]);
  await checkA11y(page, screen);
};

/** On a phone, opens the header's Menu, where the project's navigation and the account link sit; on a laptop, nothing. */
export const openMenu = async (page: Page) => {
  // The header folds into the menu below the laptop size (decided by the window, not by what rendered first).
  if (page.viewportSize()!.width >= 1024) return;
  const menu = page.getByRole("banner").getByRole("button", { name: "Menu" });
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
};

/** Closes what openMenu opened (Escape, as a keyboard user does); on a laptop, nothing. */
export const closeMenu = async (page: Page) => {
  if (page.viewportSize()!.width >= 1024) return;
  await page.keyboard.press("Escape");
  await expect(page.getByRole("banner").getByRole("button", { name: "Menu" })).toHaveAttribute(
    "aria-expanded",
    "false",
  );
};

/** Follows a link of the project's navigation; on a phone it sits behind the header's Menu button. */
export const openProjectLink = async (page: Page, name: string) => {
  await openMenu(page);
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name, exact: true }).click();
};
