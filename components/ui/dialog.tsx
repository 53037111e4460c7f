"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { Button, type ButtonVariant } from "./button";

/**
 * A modal dialog on the native <dialog> element: focus moves into it and is trapped by the browser, Escape closes
 * it, and the page behind is inert. Open state is owned by the caller.
 */
export const Dialog = ({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
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
      onClose={onClose}
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
