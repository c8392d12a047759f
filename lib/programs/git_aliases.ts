/**
 * git's aliases from its config (git-config(1) `alias.*`): `git st`, where `st` is no git
 * command, runs what `alias.st` says in the config files git reads (the system's, the user's,
 * the repository's and its work tree's, what they include) or the environment gives
 * (`GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`, `GIT_CONFIG_PARAMETERS`): a `!`
 * alias is shell text run at the top of the work tree with the words after the name, another is
 * git run with its words first (`alias.st=status`: `git st -s` runs `git status -s`). An alias
 * that names a git command is ignored by git, so the files are read only for a name that is no
 * git command. (Aliases given by `-c` are read in git.ts; one another stage of the command sets,
 * `git config alias.d diff && git d`, in lib/policy/git_alias_sets.ts.)
 *
 * @example
 * ```ts
 * // ~/.gitconfig: [alias] wipe = !rm -rf
 * // git wipe ~/.ssh   →   rm -rf ~/.ssh   (at the work tree's top)
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";
import { configEntries, includedFile, isInclude, userConfigFiles } from "./git_config.ts";
import { gitTops, repositoryDirs } from "./git_external.ts";

/**
 * git's builtin commands, which no alias hides (git runs a builtin before it looks for an alias).
 * A name git has not always had (`replay`, `refs`, `backfill`) is not among them: an alias of it
 * is looked for.
 */
// deno-fmt-ignore
export const GIT_BUILTINS: ReadonlySet<string> = new Set([
  "add", "am", "annotate", "apply", "archive", "blame", "branch", "bugreport", "bundle",
  "cat-file", "check-attr", "check-ignore", "check-mailmap", "check-ref-format", "checkout",
  "checkout-index", "cherry", "cherry-pick", "clean", "clone", "column", "commit",
  "commit-graph", "commit-tree", "config", "count-objects", "credential", "credential-cache",
  "credential-store", "describe", "diagnose", "diff", "diff-files", "diff-index", "diff-pairs",
  "diff-tree", "difftool", "fast-export", "fast-import", "fetch", "fetch-pack",
  "fmt-merge-msg", "for-each-ref", "for-each-repo", "format-patch", "fsck", "fsck-objects", "gc",
  "get-tar-commit-id", "grep", "hash-object", "help", "hook", "index-pack", "init", "init-db",
  "interpret-trailers", "log", "ls-files", "ls-remote", "ls-tree", "mailinfo", "mailsplit",
  "maintenance", "merge", "merge-base", "merge-file", "merge-index", "merge-ours",
  "merge-recursive", "merge-recursive-ours", "merge-recursive-theirs", "merge-subtree",
  "merge-tree", "mktag", "mktree", "multi-pack-index", "mv", "name-rev", "notes", "pack-objects",
  "pack-redundant", "pack-refs", "patch-id", "pickaxe", "prune", "prune-packed", "pull", "push",
  "range-diff", "read-tree", "rebase", "receive-pack", "reflog", "remote", "remote-ext",
  "remote-fd", "repack", "replace", "rerere", "reset", "restore", "rev-list", "rev-parse",
  "revert", "rm", "send-pack", "shortlog", "show", "show-branch", "show-index", "show-ref",
  "sparse-checkout", "stage", "stash", "status", "stripspace", "switch", "symbolic-ref", "tag",
  "unpack-file", "unpack-objects", "update-index", "update-ref", "update-server-info",
  "upload-archive", "upload-pack", "var", "verify-commit", "verify-pack", "verify-tag", "version",
  "whatchanged", "worktree", "write-tree",
]);

/**
 * git's commands that are programs of their own (`git-<name>`: scripts, and what distributions
 * package apart, `git-gui`, `git-email`, `git-svn`, `git-cvs`; `bisect` before git 2.40): where
 * one is not installed, git runs the alias of its name, so an alias is looked for as well.
 */
// deno-fmt-ignore
export const GIT_PROGRAMS: ReadonlySet<string> = new Set([
  "archimport", "bisect", "citool", "cvsexportcommit", "cvsimport", "cvsserver", "daemon",
  "filter-branch", "gui", "http-backend", "http-fetch", "http-push", "imap-send", "instaweb",
  "merge-octopus", "merge-one-file", "merge-resolve", "mergetool", "p4", "quiltimport",
  "remote-ftp", "remote-ftps", "remote-http", "remote-https", "request-pull", "send-email",
  "shell", "submodule", "subtree", "svn", "web--browse",
]);

/** git's commands, builtin or not (`GIT_BUILTINS`, `GIT_PROGRAMS`). */
export const GIT_COMMANDS: ReadonlySet<string> = new Set([...GIT_BUILTINS, ...GIT_PROGRAMS]);

