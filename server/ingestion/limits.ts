import { AppError } from "../errors";

/** A parse that runs longer than this fails the build instead of holding a job slot forever. */
export const PARTITION_TIMEOUT_MS = 10 * 60 * 1000;

export const withTimeout = async <T>(work: Promise<T>, ms: number, message: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AppError("UNPROCESSABLE", message)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
};
