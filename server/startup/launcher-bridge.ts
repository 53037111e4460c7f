/**
 * Where the launcher (scripts/start.ts) and the app's own services (app-services.ts, which Next's instrumentation
 * hook loads) meet. Both run in one process but in two module graphs, the launcher's bundle and Next's server bundle,
 * so they meet on globalThis, as health.ts and jobs/in-process-events.ts do. The launcher holds none of the app's
 * domain code: the job executor, bootstrap and re-embedding run in Next's module graph, next to the routes, instead
 * of in a second copy of every module and a second Prisma client (about 10 MB of the idle app, already bundled).
 */

/** What the launcher knows and the services need. */
export type LaunchContext = {
  /** The app's own address for calls to itself (the local executor calls /api/inngest there). */
  origin: string;
  /** The address shown to people. */
  url: string;
  embeddedDatabase: boolean;
};

/** The local executor's event endpoint, when jobs run in-process: requests under `path` go to `handle`. */
export type LocalEvents = { path: string; handle: (request: Request) => Promise<Response> };

/** The running services, as the launcher sees them. */
export type AppServices = {
  /** Stops taking and driving jobs (before the HTTP server closes). */
  stopJobs: () => Promise<void>;
  /** Closes the app's database connections (after the HTTP server closed). */
  disconnect: () => Promise<void>;
};

type Slot = { context?: LaunchContext; start?: () => Promise<AppServices>; localEvents?: LocalEvents };
const SLOT = Symbol.for("quarry.launcher");
const slot = (): Slot => ((globalThis as { [SLOT]?: Slot })[SLOT] ??= {});

/** Launcher, before Next prepares: only a Next started by the launcher starts the services. */
export const setLaunchContext = (context: LaunchContext) => {
  slot().context = context;
};

export const launchContext = (): LaunchContext | undefined => slot().context;

/** Services, when Next prepares: how the launcher starts them once the app serves requests. */
export const setServicesStarter = (start: () => Promise<AppServices>) => {
  slot().start = start;
};

export const servicesStarter = (): (() => Promise<AppServices>) | undefined => slot().start;

/**
 * Services, as soon as the executor runs: events sent over HTTP (`inngest.send()`) reach it from then on, also those
 * the rest of the start sends (re-embedding jobs).
 */
export const setLocalEvents = (events: LocalEvents) => {
  slot().localEvents = events;
};

export const localEvents = (): LocalEvents | undefined => slot().localEvents;