/**
 * The key and value `git config [options] [set] KEY VALUE` sets (the words, where there are;
 * `--file F`, `--type T` and the like passed over).
 */
export function configSetting(rest: readonly Word[]): (Word | undefined)[] {
  const operands: Word[] = [];
  for (let j = 0; j < rest.length; j++) {
    const v = rest[j].kind === "static" ? rest[j].value : "";
    if (/^(-f|--file|--blob|--type|--default|--comment|--value)$/.test(v)) j++;
    else if (!v.startsWith("-") || rest[j].kind !== "static") operands.push(rest[j]);
  }
  if (operands[0]?.value === "set") operands.shift();
  return operands.slice(0, 2);
}

/** Whether `git config` words open the config in an editor (`-e`, `--edit`, `edit`). */
export function configEdited(rest: readonly Word[]): boolean {
  return rest.some((w, i) =>
    w.kind === "static" && (/^(-e|--edit)$/.test(w.value) || (i === 0 && w.value === "edit"))
  );
}

/** The alias a config key names (`alias.st`, `alias.st.command`), lower case; null for none. */
export function aliasNamed(key: string): string | null {
  const m = /^alias\.(?:([^.]+)|(.+)\.command)$/i.exec(key);
  return m ? (m[1] ?? m[2]).toLowerCase() : null;
}

/** How deep includes are followed (git's own bound is 10). */
const INCLUDE_DEPTH = 8;

/**
 * What `git NAME …` runs where NAME is no builtin git command and no `-c` alias: the alias the
 * config files and the environment give it (each value found, where several may apply), judged as
 * git runs it; a command not known where what they say cannot be known. Where there is none and
 * `help.autocorrect` runs what git corrects a name to (git-config(1): a number, `immediate`,
 * `prompt`, `true`), a name that is no program `git-NAME` either runs a command not known.
 */
export function configAliases(
  sub: string,
  rest: Word[],
  stage: Stage,
  at: number,
  run: Runner,
  here: () => Runner,
): void {
  if (sub === "" || sub.startsWith("-") || GIT_BUILTINS.has(sub)) return;
  const name = sub.toLowerCase();
  const found = configValues(name, stage, at, run);
  if (found === null) {
    run.stage([literal("git"), unknownWord(`(what an alias ${sub} in git's config runs)`)], "git");
    return;
  }
  const words = rest.map((w) => w.text);
  for (const value of found.aliases) {
    if (value.startsWith("!")) {
      here().shell(literal([value.slice(1), ...words].join(" ")), "git alias");
    } else run.shell(literal(["git", value, ...words].join(" ")), "git alias");
  }
  if (
    !found.aliases.length && found.autocorrect.some((v) => !AUTOCORRECT_OFF.test(v)) &&
    !dashedProgram(sub, run)
  ) {
    run.stage([literal("git"), unknownWord(`(the command git corrects ${sub} to)`)], "git");
  }
}

/** `help.autocorrect` values that run no other command than the one named. */
export const AUTOCORRECT_OFF = /^(0|false|no|off|never|show)?$/i;

/** The directories git finds its programs in where `--exec-path` and `GIT_EXEC_PATH` say none. */
const EXEC_PATHS = [
  "/usr/lib/git-core",
  "/usr/libexec/git-core",
  "/usr/local/libexec/git-core",
  "/opt/homebrew/opt/git/libexec/git-core",
];

/** Whether a program `git-NAME` may be there for git to run (its exec path, then `PATH`). */
function dashedProgram(name: string, run: Runner): boolean {
  if (name.includes("/")) return false;
  const exec = run.variable("GIT_EXEC_PATH");
  const dirs = [...(exec ? [exec] : EXEC_PATHS), ...(run.variable("PATH") ?? "").split(":")];
  return dirs.some((d) => d.startsWith("/") && run.settings(`${d}/git-${name}`) !== "");
}

/** What the config files and the environment say of a name: its aliases, `help.autocorrect`. */
interface NameValues {
  aliases: string[];
  autocorrect: string[];
}

/** The values of alias `name` git may find, and of `help.autocorrect`; null: not known. */
function configValues(name: string, stage: Stage, at: number, run: Runner): NameValues | null {
  const home = run.home(null);
  if (home === null) return null;
  const variable = (v: string) => run.variable(v);
  const aliases = environmentValues((k) => aliasKey(k, name), variable);
  const autocorrect = environmentValues((k) => k === "help.autocorrect", variable);
  if (aliases === null || autocorrect === null) return null;
  const values = { aliases, autocorrect };
  const files = userConfigFiles(variable, home);
  for (const top of gitTops(stage, at, run)) {
    if (top === null) return null;
    if (top === undefined) continue;
    const dirs = repositoryDirs(top, run);
    if (dirs === null) return null;
    files.push(`${dirs.common}/config`, `${dirs.git}/config.worktree`);
  }
  for (const file of new Set(files)) {
    if (!fileValues(file, name, run, home, values, 0)) return null;
  }
  return values;
}

