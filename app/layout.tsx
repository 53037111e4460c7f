import type { Metadata } from "next";
import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { TRPCReactProvider } from "@/components/providers/trpc-provider";
import { THEME_COOKIE, themeClass } from "@/components/providers/theme";
import "./globals.css";

// Every page depends on the visitor's session, and nothing may be prerendered at build time: `npm start` builds while
// the embedded database it would query waits for the build to end.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Quarry", template: "%s · Quarry" },
  description: "Self-hostable document ingestion and retrieval",
  // Inline, so the browser does not ask for a /favicon.ico that does not exist.
  icons: {
    icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='6' fill='%234f46e5'/%3E%3Cpath d='M9 22 16 8l7 14z' fill='white'/%3E%3C/svg%3E",
  },
};

/** The theme comes from a cookie, so the server renders the right one and no inline script is needed (strict CSP). */
const RootLayout = async ({ children }: { children: ReactNode }) => {
  const theme = (await cookies()).get(THEME_COOKIE)?.value;
  return (
    <html lang="en" className={themeClass(theme)}>
      <body className="min-h-screen bg-background font-sans text-foreground antialiased">
        <TRPCReactProvider>{children}</TRPCReactProvider>
      </body>
    </html>
  );
};

export default RootLayout;
