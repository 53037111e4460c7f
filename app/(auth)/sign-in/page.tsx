import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { ProviderButtons, SignInForm } from "@/components/auth/auth-forms";
import { safeNext } from "@/components/auth/safe-next";
import { configuredProviders } from "@/server/auth/auth";
import { currentSession } from "@/server/auth/session";
import { hasAnyUser } from "@/server/auth/sign-up-gate";

export const metadata: Metadata = { title: "Sign in" };

const SignInPage = async ({ searchParams }: { searchParams: Promise<{ next?: string; error?: string }> }) => {
  const { next, error } = await searchParams;
  if (!(await hasAnyUser())) redirect("/setup");
  if (await currentSession()) redirect(safeNext(next));
  return (
    <div className="space-y-5">
      <h1 className="text-lg font-semibold">Sign in</h1>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error === "invitation_required"
            ? "There is no account for you yet. Ask a team admin for an invitation link."
            : error === "account_not_linked"
              ? "An account with this email already exists. Sign in with its password."
              : `Sign-in failed (${error}).`}
        </p>
      )}
      <SignInForm next={safeNext(next)} />
      <Link href="/forgot-password" className="block text-sm text-link underline">
        Forgot your password?
      </Link>
      <ProviderButtons providers={configuredProviders()} next={safeNext(next)} />
      <p className="text-xs text-muted-foreground">
        No account? Accounts are made through an invitation link from a team admin.
      </p>
    </div>
  );
};

export default SignInPage;
