import type { Metadata } from "next";
import Link from "next/link";
import { ForgotPasswordForm } from "@/components/auth/password-reset-forms";
import { mailConfigured } from "@/server/mail/mailer";

export const metadata: Metadata = { title: "Forgot password" };
// Whether mail is set up is read per request (the settings may change without a rebuild).
export const dynamic = "force-dynamic";

/** Mails a reset link through the SMTP settings invitations use; without them, an admin issues the link. */
const ForgotPasswordPage = () => (
  <div className="space-y-5">
    <div>
      <h1 className="text-lg font-semibold">Forgot your password?</h1>
      <p className="mt-1 text-sm text-muted-foreground">
        {mailConfigured()
          ? "Enter the address you sign in with and we will mail you a link to choose a new password."
          : "This Quarry does not send mail. Ask an admin of your team for a password reset link: they can issue one from the team's members page."}
      </p>
    </div>
    {mailConfigured() && <ForgotPasswordForm />}
    <Link href="/sign-in" className="block text-sm text-link underline">
      Back to sign-in
    </Link>
  </div>
);

export default ForgotPasswordPage;
