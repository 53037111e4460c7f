"use client";

import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";

/**
 * Short confirmations of completed actions ("Conversation renamed"), shown in one polite live region at the bottom
 * of the screen and gone after a few seconds; a click dismisses one at once.
 */

const SHOW_MS = 4000;

type Toast = { id: number; message: string };
const ToastContext = createContext<(message: string) => void>(() => {});

export const ToastProvider = ({ children }: { children: ReactNode }) => {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(0);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback(
    (message: string) => {
      const id = ++nextId.current;
      // Three at most: a burst of actions must not stack toasts up the screen.
      setToasts((all) => [...all.slice(-2), { id, message }]);
      const timer = setTimeout(() => {
        timers.current.delete(timer);
        dismiss(id);
      }, SHOW_MS);
      timers.current.add(timer);
    },
    [dismiss],
  );
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div
        role="status"
        aria-live="polite"
        aria-label="Notifications"
        className="pointer-events-none fixed right-4 bottom-4 z-50 flex max-w-[calc(100vw-2rem)] flex-col items-end gap-2"
      >
        {toasts.map((t) => (
          <button
            key={t.id}
            type="button"
            onClick={() => dismiss(t.id)}
            title="Dismiss"
            className="pointer-events-auto rounded-md border border-border bg-card px-4 py-2 text-left text-sm text-foreground shadow-lg"
          >
            {t.message}
          </button>
        ))}
      </div>
    </ToastContext.Provider>
  );
};

/** `toast("Saved")` from any dashboard component. */
export const useToast = () => useContext(ToastContext);
