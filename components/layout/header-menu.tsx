"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { buttonClass } from "@/components/ui/button";

const FOCUSABLE = "a[href], button:not([disabled]), select, input, [tabindex='0']";

/**
 * The header's menu button on narrow screens: a disclosure (aria-expanded, aria-controls) whose panel drops below the
 * header. Opening moves focus to the panel's first control; Escape or a click outside closes it (Escape returns focus
 * to the button). Following a link closes it too, because the panel only stays open for the page it was opened on.
 */
export const HeaderMenu = ({ pathname, children }: { pathname: string; children: ReactNode }) => {
  const id = useId();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpenOn(null);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !open) return;
    event.preventDefault();
    setOpenOn(null);
    button.current?.focus();
  };

  return (
    <div ref={root} onKeyDown={onKeyDown} className="md:hidden">
      <button
        ref={button}
        type="button"
        className={buttonClass({ variant: "secondary", size: "sm" })}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpenOn(open ? null : pathname)}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 16 16"
          className="size-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
        >
          {open ? <path d="M4 4l8 8M12 4l-8 8" /> : <path d="M2.5 4h11M2.5 8h11M2.5 12h11" />}
        </svg>
        Menu
      </button>
      <div
        ref={panel}
        id={id}
        hidden={!open}
        className="absolute inset-x-0 top-full z-40 max-h-[calc(100dvh-3.5rem)] overflow-y-auto border-b border-border bg-card px-4 py-4 shadow-lg"
      >
        {open && <div className="flex flex-col gap-4">{children}</div>}
      </div>
    </div>
  );
};
