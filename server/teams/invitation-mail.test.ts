import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startFakeSmtp, type FakeSmtp } from "../testing/fake-smtp-server";

/** Invitation links by mail, through nodemailer's real SMTP client to a stand-in server on loopback. */

let smtp: FakeSmtp;

const load = async (env: Record<string, string>) => {
  vi.resetModules();
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  const { setRuntimeEnv } = await import("../env");
  setRuntimeEnv("SMTP_FROM", env.SMTP_FROM ?? "Quarry <quarry@localhost>");
  return import("./invitation-mail");
};

beforeAll(async () => {
  smtp = await startFakeSmtp();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await smtp?.close();
});

describe("sendInvitationMail", () => {
  it("mails the full link when SMTP and the public URL are set", async () => {
    const { sendInvitationMail } = await load({ SMTP_URL: smtp.url, QUARRY_PUBLIC_URL: "https://quarry.example.com" });
    const sent = await sendInvitationMail({ invitationId: "i1", to: "new@example.com", path: "/invite/abc123" });
    expect(sent).toBe(true);
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.to).toEqual(["<new@example.com>"]);
    expect(smtp.messages[0]!.data).toContain("https://quarry.example.com/invite/abc123");
  });

  it("reports not mailed, without failing, when the server cannot be reached or the public URL is missing", async () => {
    const unreachable = await load({ SMTP_URL: "smtp://127.0.0.1:9", QUARRY_PUBLIC_URL: "https://quarry.example.com" });
    expect(await unreachable.sendInvitationMail({ invitationId: "i2", to: "a@example.com", path: "/invite/x" })).toBe(
      false,
    );
    const noUrl = await load({ SMTP_URL: smtp.url, QUARRY_PUBLIC_URL: "" });
    expect(await noUrl.sendInvitationMail({ invitationId: "i3", to: "a@example.com", path: "/invite/x" })).toBe(false);
    expect(smtp.messages).toHaveLength(1);
  });
});
