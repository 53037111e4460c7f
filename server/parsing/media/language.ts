/**
 * One spelling for languages: BCP 47 / ISO 639-1 codes ("en", "fr"). Container tags are ISO 639-2 ("eng", "fre"),
 * Whisper answers with English names ("english") and some compatible servers with codes; all become the same code so
 * a search can filter on it. Intl carries the tables, so none is copied here.
 */

/** Names Whisper uses that CLDR spells differently. */
const NAME_ALIASES: Record<string, string> = {
  myanmar: "my",
  nynorsk: "nn",
  castilian: "es",
  valencian: "ca",
  flemish: "nl",
  moldavian: "ro",
  moldovan: "ro",
  letzeburgesch: "lb",
  pushto: "ps",
  panjabi: "pa",
  sinhalese: "si",
  haitian: "ht",
  mandarin: "zh",
  tagalog: "tl",
};

const fold = (name: string) => name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim();

let byName: Map<string, string> | undefined;

/** English language name → code, for every two-letter code CLDR names (built once, ~200 entries). */
const namesToCodes = (): Map<string, string> => {
  if (byName) return byName;
  byName = new Map(Object.entries(NAME_ALIASES));
  const names = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
  const letters = "abcdefghijklmnopqrstuvwxyz";
  for (const a of letters) {
    for (const b of letters) {
      // Deprecated codes ("iw", "mo") canonicalise to the current one, so a name never maps to an old code.
      const code = canonicalCode(a + b);
      const name = code ? names.of(code) : undefined;
      if (code && name && !byName.has(fold(name))) byName.set(fold(name), code);
    }
  }
  for (const code of ["haw", "yue"]) {
    const name = names.of(code);
    if (name) byName.set(fold(name), code);
  }
  return byName;
};

const canonicalCode = (tag: string): string | null => {
  if (!/^[a-z]{2,3}(?:[-_][a-z0-9]{2,8})*$/i.test(tag)) return null;
  try {
    const code = Intl.getCanonicalLocales(tag.replace(/_/g, "-"))[0];
    return code ? code.split("-")[0]!.toLowerCase() : null;
  } catch {
    return null;
  }
};

/**
 * A language code for a container tag, a Whisper language name or a code; null for "und"/unknown input. Values no
 * table knows are kept (lower-cased) rather than dropped.
 */
export const normalizeLanguage = (value: unknown): string | null => {
  if (typeof value !== "string") return null;
  const raw = value.trim();
  if (!raw || /^(und|unknown|zxx|mul|mis)$/i.test(raw)) return null;
  const named = namesToCodes().get(fold(raw));
  if (named) return named;
  return canonicalCode(raw) ?? raw.toLowerCase();
};

export const isEnglish = (value: unknown): boolean => normalizeLanguage(value) === "en";
