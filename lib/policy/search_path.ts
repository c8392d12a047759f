/**
 * Whether a program given by path is one the tool's `PATH` finds by name (RULINGS "A program
 * given by path").
 *
 * @module
 */
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
    entry.startsWith("/") && entry.replace(/(.)\/+$/, "$1") === dir
  );
}
