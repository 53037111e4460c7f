"use client";

import { useState, type FormEvent } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useZodForm } from "@/components/ui/use-zod-form";
import { SignInInput, SignUpInput } from "@/server/teams/teams.schema";
import { signIn, signInWithProvider, signUp } from "./auth-client";
import { safeNext } from "./safe-next";

const formValues = (form: HTMLFormElement) => Object.fromEntries(new FormData(form).entries());

export const ProviderButtons = ({
  providers,
  next,
  inviteToken,
}: {
  providers: { id: string; name: string }[];
  next: string;
  inviteToken?: string;
}) => {
  const [error, setError] = useState<string | null>(null);
  if (providers.length === 0) return null;
  return (
    <div className="space-y-2">
      <div className="flex items-center gap-3 text-xs text-muted-foreground">
        <span className="h-px flex-1 bg-border" /> or <span className="h-px flex-1 bg-border" />
      </div>
      {providers.map((p) => (
        <Button
          key={p.id}
          variant="secondary"
          className="w-full"
          onClick={() =>
            signInWithProvider(p.id, next, inviteToken).catch((e: unknown) =>
              setError(e instanceof Error ? e.message : String(e)),
            )
          }
        >
          Continue with {p.name}
        </Button>
      ))}
      {error && <ErrorAlert>{error}</ErrorAlert>}
    </div>
  );
};

export const SignInForm = ({ next, onSignedIn }: { next: string; onSignedIn?: () => Promise<void> | void }) => {
  const { errors, validate } = useZodForm(SignInInput);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = validate(formValues(event.currentTarget));
    if (!values) return;
    setPending(true);
    setFailure(null);
    try {
      await signIn(values);
      await onSignedIn?.();
      window.location.assign(safeNext(next));
    } catch (e) {
      setFailure(e instanceof Error ? e.message : String(e));
      setPending(false);
    }
  };
  return (
    <form aria-label="Sign in" noValidate onSubmit={onSubmit} className="space-y-4">
      <Field label="Email" error={errors.email}>
        {(p) => <Input {...p} name="email" type="email" autoComplete="email" required />}
      </Field>
      <Field label="Password" error={errors.password}>
        {(p) => <Input {...p} name="password" type="password" autoComplete="current-password" required />}
      </Field>
      {failure && <ErrorAlert>{failure}</ErrorAlert>}
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
};

export const SignUpForm = ({
  label,
  submitLabel,
  inviteToken,
  email,
  next = "/",
}: {
  label: string;
  submitLabel: string;
  inviteToken?: string;
  email?: string | null;
  next?: string;
}) => {
  const { errors, validate } = useZodForm(SignUpInput);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = validate(formValues(event.currentTarget));
    if (!values) return;
    setPending(true);
    setFailure(null);
    try {
      await signUp(values, inviteToken);
      window.location.assign(safeNext(next));
    } catch (e) {
      setFailure(e instanceof Error ? e.message : String(e));
      setPending(false);
    }
  };
  return (
    <form aria-label={label} noValidate onSubmit={onSubmit} className="space-y-4">
      <Field label="Name" error={errors.name}>
        {(p) => <Input {...p} name="name" autoComplete="name" required />}
      </Field>
      <Field label="Email" error={errors.email}>
        {(p) => (
          <Input
            {...p}
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={email ?? undefined}
            readOnly={!!email}
          />
        )}
      </Field>
      <Field label="Password" error={errors.password} hint="At least 8 characters">
        {(p) => <Input {...p} name="password" type="password" autoComplete="new-password" required />}
      </Field>
      {failure && <ErrorAlert>{failure}</ErrorAlert>}
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? "Creating account…" : submitLabel}
      </Button>
    </form>
  );
};
