/**
 * Small facts about page lists that auto needs without loading the vision path (agentic.ts pulls in the canvas
 * module, about 50 ms and 20 MB for each new parse worker).
 */

/** A vision model reads a page in seconds to a minute: more pages than this would outlast any build. */
export const MAX_AGENTIC_PAGES = 300;

/** "3", "3–7" or "3, 5, 9–12": page lists in warnings stay short. */
export const pageList = (pages: readonly number[]): string => {
  const ranges: string[] = [];
  for (let i = 0; i < pages.length;) {
    let j = i;
    while (j + 1 < pages.length && (pages[j + 1] as number) === (pages[j] as number) + 1) j++;
    ranges.push(i === j ? `${pages[i]}` : `${pages[i]}–${pages[j]}`);
    i = j + 1;
  }
  return ranges.join(", ");
};
