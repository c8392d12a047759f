/**
 * What the git stages of a command that run before a push or fetch change of the settings it
 * reads its remotes by (`git remote add o ~/.ssh && git push o`): the settings they write
 * (`git remote add|set-url`, `git config KEY VALUE`, `git clone URL`'s `origin`), whether they
 * may move the branch checked out or its upstream (`git checkout`, `git switch`, `git branch -u`,
 * `git push -u REMOTE`), or that what they change is not known (an alias, a subcommand not known
 * here, `git config --edit`). A subcommand that writes none of git's settings changes nothing.
 *
 * @example
 * ```ts
 * import { literal } from "../programs/words.ts";
 * import { settingChanges } from "./git_remote_changes.ts";
 * settingChanges({ argv: ["git", "remote", "add", "o", "/srv/x"].map(literal), redirects: [], text: "", origin: "top", cwds: ["/p"] });
 * // { settings: [{ key: "remote.o.url", value: "/srv/x" }], branches: false, remotes: [] }
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { gitSubcommand } from "../programs/git.ts";
import { operandWords, VALUED } from "../programs/git_checkouts.ts";
import { settingKey } from "./git_config_files.ts";

/** A setting a stage writes; a value not known is null. */
export interface ChangedSetting {
  key: string;
  value: string | null;
}

/** What a stage changes of the settings remotes are found by (see the module's notes). */
export interface Changes {
  settings: ChangedSetting[];
  /** It may move the branch checked out or change a branch's upstream: any remote may be one. */
  branches: boolean;
  /** Remotes a branch's upstream may become (`git push -u /srv/x`; null: not known). */
  remotes: (string | null)[];
}

/**
 * git's subcommands whose changes to its settings are known: none, or those `settingChanges` reads.
 */
// deno-fmt-ignore
const KNOWN = new Set([
  "add", "commit", "status", "log", "diff", "show", "ls-remote", "rev-parse", "stash", "tag",
  "merge", "rebase", "reset", "restore", "rm", "mv", "grep", "blame", "describe", "cherry-pick",
  "revert", "shortlog", "ls-files", "ls-tree", "cat-file", "rev-list", "reflog", "show-ref",
  "for-each-ref", "diff-tree", "diff-index", "diff-files", "format-patch", "apply", "am", "clean",
  "gc", "prune", "fsck", "notes", "archive", "bundle", "name-rev", "merge-base", "update-ref",
  "update-index", "write-tree", "read-tree", "checkout-index", "hash-object", "count-objects",
  "version", "help", "var", "whatchanged", "range-diff", "cherry", "verify-commit", "verify-tag",
  "bisect", "init", "worktree", "mktree", "commit-tree", "symbolic-ref", "check-ignore",
  "check-attr", "check-ref-format", "difftool", "mergetool", "request-pull", "send-email",
  "fetch", "pull", "push", "remote", "branch", "config", "clone", "checkout", "switch",
  "submodule", "sparse-checkout", "lfs", "maintenance",
]);

/** The words of a stage as text (null: not known). */
function values(words: Word[]): (string | null)[] {
  return words.map((w) => (w.kind === "static" ? w.value : null));
}

/** Whether a word is one of the options `names` (a short one alone or in a cluster). */
function has(args: (string | null)[], names: RegExp): boolean {
  return args.some((a) => a !== null && names.test(a));
}

/**
 * What a git stage changes of the settings remotes are found by (see the module's notes); null
 * where that is not known.
 */
