/**
 * Next calls this once while the server prepares. Under `npm start` it readies the app's services (job executor,
 * bootstrap, re-embedding) in Next's own module graph; scripts/start.ts starts them once the app answers.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const [{ prepareAppServices }, { functions }] = await Promise.all([
      import("./server/startup/app-services"),
      import("./inngest/index"),
    ]);
    await prepareAppServices(functions);
  }
}
