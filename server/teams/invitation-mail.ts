import { sendLinkMail } from "../mail/mailer";

/**
 * Mails an invitation link when SMTP_URL is configured. Mail is a convenience: the link is always shown to the admin
 * too, so a failed delivery is logged and reported (mailed: false), never an error.
 */
export const sendInvitationMail = ({ invitationId, to, path }: { invitationId: string; to: string; path: string }) =>
  sendLinkMail({
    to,
    path,
    subject: "You are invited to a team on Quarry",
    text: (link) =>
      `You have been invited to join a team on Quarry.\n\nOpen this link to accept (it works once):\n${link}\n`,
    context: { invitationId },
  });
