"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { changePassword } from "@/components/auth/auth-client";
import { useTRPC } from "@/components/providers/trpc-provider";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

/** Better Auth's own rule (server/auth/auth.ts): 8 to 128 characters. */
const problemOf = (next: string, repeat: string) =>
  next.length < 8 || next.length > 128
    ? "A password has 8 to 128 characters"
    : next !== repeat
      ? "The two new passwords differ"
      : null;

/** The signed-in user's account: who they are, and a new password (other sessions are signed out). */
export const AccountView = () => {
  const trpc = useTRPC();
  const me = useQuery(trpc.dashboard.account.me.queryOptions());
  const [state, setState] = useState<{ pending?: boolean; error?: string; done?: boolean }>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const [current, next, repeat] = ["current", "next", "repeat"].map((k) => String(data.get(k) ?? ""));
    const problem = problemOf(next!, repeat!);
    if (problem) return setState({ error: problem });
    setState({ pending: true });
    try {
      await changePassword({ currentPassword: current!, newPassword: next! });
      form.reset();
      setState({ done: true });
    } catch (error) {
      setState({ error: (error as Error).message });
    }
  };

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Account</h1>
        <p className="mt-1 text-sm text-muted-foreground">{me.data ? `Signed in as ${me.data.email}` : " "}</p>
      </div>
      <Card label="Password">
        <CardHeader title="Change password" description="Your other signed-in browsers are signed out." />
        <form
          aria-label="Change password"
          noValidate
          onSubmit={(e) => void onSubmit(e)}
          className="grid max-w-md gap-3 px-5 py-4"
        >
          <Field label="Current password">
            {(p) => <Input {...p} name="current" type="password" autoComplete="current-password" />}
          </Field>
          <Field label="New password" hint="8 to 128 characters">
            {(p) => <Input {...p} name="next" type="password" autoComplete="new-password" />}
          </Field>
          <Field label="New password again">
            {(p) => <Input {...p} name="repeat" type="password" autoComplete="new-password" />}
          </Field>
          <Button type="submit" className="justify-self-start" disabled={state.pending}>
            Change password
          </Button>
          {state.done && (
            <p role="status" className="text-sm text-muted-foreground">
              Your password was changed.
            </p>
          )}
          {state.error && <ErrorAlert>{state.error}</ErrorAlert>}
        </form>
      </Card>
    </div>
  );
};
