"use client";

/**
 * A failed build in the user's words, and for admins the server's own reason behind a "Details" toggle. The server
 * sends `error` to admins only (server/sources/listing.ts); `showDetails` keeps the toggle away from other roles
 * even if a row arrived with it.
 */
export const FailureReason = ({
  failure,
  error,
  showDetails,
}: {
  failure: string | null;
  error: string | null;
  showDetails: boolean;
}) => (
  <div className="space-y-1 text-xs">
    <p className="text-destructive">{failure ?? "Processing failed."}</p>
    {showDetails && error && (
      <details className="text-muted-foreground">
        <summary className="cursor-pointer font-medium hover:text-foreground">Details</summary>
        <p className="mt-1 font-mono break-words whitespace-pre-wrap">{error}</p>
      </details>
    )}
  </div>
);
