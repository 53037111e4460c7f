import { env } from "../env";

/** The public run URL: PUBLIC_FLOWS_BASE with the name in front of it, else the absolute path form (§2.8). */
export const flowUrl = (name: string, origin: string) => {
  const base = env.PUBLIC_FLOWS_BASE;
  if (base) {
    const url = new URL(base);
    return `${url.protocol}//${name}.${url.host}${url.pathname.replace(/\/$/, "")}`;
  }
  return `${origin}/api/public/v1/flows/${name}`;
};
