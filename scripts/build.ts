/** Builds the app when there is no build yet or a source changed since (used by `npm test` and test setup). */
import path from "node:path";
import { ensureNextBuild } from "../server/startup/next-build";

ensureNextBuild(path.resolve(import.meta.dirname, ".."));
