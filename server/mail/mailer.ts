import nodemailer from "nodemailer";
import { env } from "../env";
import { logger } from "../logger";

/**
 * The one mail transport: invitations (server/teams/invitation-mail.ts) and password resets
 * (server/auth/reset-mail.ts) both send through it, with the same SMTP_URL and SMTP_FROM. Mail carries a link into
 * the dashboard, so it needs QUARRY_PUBLIC_URL too; without either, nothing is sent.
 */

/** SMTP and the public URL are both set: links can be mailed. */
export const mailConfigured = () => Boolean(env.SMTP_URL && env.QUARRY_PUBLIC_URL);

/**
 * Mails `text(link)` where link is `path` under QUARRY_PUBLIC_URL. Delivery is best effort: a failure is logged
 * with `context` and reported as false, never thrown.
 */
export const sendLinkMail = async ({
  to,
  subject,
  path,
  text,
  context,
}: {
  to: string;
  subject: string;
  path: string;
  text: (link: string) => string;
  context: Record<string, unknown>;
}): Promise<boolean> => {
  if (!env.SMTP_URL) return false;
  if (!env.QUARRY_PUBLIC_URL) {
    logger.warn(context, "mail not sent: set QUARRY_PUBLIC_URL so the mail can carry a full link");
    return false;
  }
  const link = new URL(path, env.QUARRY_PUBLIC_URL).toString();
  try {
    await nodemailer.createTransport(env.SMTP_URL).sendMail({ from: env.SMTP_FROM, to, subject, text: text(link) });
    return true;
  } catch (err) {
    logger.warn({ err, ...context }, "mail could not be sent");
    return false;
  }
};
