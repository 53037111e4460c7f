const EXCERPT = 600;

/** Up to EXCERPT characters of a passage around the first mention of `name` (its start when the name is not in it). */
export const excerpt = (text: string, name: string) => {
  if (text.length <= EXCERPT) return text;
  const at = Math.max(0, text.toLowerCase().indexOf(name.toLowerCase()));
  const start = Math.max(0, Math.min(at - EXCERPT / 4, text.length - EXCERPT));
  return `${start > 0 ? "…" : ""}${text.slice(start, start + EXCERPT)}${start + EXCERPT < text.length ? "…" : ""}`;
};
