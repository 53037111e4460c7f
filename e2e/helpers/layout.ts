import { expect, type Page, type TestInfo } from "@playwright/test";

/** The three window sizes the dashboard is held to: two phones and a laptop. */
export const VIEWPORTS = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;

/**
 * Console errors, uncaught exceptions and failed requests (4xx/5xx, or a request that never got an answer) seen by
 * `page` since the call. `expected` lets a test name the answers it provoked on purpose.
 */
export const watchProblems = (page: Page, expected: (url: string, status: number) => boolean = () => false) => {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    // Chromium logs each 4xx/5xx as "Failed to load resource"; the response handler below judges those.
    if (m.text().startsWith("Failed to load resource")) return;
    problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`uncaught: ${e.message}`));
  page.on("response", (r) => {
    if (r.status() >= 400 && !expected(r.url(), r.status()))
      problems.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  page.on("requestfailed", (r) => {
    // A navigation cancels the previous page's fetches and prefetches; that is not a failure.
    const reason = r.failure()?.errorText ?? "";
    if (!reason.includes("ERR_ABORTED")) problems.push(`failed: ${r.method()} ${r.url()} (${reason})`);
  });
  return problems;
};

type Overflow = { element: string; right: number };

/**
 * What pokes out of the window on the right: the page's own scroll width, and every visible element whose right edge,
 * clipped by the scrolling or clipping boxes around it, passes the window's width. An element inside a box that
 * scrolls (a wide table in its TableScroll) is clipped by that box and so does not count.
 */
export const overflowOf = (page: Page) =>
  page.evaluate(() => {
    const width = window.innerWidth;
    const scrollWidth = document.scrollingElement!.scrollWidth;
    const clipRight = (el: Element) => {
      let right = Infinity;
      // An absolutely placed element is clipped only from its containing block up; a fixed one by nothing.
      const position = getComputedStyle(el).position;
      if (position === "fixed") return right;
      const start = position === "absolute" ? (el as HTMLElement).offsetParent : el.parentElement;
      for (let a = start; a && a !== document.body; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX !== "visible") right = Math.min(right, a.getBoundingClientRect().right);
        if (style.position === "fixed") break;
      }
      return right;
    };
    const describe = (el: Element) => {
      const label = el.getAttribute("aria-label") ?? (el.textContent ?? "").trim().slice(0, 40);
      const cls = typeof el.className === "string" ? el.className.split(" ").slice(0, 3).join(".") : "";
      return `<${el.tagName.toLowerCase()}${cls ? `.${cls}` : ""}> "${label}"`;
    };
    const offenders: Overflow[] = [];
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const right = Math.min(box.right, clipRight(el));
      if (right > width + 1) offenders.push({ element: describe(el), right: Math.round(right) });
    }
    return { width, scrollWidth, offenders: offenders.slice(0, 10) };
  });

export const expectFitsWindow = async (page: Page, screen: string) => {
  const { width, scrollWidth, offenders } = await overflowOf(page);
  expect(offenders, `${screen}: elements past the window's right edge (${width} px)`).toEqual([]);
  expect(scrollWidth, `${screen}: the page scrolls sideways`).toBeLessThanOrEqual(width);
};

/**
 * Visible selects whose closed label does not wholly show: wider than the box, or running under Chromium's native
 * arrow (which it draws inside the box, past the text's room). Measured by the browser itself: a hidden copy sized to
 * its label (`field-sizing: content`) is as wide as the select must be to show it; where that CSS is missing, the
 * label's width with the select's own font against its content box.
 */
export const cutSelects = (page: Page) =>
  page.evaluate(() => {
    const context = document.createElement("canvas").getContext("2d")!;
    const sizesToContent = CSS.supports("field-sizing", "content");
    const needed = (select: HTMLSelectElement) => {
      const copy = select.cloneNode(true) as HTMLSelectElement;
      copy.selectedIndex = select.selectedIndex;
      Object.assign(copy.style, {
        fieldSizing: "content",
        width: "auto",
        minWidth: "0",
        maxWidth: "none",
        position: "absolute",
        visibility: "hidden",
      });
      copy.removeAttribute("id");
      select.parentElement!.append(copy);
      const width = copy.getBoundingClientRect().width;
      copy.remove();
      return width;
    };
    const cut: string[] = [];
    for (const select of Array.from(document.querySelectorAll("select"))) {
      if (!select.checkVisibility() || select.selectedIndex < 0) continue;
      const style = getComputedStyle(select);
      const label = select.options[select.selectedIndex]!.text;
      const name = select.getAttribute("aria-label") ?? select.labels?.[0]?.textContent ?? select.id;
      let fits: boolean;
      if (sizesToContent) fits = needed(select) <= select.getBoundingClientRect().width + 1;
      else {
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        fits = context.measureText(label).width <= room + 1;
      }
      if (!fits) cut.push(`${name}: "${label}"`);
    }
    return cut;
  });

/**
 * Visible tabs not wholly inside their tab list's box: a tab pushed out of sight (issue 30 found the flow panel's
 * "Revisions" cut to "Re…", then scrolled out of a 1440 px window's panel).
 */
export const hiddenTabs = (page: Page) =>
  page.evaluate(() => {
    const hidden: string[] = [];
    for (const list of Array.from(document.querySelectorAll('[role="tablist"]'))) {
      // The API reference's widget (Scalar) is not the app's markup: its status-code tabs scroll by its design.
      if (!list.checkVisibility() || list.closest('[data-testid="api-reference"]')) continue;
      const box = list.getBoundingClientRect();
      for (const tab of Array.from(list.querySelectorAll('[role="tab"]'))) {
        const t = tab.getBoundingClientRect();
        if (t.left < box.left - 1 || t.right > box.right + 1)
          hidden.push(`${list.getAttribute("aria-label")}: "${(tab.textContent ?? "").trim()}"`);
      }
    }
    return hidden;
  });

/** A full-page screenshot in the test's report (never a file in the repository). */
export const attachScreenshot = async (page: Page, testInfo: TestInfo, name: string) =>
  testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
