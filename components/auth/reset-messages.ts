/** Shown when a reset token is used, expired or unknown (by the page before the form, and by the form after it). */
export const EXPIRED_LINK = "This link has expired or was already used. Ask for a new one.";
