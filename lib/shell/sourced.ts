/**
 * What `source FILE` (`. FILE`) leaves behind in the shell, where the file is one whose effect is
 * known by its place: a Python virtual environment's `bin/activate`, which keeps the cwd and puts
 * the environment's `bin` first in `PATH` (`VIRTUAL_ENV` and the prompt aside). The file's own
 * commands are judged as a script's are (RULINGS "A program given by path": running a file is
 * reading it), so a file that only looks like one does nothing its commands could not do alone.
 *
 * @example
 * ```ts
 * import { literal } from "../programs/words.ts";
 * activatedEnvironment(literal(".venv/bin/activate")); // ".venv"
 * activatedEnvironment(literal("scripts/env.sh")); // null
 * ```
 *
 * @module
 */
import type { Word } from "./model.ts";

/** A venv's activation script for bash, as `source` names it: `[DIR/]bin/activate`. */
const ACTIVATE = /^(?:(.*[^/])\/+)?bin\/+activate$/;

/**
 * The virtual environment (its directory as written, `.` for `bin/activate`) whose activation
 * script `file` is, or null when it is none or not known (a value not static, a glob).
 */
export function activatedEnvironment(file: Word | undefined): string | null {
  if (file?.kind !== "static") return null;
  const m = ACTIVATE.exec(file.value);
  if (m === null) return null;
  return m[1] ?? ".";
}
