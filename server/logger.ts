import pino, { type LoggerOptions } from "pino";
import { env } from "./env";
import { safeError, scrubLogObject } from "./log-serializers";

/** The logger's settings (exported for the serializers' test). */
export const loggerOptions = (): LoggerOptions => ({
  level: env.LOG_LEVEL,
  base: { app: "quarry" },
  // Errors keep type, message, code, stack and cause; clients, requests and secrets never reach a line.
  serializers: { err: safeError, error: safeError },
  formatters: { log: scrubLogObject },
  redact: { paths: ["req.headers.authorization", "*.token", "*.authorization"], censor: "[redacted]" },
});

/** Server-side logging. Request handlers and jobs take a child logger with their own bindings. */
export const logger = pino(loggerOptions());

export type Logger = typeof logger;
