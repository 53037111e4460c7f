import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { TRPCReactProvider } from "@/components/providers/trpc-provider";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Quarry", template: "%s · Quarry" },
  description: "Self-hostable document ingestion and retrieval",
  // Inline, so the browser does not ask for a /favicon.ico that does not exist.
  icons: {
    icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='6' fill='%234f46e5'/%3E%3Cpath d='M9 22 16 8l7 14z' fill='white'/%3E%3C/svg%3E",
  },
};

const RootLayout = ({ children }: { children: ReactNode }) => (
  <html lang="en">
    <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-6">
          <Link href="/" className="text-lg font-semibold tracking-tight text-slate-900 hover:text-indigo-700">
            Quarry
          </Link>
          <span className="text-sm text-slate-500">Document ingestion and retrieval</span>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-6 py-8">
        <TRPCReactProvider>{children}</TRPCReactProvider>
      </main>
    </body>
  </html>
);

export default RootLayout;
