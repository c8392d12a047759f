/**
 * Whether a program given by path is one the tool's `PATH` finds by name (RULINGS "A program
 * given by path").
 *
 * @module
 */
import { resolve } from "node:path";
import { realPath } from "../shell/paths.ts";
import type { Context } from "../types.ts";

/**
 * Whether a program given by path is one the tool's `PATH` finds by name (`/usr/bin/python3`):
 * it is that program, its path no target (RULINGS "A program given by path"). Only a plain
 * `DIR/NAME` with DIR an absolute entry of PATH as written (no `.`, `..` or doubled `/`).
 */
export function inSearchPath(value: string, ctx: Context): boolean {
  const slash = value.lastIndexOf("/");
  const dir = value.slice(0, slash);
  if (!dir.startsWith("/") || slash === value.length - 1) return false;
  if (/(^|\/)\.{0,2}(\/|$)/.test(value.slice(1))) return false;
  return (ctx.env.PATH ?? "").split(":").some((entry) =>
    entry.startsWith("/") && plainDir(entry) === dir
  );
}

/** A directory as a PATH entry writes it, without a trailing slash (`/usr/bin/` is `/usr/bin`). */
export function plainDir(dir: string): string {
  return dir.replace(/(.)\/+$/, "$1");
}

/**
 * Whether a program given by path leads through symlinks, from each cwd, to a program the tool's
 * `PATH` finds by name (`.venv/bin/python` -> `/usr/bin/python3.11`): it is that program (judged
 * as it, see `linkedPrograms`), and the link is no file it reads. A link the command makes is not
 * there yet: not one.
 */
export function leadsIntoSearchPath(
  value: string,
  cwds: readonly (string | null)[],
  ctx: Context,
): boolean {
  if (cwds.length === 0) return false;
  for (const c of cwds) {
    if (c === null) return false;
    const written = resolve(c, value);
    const real = realPath(written, ctx.fs);
    if (real === written || !inSearchPath(real, ctx)) return false;
  }
  return true;
}