export function settingChanges(stage: Stage): Changes | null {
  const argv = stage.argv;
  const at = gitSubcommand(argv);
  const sub = argv[at]?.kind === "static" ? argv[at].value : null;
  if (sub === null || !KNOWN.has(sub)) return null;
  const rest = argv.slice(at + 1);
  const args = values(rest);
  const none: Changes = { settings: [], branches: false, remotes: [] };
  switch (sub) {
    case "remote":
      return remoteChanges(rest);
    case "config":
      return configChanges(rest);
    case "clone": {
      // (A clone into the cwd's repository, `git clone URL .`: its remote.)
      const [url] = operandWords(rest, VALUED.clone);
      const i = args.findIndex((a) => a === "-o" || a === "--origin");
      const name = i < 0 ? "origin" : args[i + 1];
      if (url === undefined) return none;
      if (name === null || name === undefined) return null;
      const value = url.kind === "static" ? url.value : null;
      return { ...none, settings: [{ key: `remote.${name}.url`, value }] };
    }
    case "checkout":
    case "switch":
      return { ...none, branches: true };
    case "branch":
      return has(args, /^(-[a-zA-Z]*[utmMcC][a-zA-Z]*|--(set-upstream-to|track|move|copy)(=.*)?)$/)
        ? { ...none, branches: true }
        : none;
    case "push":
    case "pull":
    case "fetch": {
      // (push's `-u`; fetch's `-u` is `--update-head-ok`.)
      const upstream = sub === "push"
        ? /^(-[a-zA-Z]*u[a-zA-Z]*|--set-upstream)$/
        : /^--set-upstream$/;
      if (!has(args, upstream)) return none;
      const valued = sub === "push" ? VALUED.push : VALUED.fetch;
      const [first] = operandWords(rest, valued);
      const remote = first === undefined ? [] : [first.kind === "static" ? first.value : null];
      return { ...none, branches: true, remotes: remote };
    }
    default:
      // (The others write no setting of a remote's: `submodule`'s, `lfs`'s are their own.)
      return none;
  }
}

/** `git remote add|set-url|rename …`: the settings they write. */
function remoteChanges(rest: Word[]): Changes | null {
  const none: Changes = { settings: [], branches: false, remotes: [] };
  const verb = rest[0]?.kind === "static" ? rest[0].value : null;
  if (verb === null) return null;
  const valued = new Set(["-t", "-m", "--mirror"]);
  const ops = operandWords(rest.slice(1), valued).map((
    w,
  ) => (w.kind === "static" ? w.value : null));
  const flags = values(rest.slice(1));
  if (verb === "add") {
    const [name, url] = ops;
    if (name === undefined || url === undefined) return none;
    if (name === null) return null;
    return { ...none, settings: [{ key: `remote.${name}.url`, value: url }] };
  }
  if (verb === "set-url") {
    if (flags.includes("--delete")) return none;
    const [name, url] = ops;
    if (name === undefined || url === undefined) return none;
    if (name === null) return null;
    const key = flags.includes("--push") ? "pushurl" : "url";
    return { ...none, settings: [{ key: `remote.${name}.${key}`, value: url }] };
  }
  if (verb === "rename") {
    // (The new name takes the old one's URLs, and the branches that had it as their upstream.)
    const [, name] = ops;
    if (name === undefined) return none;
    if (name === null) return null;
    return { settings: [{ key: `remote.${name}.url`, value: null }], branches: true, remotes: [] };
  }
  return none;
}

/** Options of `git config` that take a value. */
const CONFIG_VALUED = new Set([
  "-f",
  "--file",
  "--blob",
  "--type",
  "--default",
  "--comment",
  "--value",
]);

/** `git config [set] KEY VALUE` (`--add`, `--replace-all`): the setting it writes. */
function configChanges(rest: Word[]): Changes | null {
  const none: Changes = { settings: [], branches: false, remotes: [] };
  const ops: Word[] = [];
  const flags: string[] = [];
  for (let j = 0; j < rest.length; j++) {
    const w = rest[j];
    if (w.kind !== "static") ops.push(w);
    else if (CONFIG_VALUED.has(w.value)) j++;
    else if (w.value.startsWith("-")) flags.push(w.value);
    else ops.push(w);
  }
  if (flags.some((f) => /^(-e|--edit|--rename-section|--remove-section)$/.test(f))) return null;
  if (
    flags.some((f) =>
      /^(--get|--get-all|--get-regexp|--get-urlmatch|--list|-l|--unset|--unset-all)$/.test(f)
    )
  ) {
    return none;
  }
  const verb = ops[0]?.kind === "static" ? ops[0].value : "";
  if (/^(get|list|unset|get-color|get-colorbool)$/.test(verb)) return none;
  if (/^(edit|rename-section|remove-section)$/.test(verb)) return null;
  if (verb === "set") ops.shift();
  const [key, value] = ops;
  if (key === undefined || value === undefined) return none;
  if (key.kind !== "static") return null;
  const k = settingKey(key.value);
  // (A file it brings in holds settings not seen.)
  if (/^include(if\..*)?\.path$/s.test(k)) return null;
  return { ...none, settings: [{ key: k, value: value.kind === "static" ? value.value : null }] };
}
