"use client";

import { useState } from "react";
import { parseTheme, THEME_COOKIE, THEMES, type Theme } from "@/components/providers/theme";
import { Select } from "@/components/ui/input";

const readCookie = () => document.cookie.match(new RegExp(`(?:^|; )${THEME_COOKIE}=([^;]*)`))?.[1];

/** Light, dark or the system's choice; stored in a cookie the server reads on the next render. */
export const ThemeToggle = () => {
  const [theme, setTheme] = useState<Theme>(() =>
    typeof document === "undefined" ? "system" : parseTheme(readCookie()),
  );
  const choose = (next: Theme) => {
    setTheme(next);
    document.cookie = `${THEME_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
    const root = document.documentElement;
    root.classList.remove("light", "dark");
    if (next !== "system") root.classList.add(next);
  };
  return (
    <Select
      aria-label="Theme"
      value={theme}
      onChange={(e) => choose(e.target.value as Theme)}
      className="h-8 w-auto text-xs"
      suppressHydrationWarning
    >
      {THEMES.map((t) => (
        <option key={t} value={t}>
          {t === "system" ? "System theme" : t === "light" ? "Light" : "Dark"}
        </option>
      ))}
    </Select>
  );
};
