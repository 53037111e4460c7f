export const THEME_COOKIE = "quarry_theme";
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export const parseTheme = (value: string | undefined): Theme =>
  (THEMES as readonly string[]).includes(value ?? "") ? (value as Theme) : "system";

/** Class on <html>: none follows the system (see globals.css). */
export const themeClass = (value: string | undefined) => {
  const theme = parseTheme(value);
  return theme === "system" ? undefined : theme;
};
