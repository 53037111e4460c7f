import { expect, type Locator, type Page } from "@playwright/test";

/** Whether the page's focused element is inside `dialog`. */
const focusInside = (dialog: Locator) => dialog.evaluate((d) => d.contains(document.activeElement));

/** How many Tab presses walk once around the dialog (each enabled control is a stop; an extra press wraps). */
const tabStops = (dialog: Locator) =>
  dialog.evaluate(
    (d) =>
      d.querySelectorAll(
        'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])',
      ).length,
  );

/** Clicks `opener` and returns the dialog it opened (named by its title), once focus has moved into it. */
export const openDialog = async (page: Page, opener: Locator, name: string) => {
  await opener.click();
  const dialog = page.getByRole("dialog", { name, exact: true });
  await expect(dialog).toBeVisible();
  await expect.poll(() => focusInside(dialog), { message: `${name}: focus moves into the dialog` }).toBe(true);
  return dialog;
};

/**
 * Keyboard behaviour of a modal dialog: Tab and Shift+Tab, pressed once more than the dialog has stops, never leave it;
 * Escape closes it and focus goes back to the button that opened it.
 */
export const expectKeyboardDialog = async (page: Page, dialog: Locator, opener: Locator, name: string) => {
  const presses = (await tabStops(dialog)) + 1;
  for (const key of ["Tab", "Shift+Tab"]) {
    for (let i = 1; i <= presses; i++) {
      await page.keyboard.press(key);
      expect(await focusInside(dialog), `${name}: focus left the dialog after ${key} × ${i}`).toBe(true);
    }
  }
  await page.keyboard.press("Escape");
  await expect(dialog, `${name}: Escape closes the dialog`).toBeHidden();
  await expect(opener, `${name}: focus returns to the button that opened it`).toBeFocused();
};
