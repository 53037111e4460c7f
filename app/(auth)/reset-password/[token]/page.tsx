import type { Metadata } from "next";
import Link from "next/link";
import { ResetPasswordForm } from "@/components/auth/password-reset-forms";
import { EXPIRED_LINK } from "@/components/auth/reset-messages";
import { resetTokenUsable } from "@/server/auth/password-reset";

export const metadata: Metadata = { title: "Choose a new password" };

/** The page a reset link opens (mailed, or issued by an admin): a new password, once. */
const ResetPasswordPage = async ({ params }: { params: Promise<{ token: string }> }) => {
  const { token } = await params;
  if (!(await resetTokenUsable(token))) {
    return (
      <div className="space-y-3">
        <h1 className="text-lg font-semibold">This reset link no longer works</h1>
        <p className="text-sm text-muted-foreground">{EXPIRED_LINK}</p>
        <Link href="/forgot-password" className="block text-sm text-link underline">
          Ask for a new link
        </Link>
        <Link href="/sign-in" className="block text-sm text-link underline">
          Go to sign-in
        </Link>
      </div>
    );
  }
  return (
    <div className="space-y-5">
      <h1 className="text-lg font-semibold">Choose a new password</h1>
      <ResetPasswordForm token={token} />
    </div>
  );
};

export default ResetPasswordPage;
