import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignUpForm } from "@/components/auth/auth-forms";
import { hasAnyUser } from "@/server/auth/sign-up-gate";

export const metadata: Metadata = { title: "Create the owner account" };

/**
 * A fresh install's first visit: the account made here owns the default team (and every project made before
 * accounts existed). Once any account exists this page only sends visitors to sign-in, and the server refuses
 * sign-ups without an invitation whatever a client sends.
 */
const SetupPage = async () => {
  if (await hasAnyUser()) redirect("/sign-in");
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-lg font-semibold">Welcome to Quarry</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Create the owner account. It owns the default team and its projects; invite everyone else from there.
        </p>
      </div>
      <SignUpForm label="Create the owner account" submitLabel="Create owner account" />
    </div>
  );
};

export default SetupPage;
