/**
 * The drivers git's attributes select (gitattributes(5)): a `filter=<driver>` runs the config's
 * `filter.<driver>.clean`/`smudge`/`process`, a `diff=<driver>` its `diff.<driver>.command`
 * and `textconv`, a `merge=<driver>` its `merge.<driver>.driver`. The attributes files git reads
 * for a work tree: `.gitattributes` in any of its directories, `$GIT_DIR/info/attributes`,
 * `core.attributesFile` (by default `$XDG_CONFIG_HOME/git/attributes`) and the system's
 * `/etc/gitattributes`. Which paths a pattern matches is not followed: a file that names the
 * driver anywhere (a pattern, a macro `[attr]NAME filter=x`) selects it. What cannot be read or
 * seen (a file too large, a tree too wide to list, attributes read from a tree object) selects
 * every driver. The work tree git uses, its index's and other commits' attributes files:
 * `git_attribute_sources.ts`. Which subcommands run each kind of driver is told here too.
 *
 * @example
 * ```ts
 * import { driverOf, namesDriver } from "./git_attributes.ts";
 * driverOf("filter.lfs.clean"); // { kind: "filter", name: "lfs" }
 * driverOf("diff.external"); // null
 * namesDriver("*.psd filter=lfs diff=lfs -text\n", "filter", new Set(["lfs"])); // true
 * ```
 *
 * @module
 */
import { basename, resolve } from "node:path";
import type { Stage } from "../shell/model.ts";
import { boolValue, expandPath } from "../programs/git_config.ts";
import type { FsFacts } from "../types.ts";
import type { ConfigSetting } from "./git_config_files.ts";
import type { Repository } from "./git_remotes.ts";
import { type GlobScope, writeAreas } from "./glob_scope.ts";
import { programOf } from "../programs/registry.ts";

/** The kinds of driver an attribute selects. */
export type DriverKind = "filter" | "diff" | "merge";

/** The command settings of each kind of driver (lower case). */
const DRIVER_KEYS =
  /^(filter\.(.+)\.(clean|smudge|process)|diff\.(.+)\.(command|textconv)|merge\.(.+)\.driver)$/s;

/** The kind of driver a setting's key gives a command, and the driver's name; null for none. */
export function driverOf(key: string): { kind: DriverKind; name: string } | null {
  const m = DRIVER_KEYS.exec(key);
  if (!m) return null;
  if (m[2] !== undefined) return { kind: "filter", name: m[2] };
  if (m[4] !== undefined) return { kind: "diff", name: m[4] };
  return { kind: "merge", name: m[6] };
}

/** git's subcommands that read work-tree files into git or write them out (a filter runs). */
// deno-fmt-ignore
const FILTERS = new Set([
  "add", "status", "diff", "commit", "stash", "checkout", "switch", "restore", "reset", "merge",
  "rebase", "cherry-pick", "revert", "pull", "am", "apply", "rm", "mv", "ls-files", "describe",
  "update-index", "checkout-index", "read-tree", "diff-files", "diff-index", "worktree",
  "submodule", "sparse-checkout", "bisect", "difftool", "mergetool", "archive", "blame",
  "annotate", "clone",
]);

/** ... that show a diff, by default with the textconv of a path's driver. */
// deno-fmt-ignore
const TEXTCONV = new Set([
  "diff", "log", "show", "whatchanged", "blame", "annotate", "range-diff", "stash",
]);

/** ... that merge files (the merge driver of a path's attributes). */
// deno-fmt-ignore
const MERGES = new Set([
  "merge", "rebase", "cherry-pick", "revert", "pull", "stash", "am", "merge-tree",
  "merge-recursive", "merge-ort", "merge-subtree", "replay",
]);

/**
 * Whether subcommand `sub` with words `words` runs the command setting `key` of a driver an
 * attribute selects.
 */
export function runsDriver(key: string, sub: string, words: string[]): boolean {
  const has = (re: RegExp) => words.some((w) => re.test(w));
  if (key.startsWith("filter.")) {
    if (sub === "hash-object") return !has(/^--no-filters$/);
    return FILTERS.has(sub) || (sub === "cat-file" && has(/^--filters$/));
  }
  if (key.startsWith("merge.")) {
    if (/^(checkout|switch|restore)$/.test(sub)) return has(/^(-m|--merge|--conflict(=.*)?)$/);
    if (sub === "apply") return has(/^(-3|--3way)$/);
    return MERGES.has(sub);
  }
  if (key.endsWith(".command")) {
    return (sub === "diff" && !has(/^--no-ext-diff$/)) || has(/^--ext-diff$/);
  }
  return !has(/^--no-textconv$/) && (TEXTCONV.has(sub) || has(/^--textconv$/));
}

/** Whether a subcommand may run some driver (the config is read for it then). */
export function mayRunDriver(sub: string, words: string[]): boolean {
  return ["filter.x.clean", "merge.x.driver", "diff.x.command", "diff.x.textconv"].some((k) =>
    runsDriver(k, sub, words)
  );
}

