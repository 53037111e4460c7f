import nodemailer from "nodemailer";
import { env } from "../env";
import { logger } from "../logger";

/**
 * Mails an invitation link when SMTP_URL is configured. Mail is a convenience: the link is always shown to the admin
 * too, so a failed delivery is logged and reported (mailed: false), never an error.
 */
export const sendInvitationMail = async ({
  invitationId,
  to,
  path,
}: {
  invitationId: string;
  to: string;
  path: string;
}): Promise<boolean> => {
  if (!env.SMTP_URL) return false;
  if (!env.QUARRY_PUBLIC_URL) {
    logger.warn({ invitationId }, "invitation not mailed: set QUARRY_PUBLIC_URL so the mail can carry a full link");
    return false;
  }
  const link = new URL(path, env.QUARRY_PUBLIC_URL).toString();
  try {
    const transport = nodemailer.createTransport(env.SMTP_URL);
    await transport.sendMail({
      from: env.SMTP_FROM,
      to,
      subject: "You are invited to a team on Quarry",
      text: `You have been invited to join a team on Quarry.\n\nOpen this link to accept (it works once):\n${link}\n`,
    });
    return true;
  } catch (err) {
    logger.warn({ err, invitationId }, "invitation mail could not be sent");
    return false;
  }
};
