"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { ErrorAlert, Notice } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { requestPasswordReset, resetPassword } from "./auth-client";
import { EXPIRED_LINK } from "./reset-messages";

type State = { pending?: boolean; error?: string; done?: boolean };

/** "Forgot password": one answer whether or not the address has an account, so it cannot be used to probe. */
export const ForgotPasswordForm = () => {
  const [state, setState] = useState<State>({});
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) return setState({ error: "Enter a valid email address" });
    setState({ pending: true });
    try {
      await requestPasswordReset(email);
      setState({ done: true });
    } catch (e) {
      setState({ error: (e as Error).message });
    }
  };
  if (state.done) {
    return (
      <Notice>
        <p role="status">
          If an account uses this address, a link to choose a new password is on its way. It works once, for one hour.
        </p>
      </Notice>
    );
  }
  return (
    <form aria-label="Forgot password" noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4">
      <Field label="Email">{(p) => <Input {...p} name="email" type="email" autoComplete="email" required />}</Field>
      {state.error && <ErrorAlert>{state.error}</ErrorAlert>}
      <Button type="submit" className="w-full" disabled={state.pending}>
        {state.pending ? "Sending…" : "Mail me a reset link"}
      </Button>
    </form>
  );
};

const problemOf = (next: string, repeat: string) =>
  next.length < 8 || next.length > 128
    ? "A password has 8 to 128 characters"
    : next !== repeat
      ? "The two passwords differ"
      : null;

/** A new password with a reset token; on success, on to sign-in (every session was signed out). */
export const ResetPasswordForm = ({ token }: { token: string }) => {
  const [state, setState] = useState<State>({});
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const [next, repeat] = ["next", "repeat"].map((k) => String(data.get(k) ?? ""));
    const problem = problemOf(next!, repeat!);
    if (problem) return setState({ error: problem });
    setState({ pending: true });
    try {
      await resetPassword({ token, newPassword: next! });
      setState({ done: true });
    } catch (e) {
      // Better Auth answers a used, expired or unknown token with "Invalid token".
      const message = (e as Error).message;
      setState({ error: /invalid token/i.test(message) ? EXPIRED_LINK : message });
    }
  };
  if (state.done) {
    return (
      <div className="space-y-3">
        <p role="status" className="text-sm">
          Your password was changed. Every browser that was signed in has been signed out.
        </p>
        <Link href="/sign-in" className="text-sm text-link underline">
          Sign in with the new password
        </Link>
      </div>
    );
  }
  return (
    <form aria-label="Choose a new password" noValidate onSubmit={(e) => void onSubmit(e)} className="space-y-4">
      <Field label="New password" hint="8 to 128 characters">
        {(p) => <Input {...p} name="next" type="password" autoComplete="new-password" required />}
      </Field>
      <Field label="New password again">
        {(p) => <Input {...p} name="repeat" type="password" autoComplete="new-password" required />}
      </Field>
      {state.error && <ErrorAlert>{state.error}</ErrorAlert>}
      <Button type="submit" className="w-full" disabled={state.pending}>
        {state.pending ? "Saving…" : "Set new password"}
      </Button>
    </form>
  );
};
