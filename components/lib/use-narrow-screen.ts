"use client";

import { useSyncExternalStore } from "react";

/** Below Tailwind's `md` breakpoint (768 px): phones, where the header collapses and the flow canvas is read-only. */
const NARROW = "(max-width: 767.98px)";

const subscribe = (onChange: () => void) => {
  const query = window.matchMedia(NARROW);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
};

/** Whether the window is phone-sized now; follows rotation and resizing. False while rendering on the server. */
export const useNarrowScreen = () =>
  useSyncExternalStore(
    subscribe,
    () => window.matchMedia(NARROW).matches,
    () => false,
  );