/** Whether an attributes file's text names one of the drivers of a kind (`filter=lfs`). */
export function namesDriver(text: string, kind: DriverKind, names: ReadonlySet<string>): boolean {
  for (const line of text.split("\n")) {
    const words = line.trim().split(/\s+/);
    if (words[0]?.startsWith("#")) continue;
    for (const w of words) {
      if (w.startsWith(`${kind}=`) && names.has(w.slice(kind.length + 1))) return true;
    }
  }
  return false;
}

/** The largest attributes file read (a larger one selects every driver). */
const FILE_LIMIT = 256 * 1024;

/** The directories of a work tree listed for its `.gitattributes` files (more: not known). */
const LISTINGS = 256;

/**
 * The attributes files outside the work tree git reads for `repo`, as `settings` and `env` have
 * them; null where git reads attributes from where they are not seen (a tree object).
 */
export function outerAttributeFiles(
  repo: Repository,
  settings: readonly ConfigSetting[],
  env: Record<string, string | undefined>,
  home: string,
): string[] | null {
  if (env.GIT_ATTR_SOURCE || settings.some((s) => s.key === "attr.tree")) return null;
  const files = [`${repo.commonDir}/info/attributes`];
  if (repo.gitDir !== repo.commonDir) files.push(`${repo.gitDir}/info/attributes`);
  if (boolValue(env.GIT_ATTR_NOSYSTEM ?? "false") !== true) files.push("/etc/gitattributes");
  const named = settings.filter((s) => s.key === "core.attributesfile");
  if (named.some((s) => s.conditional)) return null;
  if (named.length) {
    const value = named[named.length - 1].value;
    if (value !== "") files.push(resolve(repo.top, expandPath(value, home) ?? value));
  } else files.push(`${env.XDG_CONFIG_HOME || `${home}/.config`}/git/attributes`);
  return files;
}

/**
 * Whether an attributes file git reads for `repo` (`outer`, the `.gitattributes` files of the
 * work tree at `repo.top`, and the texts `stored` gives: the index's, other commits'; see
 * `git_attribute_sources.ts`) names one of the drivers `names` of kind `kind`; true where that
 * is not known.
 */
export function driversSelected(
  repo: Repository,
  outer: readonly string[],
  kind: DriverKind,
  names: ReadonlySet<string>,
  fs: FsFacts,
  stored: () => string[] | null = () => [],
): boolean {
  const names_ = (file: string) => {
    const text = fs.readText?.(file, FILE_LIMIT) ?? null;
    if (text === null) return fs.exists(file);
    return namesDriver(text, kind, names);
  };
  if (outer.some(names_)) return true;
  if (!fs.entries) return true;
  // The work tree's directories, from the top down (not a `.git`, nor through a symlink).
  const dirs = [repo.top];
  for (let i = 0; i < dirs.length; i++) {
    if (i >= LISTINGS) return true;
    const entries = fs.entries(dirs[i]);
    if (entries === null) return true;
    for (const e of entries) {
      if (e.name === ".git") continue;
      if (e.dir && !e.link) dirs.push(`${dirs[i]}/${e.name}`);
      else if (e.name === ".gitattributes" && names_(`${dirs[i]}/${e.name}`)) return true;
    }
  }
  const texts = stored();
  return texts === null || texts.some((t) => namesDriver(t, kind, names));
}

/**
 * Whether a stage before `stage` (run by `top`) may write an attributes file git reads for `repo`:
 * one of `outer`, or a `.gitattributes` anywhere in its work tree.
 */
export function attributesWrittenFirst(
  repo: Repository,
  outer: readonly string[] | null,
  stage: Stage,
  top: Stage,
  globs: GlobScope,
  fs: FsFacts,
): boolean {
  for (const f of outer ?? []) {
    const written = globs.fileWritten(f, stage, top);
    if (written === null || written.length) return true;
  }
  const readsOnly = (s: Stage) => !globs.mayWrite(s);
  return globs.changers(repo.top, stage, { started: true }).some((w) => {
    if (w === top) return false;
    // (A redirect opens the file it names; a program may make a `.gitattributes` in a directory
    // it is given, or in one not there yet.)
    const named = writeAreas({ ...w, redirects: [] }, readsOnly);
    if (named === null) return true;
    const program = w.argv[0] ? programOf(w.argv[0]) : undefined;
    const makes = program?.metadataOnly === true && program.writesOnlyNamed === true;
    const all = writeAreas(w, readsOnly) ?? [];
    return all.some((a) =>
      basename(a) === ".gitattributes" ||
      (named.includes(a) && !makes &&
        (fs.exists(a) ? fs.isDirectory?.(a) !== false : bringsDirectory(w, fs)))
    );
  });
}

/**
 * Whether a stage that writes a name not there yet may make a directory holding a
 * `.gitattributes` there: one of its words is a directory (`cp -r dir new`), names such a file
 * (`cp x/.gitattributes new`) or is not known.
 */
function bringsDirectory(w: Stage, fs: FsFacts): boolean {
  return w.argv.slice(1).some((word) =>
    word.kind !== "static" || /(^|\/)\.gitattributes$/.test(word.value) ||
    w.cwds.some((c) => c === null || fs.isDirectory?.(resolve(c, word.value)) !== false)
  );
}
