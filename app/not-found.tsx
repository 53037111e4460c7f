import Link from "next/link";
import { buttonClass } from "@/components/ui/button";

const NotFound = () => (
  <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-6 text-center">
    <p className="text-sm font-semibold text-link">404</p>
    <h1 className="text-2xl font-semibold tracking-tight">Page not found</h1>
    <p className="max-w-md text-sm text-muted-foreground">
      There is nothing at this address, or it belongs to a project you are not a member of.
    </p>
    <Link href="/" className={buttonClass()}>
      Back to your projects
    </Link>
  </main>
);

export default NotFound;
