/**
 * A program given by a path outside the tool's `PATH` (`x/grep`, `./bin/test`, `script/test`),
 * named like a program the registry knows, is no more that program than any file is (RULINGS "A
 * program given by path": elsewhere, running a file is reading it): what it does with its words
 * is not known. Such a stage is judged twice, as the program its name says (what that one's
 * facets add: what it runs, writes, the rules about it, `x/rm -rf src`) and as a program not
 * known (its path-like words files it may open, its words commands it may run); the stricter
 * wins. `x/grep secrets/key` reads secrets/key, though grep's first operand is a pattern. An
 * interpreter given inline code (`.venv/bin/python -c CODE`, a python uv or conda keeps outside
 * `PATH`) is judged as that interpreter alone: its code is not seen whatever runs it.
 *
 * A path in a directory of the tool's `PATH` (`/usr/bin/grep`), or a link leading there from
 * each cwd (`.venv/bin/python` -> `/usr/bin/python3.11`), is that program alone. A bare name is
 * looked up in `PATH`; one a `PATH` the command sets finds elsewhere is a stage by path already
 * (searched_programs.ts), judged here as any other.
 *
 * @module
 */
import type { Stage } from "../shell/model.ts";
import { programOf } from "../programs/registry.ts";
import type { Context } from "../types.ts";
import { inSearchPath, leadsIntoSearchPath } from "./search_path.ts";

const NONE: readonly [Stage, Stage][] = [];

/**
 * The stages again as programs not known, each with the stage it stands beside (see
 * `unnamedProgram`).
 */
export function unnamedPrograms(stages: readonly Stage[], ctx: Context): readonly [Stage, Stage][] {
  let out: [Stage, Stage][] | undefined;
  for (const s of stages) {
    const twin = unnamedProgram(s, ctx);
    if (twin !== null) (out ??= []).push([twin, s]);
  }
  return out ?? NONE;
}

/**
 * The stage as a program not known, where its program word is a path outside the tool's `PATH`
 * that names a registered program (another is judged as a program not known already); null
 * otherwise. Only a stage whose program word has a `/` is looked at further.
 */
export function unnamedProgram(s: Stage, ctx: Context): Stage | null {
  const name = s.argv[0];
  if (name?.kind !== "static" || !name.value.includes("/")) return null;
  const program = programOf(name);
  // (Inline code an interpreter is given, `.venv/bin/python -c CODE` with a python not linked
  // into PATH, is code not seen whatever runs it: read as command lines, it would deny.)
  if (program === undefined || program.evaluates?.(s)) return null;
  if (inSearchPath(name.value, ctx) || leadsIntoSearchPath(name.value, s.cwds, ctx)) return null;
  return {
    ...s,
    argv: [{ ...name, unnamed: true }, ...s.argv.slice(1)],
    origin: `${s.origin} (${name.value}, not in PATH: a program not known)`,
  };
}
