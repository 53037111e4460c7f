/**
 * At most `limit()` tasks at once; the rest wait in order. A full waiting line refuses at once (`onFull`), so a burst
 * of requests cannot pile up without bound either. The limit is read per call, so a setting can change it in tests.
 */
export const createSemaphore = ({
  limit,
  maxWaiting,
  onFull,
}: {
  limit: () => number;
  maxWaiting: number;
  onFull: () => Error;
}) => {
  let running = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    running -= 1;
    const next = waiting.shift();
    if (next) {
      running += 1;
      next();
    }
  };

  return {
    run: async <T>(task: () => Promise<T>): Promise<T> => {
      if (running >= limit()) {
        if (waiting.length >= maxWaiting) throw onFull();
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running += 1;
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
    stats: () => ({ running, waiting: waiting.length }),
  };
};
