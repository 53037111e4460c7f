"use client";

import { Notice } from "@/components/ui/alert";
import { CopyButton } from "@/components/ui/copy-button";
import type { TeamMembersState } from "./use-team-members";

/** The password reset link an admin just issued: shown once, to copy and hand over. */
export const ResetLinkNotice = ({ resetLink }: { resetLink: TeamMembersState["resetLink"] }) =>
  resetLink && (
    <Notice className="mx-5 mt-4">
      <p className="font-medium">
        Password reset link for {resetLink.email} (shown once; works once, until {resetLink.expiresAt.toLocaleString()}
        ):
      </p>
      <div className="mt-2 flex items-center gap-2">
        <code aria-label="Reset link" className="min-w-0 flex-1 truncate rounded bg-card px-2 py-1 font-mono text-xs">
          {resetLink.link}
        </code>
        <CopyButton text={resetLink.link} label="Copy link" />
      </div>
      <p className="mt-2 text-xs text-muted-foreground">
        Setting a new password with it signs {resetLink.email} out everywhere.
      </p>
    </Notice>
  );
