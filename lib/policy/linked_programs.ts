/**
 * A program given by a path that leads through a symlink elsewhere is also the program it
 * reaches: `ln -s /bin/rm x; ./x -rf build` runs rm, as does a `./x` already on disk that points
 * there. Such a stage is judged a second time as that program, so the rules about it apply (the
 * first judgement, running the file as written, stays).
 *
 * @module
 */
import { basename, resolve } from "node:path";
import type { Stage } from "../shell/model.ts";
import { realPath } from "../shell/paths.ts";
import { throughLinks, UNKNOWN_PLACE } from "../programs/links.ts";
import type { MadeLink } from "../programs/spec.ts";
import { literal } from "../programs/words.ts";
import type { Context } from "../types.ts";
import { inSearchPath } from "./search_path.ts";

/**
 * The stages again as the programs their paths lead to, for those whose path is a symlink, each
 * with the stage it stands beside.
 */
export function linkedPrograms(
  stages: Stage[],
  links: MadeLink[],
  ctx: Context,
): [Stage, Stage][] {
  const out: [Stage, Stage][] = [];
  for (const s of stages) {
    const name = s.argv[0];
    if (name?.kind !== "static" || !name.value.includes("/") || inSearchPath(name.value, ctx)) {
      continue;
    }
    for (const c of s.cwds) {
      if (c === null) continue;
      const written = resolve(c, name.value);
      const real = throughLinks(written, links) ?? realPath(written, ctx.fs);
      // (Through a link whose target is not known, the path itself asks: see `throughLinks`.)
      if (real === written || real === UNKNOWN_PLACE) continue;
      out.push([{
        ...s,
        argv: [literal(real), ...s.argv.slice(1)],
        origin: `${s.origin} (${basename(name.value)} is ${real})`,
        cwds: [c],
      }, s]);
    }
  }
  return out;
}

/**
 * Stages judged beside others (the program a link of one reaches, one as a program not known),
 * into `all`: each the same process as its stage (`beside`), run at its place (`tops`, the stage
 * of this shell each comes from).
 */
export function judgedBeside(
  all: Stage[],
  pairs: readonly [Stage, Stage][],
  tops: Map<Stage, Stage>,
  beside: Map<Stage, Stage>,
): void {
  for (const [x, from] of pairs) {
    all.push(x);
    tops.set(x, tops.get(from) ?? from);
    beside.set(x, beside.get(from) ?? from);
  }
}
