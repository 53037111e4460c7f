/**
 * Scalar's own markup falls short of WCAG 2.1 AA in a few places that its configuration cannot reach. They are mended
 * in the DOM once it renders, and again whenever it re-renders (it is a Vue app: an observer sees its changes).
 * Colours are the theme's business: see SCALAR_CSS.
 */

/** The app's theme: a picked one (class on <html>) wins over the system's (app/globals.css). */
export const appIsDark = () => {
  const html = document.documentElement.classList;
  if (html.contains("dark")) return true;
  if (html.contains("light")) return false;
  return window.matchMedia("(prefers-color-scheme: dark)").matches;
};

/**
 * Scalar's muted text and its HTTP-method colours are too light for small text (axe `color-contrast`); these are
 * the same hues, dark enough on its light background and light enough on its dark one (4.5:1 or more).
 */
export const SCALAR_CSS = `
.light-mode {
  --scalar-color-2: #555555;
  --scalar-color-3: #636363;
  --scalar-color-green: #04734d;
  --scalar-color-blue: #00649f;
  --scalar-color-orange: #a8480a;
  --scalar-color-yellow: #7f6300;
  --scalar-color-red: #c4120f;
  --scalar-color-purple: #5203d1;
}
.dark-mode {
  --scalar-color-2: rgba(255, 255, 255, 0.72);
  --scalar-color-3: rgba(255, 255, 255, 0.62);
  --scalar-color-red: #ff7a7a;
}
`;

/** Text a screen reader would read: not inside aria-hidden, not display:none (svg icons carry none). */
const spokenText = (el: Element) => {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let text = "";
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent && !parent.closest('[aria-hidden="true"]') && parent.checkVisibility()) text += node.textContent;
  }
  return text.trim();
};

const hasName = (el: Element) =>
  !!(
    el.getAttribute("aria-label")?.trim() ||
    el.getAttribute("aria-labelledby") ||
    el.getAttribute("title")?.trim() ||
    spokenText(el)
  );

/** Scalar's icon-only buttons by their class, and what they do. */
const KNOWN = [
  ["copy", "Copy code"],
  ["client-libraries__select", "More client libraries"],
  ["search", "Search"],
  ["close", "Close"],
] as const;

/** A name for an icon-only button, from what Scalar gives it: an svg <title>, a known class, or the text beside it. */
const guessName = (button: HTMLElement) => {
  const svgTitle = button.querySelector("svg title")?.textContent?.trim();
  if (svgTitle) return svgTitle;
  const classes = button.className.toString().toLowerCase();
  const known = KNOWN.find(([hint]) => classes.includes(hint));
  if (known) return known[1];
  const beside = button.parentElement ? spokenText(button.parentElement).replace(/\s+/g, " ").slice(0, 60) : "";
  if (button.hasAttribute("aria-expanded") || button.hasAttribute("aria-controls"))
    return beside ? `Show or hide ${beside}` : "Show or hide";
  return beside ? `More on ${beside}` : "More";
};

/** Roles that may carry aria-selected; Scalar also puts it on links and buttons of its sidebar. */
const SELECTABLE = new Set(["tab", "option", "gridcell", "row", "columnheader", "rowheader", "treeitem"]);
const TOGGLES = "data-a11y-toggles";

const SCROLLS = /(auto|scroll)/;
const FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]";

/** A region that scrolls and has nothing focusable in it: a keyboard user could not scroll it. */
const unreachableScroller = (el: HTMLElement) => {
  if (el.scrollHeight <= el.clientHeight && el.scrollWidth <= el.clientWidth) return false;
  const style = getComputedStyle(el);
  if (!SCROLLS.test(style.overflowY + style.overflowX)) return false;
  return !el.querySelector(FOCUSABLE) && !el.hasAttribute("tabindex");
};

const mend = (root: HTMLElement) => {
  // A tablist must hold only tabs; Scalar's client list also holds a "more" button that opens a menu. So it is a group
  // of toggle buttons: the picked client is the pressed one.
  for (const list of root.querySelectorAll("[role=tablist]")) {
    const loose = [...list.querySelectorAll("button:not([role])")].some((b) => !b.closest("[role=tab]"));
    if (!loose) continue;
    list.setAttribute("role", "group");
    list.removeAttribute("aria-orientation"); // a tablist's attribute, not a group's
    list.setAttribute(TOGGLES, "");
    for (const tab of list.querySelectorAll("[role=tab]")) tab.removeAttribute("role");
  }
  // aria-selected belongs to tabs, options and grid cells; a toggle is pressed, elsewhere aria-current says "this one".
  for (const el of root.querySelectorAll("[aria-selected]")) {
    if (SELECTABLE.has(el.getAttribute("role") ?? "")) continue;
    const selected = el.getAttribute("aria-selected") === "true";
    el.removeAttribute("aria-selected");
    if (el.closest(`[${TOGGLES}]`)) el.setAttribute("aria-pressed", String(selected));
    else if (selected) el.setAttribute("aria-current", "true");
    else el.removeAttribute("aria-current");
  }
  // A button is not a search landmark (Scalar's search opener says role="search").
  for (const el of root.querySelectorAll("button[role=search]")) el.removeAttribute("role");
  for (const button of root.querySelectorAll<HTMLElement>("button, [role=button]")) {
    if (!hasName(button)) button.setAttribute("aria-label", guessName(button));
  }
  for (const el of root.querySelectorAll<HTMLElement>("pre, ul, ol, div, section, code")) {
    if (unreachableScroller(el)) el.tabIndex = 0;
  }
};

/** Keeps Scalar's markup mended under `root` until the returned function is called. */
export const mendScalarMarkup = (root: HTMLElement) => {
  let frame = 0;
  const schedule = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => mend(root));
  };
  const observer = new MutationObserver(schedule);
  observer.observe(root, { childList: true, subtree: true, attributeFilter: ["aria-selected"] });
  schedule();
  return () => {
    observer.disconnect();
    cancelAnimationFrame(frame);
  };
};
