/**
 * What an earlier stage of a command may add to git's index before a later one reads it (`git add
 * src/main.ts && git diff --cached`): the paths it names, or nothing new (`git commit -am x`, `git
 * stash`, `git fetch`); not known (null) for a stage that may add files it does not name (`git add
 * -A`, `git add .`, `git add -f dir`, `git stash -u`, `git update-index --add --stdin`), put the
 * paths of a commit there (`git reset`, `git checkout`, `git merge`, `git stash pop`), or runs
 * another program.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { indexAdditions } from "./git_staged.ts";
 * const argv = ["git", "commit", "-am", "x"].map(literal);
 * indexAdditions({ argv, redirects: [], text: "", origin: "", cwds: ["/p"] }, () => "file");
 * // []
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { resolve } from "node:path";
import { readOptions } from "./argv.ts";
import { literal } from "./words.ts";

/** Subcommands that write git's directory but put no path in the index that is not there. */
const NO_PATHS = new Set([
  "commit",
  "rm",
  "fetch",
  "push",
  "tag",
  "branch",
  "config",
  "remote",
  "notes",
  "gc",
  "prune",
  "repack",
  "maintenance",
  "pack-refs",
  "update-ref",
  "symbolic-ref",
  "reflog",
  "init",
  // (Those that only read: the index's stat data they may refresh adds no path.)
  "diff",
  "log",
  "show",
  "status",
  "grep",
  "blame",
  "shortlog",
  "whatchanged",
  "ls-files",
  "ls-tree",
  "rev-parse",
  "rev-list",
  "cat-file",
  "describe",
  "diff-index",
  "diff-tree",
  "diff-files",
  "format-patch",
  "range-diff",
  "merge-base",
  "for-each-ref",
  "show-ref",
  "check-ignore",
  "count-objects",
]);

/** `git add`'s options that take the next word as a value. */
const ADD_VALUED = new Set(["--chmod", "--pathspec-from-file"]);

/** `git add`'s options that add files it does not name, or names from elsewhere. */
const ADD_UNNAMED =
  /^(-[A-Za-z]*[Af][A-Za-z]*|--(all|no-ignore-removal|force|pathspec-from-file|interactive|patch|edit)(=.*)?)$/;

/**
 * The paths a stage may add to the index of the repository it runs in (see the module's notes),
 * absolute; null where that is not known. `kind` tells what a path is now: a directory's files
 * are added too (any of them: not known).
 */
export function indexAdditions(
  stage: Stage,
  kind: (path: string) => "file" | "directory" | "none",
): string[] | null {
  const argv = stage.argv;
  if (argv[0]?.kind !== "static" || argv[0].value.replace(/^.*\//, "") !== "git") return null;
  // (Only git's own options that keep it in the cwd's repository: no `-C`, `--git-dir`, ….)
  let at = 1;
  const aliases = new Map<string, string>();
  for (; at < argv.length && argv[at].value.startsWith("-"); at++) {
    const v = argv[at];
    if (v.kind !== "static") return null;
    if (v.value === "-c") {
      const kv = argv[++at];
      if (kv?.kind !== "static") return null;
      const m = /^alias\.([^=]+)=(.*)$/is.exec(kv.value);
      if (m) aliases.set(m[1].toLowerCase(), m[2]);
    } else if (!/^(--no-pager|-P|--no-optional-locks|--literal-pathspecs)$/.test(v.value)) {
      return null;
    }
  }
  const sub = argv[at];
  if (sub?.kind !== "static") return null;
  // (An alias the command sets to a subcommand, `-c alias.d=diff d`, is read as that one; a
  // `!` alias runs a shell, not known.)
  const alias = aliases.get(sub.value.toLowerCase());
  if (alias !== undefined) {
    const words = alias.trim().split(/\s+/);
    if (alias.startsWith("!") || words.some((w) => /['"\\$`]/.test(w))) return null;
    const expanded = [argv[0], ...words.map(literal), ...argv.slice(at + 1)];
    return indexAdditions({ ...stage, argv: expanded }, kind);
  }
  const args = argv.slice(at + 1);
  if (NO_PATHS.has(sub.value)) return [];
  if (sub.value === "stash") return stashAdds(args);
  const cwd = stage.cwds.length === 1 ? stage.cwds[0] : null;
  if (sub.value === "add" && cwd !== null) return addedPaths(args, cwd, kind);
  return null;
}

/** `git stash [push|save] …`: nothing new, unless it keeps the untracked files (`-u`, `-a`). */
function stashAdds(args: Word[]): string[] | null {
  const verb = args[0]?.kind === "static" && !args[0].value.startsWith("-") ? args[0].value : "";
  if (!/^(|push|save|list|show|drop|clear|create|store)$/.test(verb)) return null;
  for (const w of args) {
    if (w.kind !== "static") return null;
    if (w.value === "--") break;
    if (/^-[A-Za-z]*[ua]|^--(include-untracked|all|pathspec-from-file)/.test(w.value)) return null;
  }
  return [];
}

/**
 * `git add PATH…`: the files it names (existing files, no glob, no pathspec magic); null where an
 * option adds what it does not name, or an operand is a directory, a glob or not known.
 */
function addedPaths(
  args: Word[],
  cwd: string,
  kind: (path: string) => "file" | "directory" | "none",
): string[] | null {
  const values = args.map((w) => (w.kind === "static" ? w.value : null));
  const tokens = readOptions(values, { longValued: ADD_VALUED });
  const out: string[] = [];
  let update = false;
  for (const t of tokens) {
    const v = values[t.at];
    if (t.kind === "end") continue;
    if (t.kind === "operand") {
      if (v === null || /[*?[\\]|^:/.test(v)) return null;
      const path = resolve(cwd, v);
      if (kind(path) !== "file") return null;
      out.push(path);
    } else if (v === null || t.kind === "dynamic" || ADD_UNNAMED.test(v)) return null;
    else if (/^(-u|--update)$/.test(v)) update = true;
  }
  // (`-u` stages the changes of tracked files alone.)
  return update ? [] : out;
}
