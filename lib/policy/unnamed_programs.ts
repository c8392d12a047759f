/**
 * A program given by a path outside the tool's `PATH` (`x/grep`, `./bin/test`, `script/test`),
 * named like a program the registry knows, is no more that program than any file is (RULINGS "A
 * program given by path": elsewhere, running a file is reading it): what it does with its words
 * is not known. Such a stage is judged twice, as the program its name says (what that one's
 * facets add: what it runs, writes, the rules about it, `x/rm -rf src`) and as a program not
 * known (its path-like words files it may open, its words commands it may run); the stricter
 * wins. `x/grep secrets/key` reads secrets/key, though grep's first operand is a pattern. The
 * inline code an interpreter is given (`.venv/bin/python -c CODE`, a python uv or conda keeps
 * outside `PATH`) is no command line of it (read so, most code would deny): its other words are
 * read as any (`x/python -c 1 rm -rf src`).
 *
 * A path in a directory of the tool's `PATH` (`/usr/bin/grep`), or a link leading there from
 * each cwd (`.venv/bin/python` -> `/usr/bin/python3.11`), is that program alone, unless another
 * stage of the command may write at the link or above it first (`mv x/cat lnk/grep`, `git
 * checkout other -- lnk`, `tar -x`): the link is read as it is now, and by then it may be any
 * file. A bare name is looked up in `PATH`; one a `PATH` the command sets finds elsewhere is a
 * stage by path already (searched_programs.ts), judged here as any other.
 *
 * @module
 */
import { resolve } from "node:path";
import type { Stage } from "../shell/model.ts";
import { programOf } from "../programs/registry.ts";
import type { Context } from "../types.ts";
import { inSearchPath, leadsIntoSearchPath } from "./search_path.ts";
import type { GlobScope } from "./glob_scope.ts";

const NONE: readonly [Stage, Stage][] = [];

/**
 * The stages again as programs not known, each with the stage it stands beside (see
 * `unnamedProgram`; `scope` tells what the command's stages write, asked once at most).
 */
export function unnamedPrograms(
  stages: readonly Stage[],
  ctx: Context,
  scope?: () => GlobScope,
): readonly [Stage, Stage][] {
  let out: [Stage, Stage][] | undefined;
  let known: GlobScope | undefined;
  const once = scope && (() => known ??= scope());
  for (const s of stages) {
    const twin = unnamedProgram(s, ctx, once);
    if (twin !== null) (out ??= []).push([twin, s]);
  }
  return out ?? NONE;
}

/** How `unnamedProgram` asks whether a writer is at the path (see `DisturbedOptions`). */
const AT = { started: true, at: true } as const;

/**
 * The stage as a program not known, where its program word is a path outside the tool's `PATH`
 * that names a registered program (another is judged as a program not known already); null
 * otherwise. Only a stage whose program word has a `/` is looked at further. A link into `PATH`
 * counts as outside where `scope` (what the command's stages write) says another stage may
 * write at it or above it before the stage runs; without a scope, none does.
 */
export function unnamedProgram(s: Stage, ctx: Context, scope?: () => GlobScope): Stage | null {
  const name = s.argv[0];
  if (name?.kind !== "static" || !name.value.includes("/")) return null;
  if (programOf(name) === undefined || inSearchPath(name.value, ctx)) return null;
  let why = "not in PATH";
  if (leadsIntoSearchPath(name.value, s.cwds, ctx)) {
    // (A link's cwds are all known: see `leadsIntoSearchPath`.)
    const globs = scope?.();
    const at = (c: string | null) => globs!.disturbed(resolve(c!, name.value), s, undefined, AT);
    if (globs === undefined || !s.cwds.some(at)) return null;
    why = "a link into PATH another stage may replace first";
  }
  return {
    ...s,
    argv: [{ ...name, unnamed: true }, ...s.argv.slice(1)],
    origin: `${s.origin} (${name.value}, ${why}: a program not known)`,
  };
}
