import { QueryClient } from "@tanstack/react-query";

const makeQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      // Lists poll on their own while work is in flight; a short stale time keeps tab switches from refetching all.
      queries: { staleTime: 5_000, retry: 1 },
    },
  });

let browserQueryClient: QueryClient | undefined;

/** One client per browser tab; on the server a fresh one per render, so no cache is shared between requests. */
export const getQueryClient = (): QueryClient => {
  if (typeof window === "undefined") return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
};
