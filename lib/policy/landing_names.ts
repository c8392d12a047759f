/**
 * The names a stage that copies, moves, links or removes what its operands name may make appear
 * below any of them (`cp -r src dst`, `mv tests t2`, `rsync -a . /tmp/bk`, `rm -r build`): the
 * operands' own names and every name below each, as the filesystem shows them now. A path glob
 * protected at any depth (`secrets/**`) is reached below such an operand only where a name it
 * ends in is among them (`cp -r evil/ .` where `evil/secrets/` is: the source's names land below
 * the destination). A tree holding a repository's object store lands what the store holds too.
 *
 * @module
 */
import { resolve } from "node:path";
import type { Stage } from "../shell/model.ts";
import type { Context } from "../types.ts";
import type { Target } from "./targets.ts";
import { namesBelow } from "./links_seen.ts";
import { storeHeld } from "./object_store.ts";
import { programOf } from "../programs/registry.ts";
import { readOptions } from "../programs/argv.ts";

/**
 * Programs that write below what they are given no name but those of their operands and of what
 * lies below them (coreutils' copiers, movers, linkers, removers and mode changers; rsync between
 * local paths: a remote operand is no target of the stage, and a word that is none leaves the
 * names not known).
 */
const OPERAND_NAMES = new Set([
  "cp",
  "mv",
  "install",
  "ln",
  "rsync",
  "rm",
  "rmdir",
  "unlink",
  "shred",
  "chmod",
  "chown",
  "chgrp",
  "setfacl",
  "chattr",
  "chcon",
  "trash",
  "trash-put",
]);

/**
 * The names that may come to lie below an operand of `stage` (see the module), or null where
 * they are not known: another program, a word not known or not a path of the stage (an option's
 * value, a remote operand), an operand another stage may change first (`settled`), a tree larger
 * than the walk's bounds.
 */
export function landingNames(
  stage: Stage,
  targets: readonly Target[],
  ctx: Context,
  settled: (path: string) => boolean,
): readonly string[] | null {
  const name = stage.argv[0];
  if (name?.kind !== "static" || !OPERAND_NAMES.has(name.value.replace(/^.*\//, ""))) return null;
  const operands = targets.filter((t) =>
    t.kind === "argument" && t.reach === "exact" && t.path !== null && !t.replaces
  );
  if (targets.some((t) => t.reach === "anywhere" || t.kind === "dynamic" || t.kind === "glob")) {
    return null;
  }
  // Every word after the options is one of its paths, or a name that is not there (`t2` in `mv
  // tests t2`) and that no other stage may make first; none a remote one (`host:x`, `rsync://`).
  // (An option's value is none of its operands, where its grammar says which: `rsync -f ': .x'`.)
  const values = optionValues(stage);
  let ended = false;
  for (let i = 1; i < stage.argv.length; i++) {
    const w = stage.argv[i];
    if (values.has(i) && !ended) continue;
    if (w.kind !== "static") return null;
    if (!ended && w.value === "--") ended = true;
    else if (
      (ended || !w.value.startsWith("-") || w.value === "-") &&
      !operands.some((t) => t.source === w.text) && !absent(w.value, stage, ctx, settled)
    ) return null;
  }
  const names: string[] = [];
  for (const t of operands) {
    const path = t.path!;
    if (path === "/" || !settled(path)) return null;
    // (A repository's object store holds the content of what it tracked, a protected file's too,
    // under names of its own: what lands below is known by the names its indexes list, as what
    // `git cat-file -p` shows, see object_store.ts.)
    const held = storeHeld(path, ctx.fs, true);
    if (held !== null) {
      if (held.names === null) return null;
      names.push(...held.names);
    }
    names.push(path.slice(path.lastIndexOf("/") + 1));
    if (ctx.fs.isDirectory?.(path) !== true) continue;
    const below = namesBelow(path, ctx.fs);
    if (below === null) return null;
    for (const n of below) names.push(n);
  }
  return names;
}

/** The argv positions of the words its program's grammar (`Program.options`) takes as values. */
function optionValues(stage: Stage): Set<number> {
  const grammar = programOf(stage.argv[0])?.options;
  const out = new Set<number>();
  if (!grammar) return out;
  const args = stage.argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  for (const t of readOptions(args, grammar)) if (t.valueAt !== undefined) out.add(t.valueAt + 1);
  return out;
}

/** Whether a word of no remote form names nothing in each of the stage's cwds, and stays so. */
function absent(
  word: string,
  stage: Stage,
  ctx: Context,
  settled: (path: string) => boolean,
): boolean {
  if (word === "" || word.includes(":")) return false;
  return stage.cwds.every((c) => {
    if (c === null && !word.startsWith("/")) return false;
    const path = resolve(c ?? "/", word);
    return !ctx.fs.exists(path) && settled(path);
  });
}
