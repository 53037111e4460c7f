/**
 * The browser's calls to Better Auth's endpoints (/api/auth). Plain fetch: the pages need four calls, not the
 * library's client bundle. Errors come back as `{ message }` and are thrown as readable Errors.
 */

const INVITE_HEADER = "x-quarry-invite";
const INVITE_COOKIE = "quarry_invite";

const post = async <T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> => {
  const res = await fetch(`/api/auth${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = (await res.json().catch(() => null)) as (T & { message?: string }) | null;
  if (!res.ok) throw new Error(data?.message || `Request failed (HTTP ${res.status})`);
  return data as T;
};

export const signIn = (input: { email: string; password: string }) => post("/sign-in/email", input);

export const signUp = (input: { name: string; email: string; password: string }, inviteToken?: string) =>
  post("/sign-up/email", input, inviteToken ? { [INVITE_HEADER]: inviteToken } : {});

export const signOut = () => post("/sign-out", {});

/**
 * Starts an OAuth/OIDC sign-in. An invitation travels in a short-lived cookie, because the provider's redirect back
 * cannot carry a header; the server's sign-up gate reads it.
 */
export const signInWithProvider = async (provider: string, callbackURL: string, inviteToken?: string) => {
  if (inviteToken) {
    document.cookie = `${INVITE_COOKIE}=${encodeURIComponent(inviteToken)}; path=/; max-age=900; samesite=lax`;
  }
  // A refusal (no invitation, provider error) comes back to the sign-in page, which explains it.
  const errorCallbackURL = "/sign-in";
  // The OIDC provider is registered as a social provider too (Better Auth's generic OAuth plugin).
  const { url } = await post<{ url: string }>("/sign-in/social", { provider, callbackURL, errorCallbackURL });
  window.location.assign(url);
};

/** A new password for the signed-in user; every other session of theirs is signed out. */
export const changePassword = (input: { currentPassword: string; newPassword: string }) =>
  post("/change-password", { ...input, revokeOtherSessions: true });

/** Mails a reset link when the address has an account; the answer is the same either way. */
export const requestPasswordReset = (email: string) => post("/request-password-reset", { email });

/** Sets a new password with a reset token (mailed or admin-issued); the token is used up, sessions are signed out. */
export const resetPassword = (input: { token: string; newPassword: string }) => post("/reset-password", input);
