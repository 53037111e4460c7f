import { logger } from "../logger";
import { sendLinkMail } from "../mail/mailer";

/** The dashboard page that sets a new password with a reset token (app/(auth)/reset-password/[token]). */
export const resetPasswordPath = (token: string) => `/reset-password/${encodeURIComponent(token)}`;

/** How long a link asked for by mail works: short, because anyone who can read the mailbox can use it. */
export const MAILED_RESET_SECONDS = 60 * 60;

/**
 * Better Auth's `sendResetPassword`: mails the link through the invitations' transport (server/mail/mailer.ts). The
 * answer to "forgot password" must not reveal whether the address has an account, so the mail is sent after the
 * response (not awaited) and its failure is only logged.
 */
export const mailResetLink = ({ user, token }: { user: { id: string; email: string }; token: string }) => {
  void sendLinkMail({
    to: user.email,
    path: resetPasswordPath(token),
    subject: "Reset your Quarry password",
    text: (link) =>
      `Someone (hopefully you) asked to reset the password of your Quarry account.\n\n` +
      `Open this link to choose a new password (it works once, for one hour):\n${link}\n\n` +
      `If you did not ask for this, ignore this mail: your password stays as it is.\n`,
    context: { userId: user.id },
  }).catch((err: unknown) => logger.warn({ err, userId: user.id }, "reset mail failed"));
  return Promise.resolve();
};
