import { Transform } from "node:stream";
import { AppError } from "../errors";

/**
 * Counts the bytes passing through and fails the stream with PAYLOAD_TOO_LARGE once they pass `maxBytes`, so a
 * driver stops writing as soon as an upload is too large instead of after storing all of it.
 */
export const sizeLimit = (maxBytes: number) => {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes)
        done(new AppError("PAYLOAD_TOO_LARGE", `File exceeds the maximum size of ${maxBytes / 1024 / 1024} MB`));
      else done(null, chunk);
    },
  });
  return { counter, size: () => size };
};
