import pino from "pino";
import { env } from "./env";

/** Server-side logging. Request handlers and jobs take a child logger with their own bindings. */
export const logger = pino({
  level: env.LOG_LEVEL,
  base: { app: "quarry" },
  redact: { paths: ["req.headers.authorization", "*.token", "*.authorization"], censor: "[redacted]" },
});

export type Logger = typeof logger;