/**
 * Add the values of alias `name` and of `help.autocorrect` in `file` and what it includes (every
 * include followed, an `includeIf` whatever its condition) to `out`; false where one cannot be
 * read.
 */
function fileValues(
  file: string,
  name: string,
  run: Runner,
  home: string,
  out: NameValues,
  depth: number,
): boolean {
  const text = run.settings(file);
  if (text === null) return false;
  if (text === "") return true;
  const entries = configEntries(text);
  if (entries === null) return false;
  for (const e of entries) {
    if (e.value === null) {
      // (`[help] autocorrect` alone is true.)
      if (e.section === "help" && e.key === "autocorrect") out.autocorrect.push("true");
      continue;
    }
    if (isAlias(e.section, e.key, name)) out.aliases.push(e.value);
    else if (e.section === "help" && e.key === "autocorrect") out.autocorrect.push(e.value);
    else if (isInclude(e)) {
      const included = includedFile(e.value, file, home);
      if (included === null || depth >= INCLUDE_DEPTH) return false;
      if (!fileValues(included, name, run, home, out, depth + 1)) return false;
    }
  }
  return true;
}

/** Whether a setting is alias `name` (`alias.name`, or newer git's `[alias "name"] command`). */
function isAlias(section: string, key: string, name: string): boolean {
  return (section === "alias" && key === name) ||
    (section.startsWith('alias"') && key === "command" && section.slice(6).toLowerCase() === name);
}

/** Whether a key as the environment gives it (lower case) is alias `name`. */
function aliasKey(k: string, name: string): boolean {
  const dot = k.lastIndexOf(".");
  return isAlias(k.slice(0, dot).replace(".", '"'), k.slice(dot + 1), name);
}

/**
 * The values of alias `name` the environment gives (`GIT_CONFIG_COUNT` and its keys and values,
 * `GIT_CONFIG_PARAMETERS`, what `git -c` hands on); null where they cannot be read.
 */
export function environmentAliases(
  name: string,
  variable: (name: string) => string | undefined,
): string[] | null {
  return environmentValues((k) => aliasKey(k, name), variable);
}

/**
 * The values of the settings whose keys (lower case) `match` that the environment gives (see
 * `environmentAliases`); null where they cannot be read.
 */
function environmentValues(
  match: (key: string) => boolean,
  variable: (name: string) => string | undefined,
): string[] | null {
  const out: string[] = [];
  const key = (k: string) => match(k.toLowerCase());
  const count = variable("GIT_CONFIG_COUNT");
  if (count) {
    if (!/^\d{1,4}$/.test(count)) return null;
    for (let i = 0; i < Number(count); i++) {
      const k = variable(`GIT_CONFIG_KEY_${i}`);
      const v = variable(`GIT_CONFIG_VALUE_${i}`);
      if (k === undefined || v === undefined) return null;
      if (key(k.toLowerCase())) out.push(v);
    }
  }
  const parameters = variable("GIT_CONFIG_PARAMETERS");
  if (parameters) {
    const pairs = quotedPairs(parameters);
    if (pairs === null) return null;
    for (const [k, v] of pairs) if (key(k.toLowerCase())) out.push(v);
  }
  return out;
}

/**
 * The settings of `GIT_CONFIG_PARAMETERS` (`'k'='v' 'k2=v2'`, shell single quotes, `\'` between
 * them); null where it is not in that form.
 */
function quotedPairs(text: string): [string, string][] | null {
  const out: [string, string][] = [];
  const quoted = /\s*'((?:[^']|'\\'')*)'/y;
  let i = 0;
  while (i < text.length) {
    if (/^\s*$/.test(text.slice(i))) break;
    quoted.lastIndex = i;
    const m = quoted.exec(text);
    if (!m) return null;
    const first = m[1].replaceAll("'\\''", "'");
    i = quoted.lastIndex;
    if (text[i] === "=") {
      quoted.lastIndex = i + 1;
      const v = quoted.exec(text);
      if (!v) return null;
      out.push([first, v[1].replaceAll("'\\''", "'")]);
      i = quoted.lastIndex;
    } else {
      const eq = first.indexOf("=");
      out.push(eq < 0 ? [first, ""] : [first.slice(0, eq), first.slice(eq + 1)]);
    }
  }
  return out;
}
