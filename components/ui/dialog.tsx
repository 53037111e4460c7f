"use client";

import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import { Button, type ButtonVariant } from "./button";

const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Tab from the dialog's last control goes to its first, Shift+Tab from the first to the last. The browser makes the
 * page behind inert but lets Tab leave a modal dialog for the browser's own toolbar, so focus would wander off.
 */
const keepFocusInside = (event: KeyboardEvent<HTMLDialogElement>) => {
  if (event.key !== "Tab") return;
  const stops = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(TABBABLE)).filter((el) =>
    el.checkVisibility(),
  );
  const first = stops[0];
  const last = stops.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  const target = event.shiftKey ? (active === first ? last : null) : active === last ? first : null;
  if (!target) return;
  event.preventDefault();
  target.focus();
};

/**
 * A modal dialog on the native <dialog> element: focus moves into it and stays there (Tab wraps around), Escape
 * closes it, the page behind is inert, and on closing the browser puts focus back on the element that had it (the
 * button that opened the dialog). Open state is owned by the caller. A dialog opened when a request ends, after its
 * button was disabled while pending (so the browser had nothing focused to return to), names that button in
 * `returnFocus`.
 */
export const Dialog = ({
  open,
  onClose,
  title,
  children,
  returnFocus,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  returnFocus?: RefObject<HTMLElement | null>;
}) => {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-label={title}
      onClose={() => {
        onClose();
        if (returnFocus?.current?.isConnected) returnFocus.current.focus();
      }}
      onKeyDown={keepFocusInside}
      className="m-auto w-full max-w-md rounded-lg border border-border bg-card p-0 text-foreground shadow-xl backdrop:bg-black/40"
    >
      {open && (
        <div className="p-5">
          <h2 className="text-base font-semibold">{title}</h2>
          <div className="mt-3">{children}</div>
        </div>
      )}
    </dialog>
  );
};

/** "Are you sure?" for destructive actions; the confirm button says what will happen. */
export const ConfirmDialog = ({
  open,
  title,
  children,
  confirmLabel,
  variant = "danger",
  pending,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  variant?: ButtonVariant;
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) => (
  <Dialog open={open} onClose={onClose} title={title}>
    <div className="text-sm text-muted-foreground">{children}</div>
    <div className="mt-5 flex justify-end gap-2">
      <Button variant="secondary" onClick={onClose} disabled={pending}>
        Cancel
      </Button>
      <Button variant={variant} onClick={onConfirm} disabled={pending}>
        {confirmLabel}
      </Button>
    </div>
  </Dialog>
);
