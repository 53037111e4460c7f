"use client";

import Script from "next/script";
import { useEffect, useRef, useState } from "react";
import { ErrorAlert } from "@/components/ui/alert";
import { appIsDark, mendScalarMarkup, SCALAR_CSS } from "./scalar-a11y";

/** The part of Scalar's browser bundle this page uses (it sets `window.Scalar`). */
type ScalarGlobal = {
  createApiReference: (target: HTMLElement, config: Record<string, unknown>) => { destroy?: () => void };
};

export const OPENAPI_URL = "/api/public/v1/openapi.json";
const BUNDLE_URL = "/api/reference/scalar.js";

/**
 * The public API's reference, rendered by Scalar from the OpenAPI document the app generates. The bundle comes from
 * the app itself, and every feature that would reach Scalar's hosts is off, so the pages' content policy holds.
 */
export const ApiReferenceView = () => {
  const target = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const scalar = (window as unknown as { Scalar?: ScalarGlobal }).Scalar;
    if (!loaded || !scalar || !target.current) return;
    const app = scalar.createApiReference(target.current, {
      url: OPENAPI_URL,
      // Nothing from Scalar's own hosts: no web fonts, no telemetry, no AI agent (it loads a registry from them).
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      hideClientButton: true,
      hideDarkModeToggle: true,
      // The app's theme, and colours that read well in it (scalar-a11y.ts).
      forceDarkModeState: appIsDark() ? "dark" : "light",
      customCss: SCALAR_CSS,
    });
    const unmend = mendScalarMarkup(target.current);
    return () => {
      unmend();
      app.destroy?.();
    };
  }, [loaded]);

  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">API reference</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Generated from the code. The document itself is at{" "}
          <a className="text-link underline" href={OPENAPI_URL}>
            {OPENAPI_URL}
          </a>{" "}
          (no token needed); feed it to a client generator.
        </p>
      </div>
      {failed && <ErrorAlert>The reference viewer could not be loaded.</ErrorAlert>}
      <Script
        src={BUNDLE_URL}
        strategy="afterInteractive"
        onReady={() => setLoaded(true)}
        onError={() => setFailed(true)}
      />
      <div ref={target} data-testid="api-reference" className="min-h-[60vh] rounded-md border" />
    </div>
  );
};
