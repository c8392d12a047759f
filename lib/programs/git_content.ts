/**
 * What git shows the content of without naming the files (`Program.readsRepository`): `git grep
 * KEY` searches the files below the cwd; `git diff`, `git log -p`, `git show`, `git stash show
 * -p`, `git format-patch`, the interactive `add -p`, `checkout -p`, `commit -v`, … print the
 * changed lines of every tracked file of the work tree, from its top wherever they run. A word
 * that names what is read (a pathspec, `REV:path`, `-L…:file`) makes it a read of those alone,
 * judged as they are; an operand that is a revision or a path (`git diff main`, `git log -p src`)
 * is the policy's to tell apart (a path that exists is one). Options that print no content
 * (`--stat`, `--name-only`, `-s`, …) print none.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { repositoryRead } from "./git_content.ts";
 * const argv = ["git", "log", "-p"].map(literal);
 * repositoryRead({ argv, redirects: [], text: "", origin: "", cwds: ["/p"] }, 1);
 * // { from: "top", tracked: true, present: false, either: [] }
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, type OptionToken, readOptions } from "./argv.ts";
import type { RepositoryRead } from "./spec.ts";
import type { SearchSpec } from "./search_text.ts";
import { grammarOf } from "./search_text.ts";
import { pathspecMagic } from "./git_pathspecs.ts";
import { blobPath, catFileRead, checksOutAll } from "./git_blobs.ts";
import { literal } from "./words.ts";
import { localRemote, mktreeRead, storeRead } from "./git_store_reads.ts";

/** git grep's options (its text arguments and the `$safe-bash` check read them too). */
export const GIT_GREP: SearchSpec = {
  flags: "aiIwvhHEGFPnlLzocpWqr",
  textValued: "ABCm",
  fileValued: "",
  patternShort: "e",
  patternFileShort: "f",
  // deno-fmt-ignore
  longFlags: new Set([
    "--text", "--ignore-case", "--word-regexp", "--invert-match", "--full-name",
    "--extended-regexp", "--basic-regexp", "--fixed-strings", "--perl-regexp", "--line-number",
    "--column", "--files-with-matches", "--name-only", "--files-without-match", "--null",
    "--only-matching", "--count", "--no-color", "--break", "--heading", "--show-function",
    "--function-context", "--and", "--or", "--not", "--all-match", "--quiet", "--cached",
    "--untracked", "--no-index", "--exclude-standard", "--no-exclude-standard",
    "--recurse-submodules", "--recursive", "--no-recursive", "--textconv", "--no-textconv",
  ]),
  // deno-fmt-ignore
  longText: new Set([
    "--max-count", "--max-depth", "--threads", "--after-context", "--before-context", "--context",
  ]),
  longFile: new Set(),
  longOptional: new Set(["--color"]),
  longPattern: new Set(["--regexp"]),
  longPatternFile: new Set(["--file"]),
  digits: false,
  noPattern: new Set(),
};

/** Variables and options that make git use another index or work tree than the cwd's own. */
const OTHER_INDEX_ENV = /^(GIT_DIR|GIT_WORK_TREE|GIT_INDEX_FILE|GIT_COMMON_DIR)=/;
const OTHER_INDEX_OPTION = /^--(git-dir|work-tree)(=|$)/;

/** `-c` settings that change what git ignores (or bring in config that may). */
const IGNORE_SETTING =
  /^(-c|--config-env=?)?(core\.(excludesfile|ignorecase)|include\.|includeif\.)/i;

/**
 * What git's subcommand at `at` shows the content of that its words do not name (see the
 * module's notes), or null.
 */
export function repositoryRead(stage: Stage, at: number): RepositoryRead | null {
  const argv = stage.argv;
  const sub = argv[at];
  if (sub?.kind !== "static") return null;
  const args = argv.slice(at + 1);
  const elsewhere = argv.slice(1, at).some((w) => OTHER_INDEX_OPTION.test(w.value)) ||
    (stage.assignments ?? []).some((w) => OTHER_INDEX_ENV.test(w.value));
  // (`read-tree -u` into a work tree elsewhere copies what it reads there, whatever it names.)
  const read = (elsewhere && sub.value === "read-tree" ? copiedRead(sub.value, args) : null) ??
    (sub.value === "cat-file" ? catFileRead(args, stage) : null) ??
    (sub.value === "mktree" ? mktreeRead(stage) : null) ??
    subcommandRead(sub.value, args, argv.slice(1, at)) ??
    (elsewhere ? copiedRead(sub.value, args) : null);
  // (Names are resolved in the cwd's repository alone: not where git is given another.)
  if (
    read?.objects &&
    (argv.slice(1, at).some((w) => /^--git-dir(=|$)/.test(w.value)) ||
      (stage.assignments ?? []).some((w) => /^(GIT_DIR|GIT_COMMON_DIR)=/.test(w.value)))
  ) {
    delete read.objects;
  }
  // (Another index, or paths from another top: the files there are are looked at.)
  if (read && elsewhere) read.present = true;
  // (What git ignores, set in the command: not followed. A wrapper may run it with another
  // environment, where the user's config and ignore rules are another's or none: `env -u HOME`,
  // `env -i`, `sudo`.)
  if (
    read?.unignored &&
    (argv.slice(1, at).some((w) => IGNORE_SETTING.test(w.value)) ||
      stage.origin.includes("wrapper:"))
  ) {
    read.present = true;
  }
  return read;
}

/** reset's options that write the files of a commit into the work tree. */
const RESET_WRITES = ["--hard", "--merge", "--keep"];

/** Subcommands that write the files of a commit into the work tree (any that differ). */
const CHECKS_OUT = /^(switch|merge|pull|cherry-pick|revert|rebase|am)$/;

/**
 * What a subcommand copies of the repository into a work tree git is given elsewhere (`git
 * --work-tree=/tmp/z checkout -f`, `GIT_WORK_TREE=…`): the tracked files, a copy each, where no
 * pathspec names them (`reset --hard`, `read-tree -u`, `stash pop`, a checkout, a merge).
 */
function copiedRead(sub: string, args: Word[]): RepositoryRead | null {
  const values = valuesOf(args);
  const has = (re: RegExp) => values.some((v) => v !== null && re.test(v));
  switch (sub) {
    case "checkout": {
      const tokens = readOptions(values, { valued: "bB", longValued: PATCH_MODE_LONG });
      return operandsRead(sub, tokens, args);
    }
    case "reset":
      // (git takes a unique prefix of a long option: `--har`, `--mer`, `--k`.)
      return values.some((v) =>
          v !== null && v.length > 2 && v.startsWith("--") &&
          RESET_WRITES.some((n) => n.startsWith(v))
        )
        ? fromTop()
        : null;
    case "read-tree":
      // (`-u` in a cluster of its flags: `-um`, `-mu`.)
      return has(/^-[mivnq]*u[mivnqu]*$/) ? fromTop() : null;
    case "stash":
      return /^(pop|apply|branch)$/.test(values[0] ?? "") ? fromTop() : null;
    default:
      return CHECKS_OUT.test(sub) ? fromTop() : null;
  }
}

/** The read of one subcommand given its arguments (and git's own options, for `-c` settings). */
function subcommandRead(sub: string, args: Word[], own: Word[]): RepositoryRead | null {
  const verb = args[0]?.kind === "static" ? args[0].value : "";
  switch (sub) {
    case "grep":
      return grepRead(args);
    case "diff":
    case "show":
    case "difftool":
    case "range-diff":
    case "format-patch":
    case "send-email":
      return historyRead(sub, args, true);
    case "log":
    case "whatchanged":
    case "reflog":
    case "diff-tree":
    case "diff-index":
    case "diff-files":
    case "request-pull":
      return historyRead(sub, args, false);
    case "stash":
      if (verb === "show") {
        // (`stash.showPatch`, set in the command, shows the patch by default.)
        const showPatch = own.some((w) =>
          /^stash\.showpatch(=(?!false$|no$|off$|0$)|$)/i.test(w.value)
        );
        return historyRead("stash show", args.slice(1), showPatch);
      }
      if (verb === "list") return historyRead("stash list", args.slice(1), false);
      return stashRead(verb, args);
    case "add":
      return addRead(args);
    case "checkout":
    case "restore":
    case "reset":
      return patchMode(sub, args);
    case "commit":
      return commitRead(args, own);
    case "status":
      return statusRead(args);
    case "worktree":
      return worktreeRead(args);
    case "rebase":
    case "am":
      // (The patch of the commit it stopped at: `git show REBASE_HEAD`.)
      return args.some((w) => /^--show-current-patch(=diff)?$/.test(w.value)) ? fromTop() : null;
    default:
      return wholeRead(sub, args);
  }
}

/**
 * `git worktree add PATH`: a new work tree there, every tracked file of the commit checked out
 * (not with `--no-checkout`), as `git clone . PATH` copies them.
 */
function worktreeRead(args: Word[]): RepositoryRead | null {
  if (args[0]?.value !== "add") return null;
  for (const w of args.slice(1)) {
    if (w.value === "--") break;
    if (w.value.startsWith("--no-c") && "--no-checkout".startsWith(w.value)) return null;
  }
  // (The copies are written there, judged as its operand; the tracked files themselves are not.)
  return { ...fromTop(), stores: true };
}

/** A read of the tracked files from the work tree's top. */
function fromTop(either: Word[] = []): RepositoryRead {
  return { from: "top", tracked: true, present: false, either };
}

/**
 * Whether a long option word is `name` or an abbreviation git's parse-options takes for it (a
 * unique prefix: one that is not fails, so reading every prefix as it is stricter).
 */
function abbreviates(word: string, name: string): boolean {
  const eq = word.indexOf("=");
  const written = eq < 0 ? word : word.slice(0, eq);
  return written.length > 3 && name.startsWith(written);
}

/** The values of words (null: not static). */
function valuesOf(args: Word[]): (string | null)[] {
  return args.map((w) => (w.kind === "static" ? w.value : null));
}

/**
 * The operands of `tokens` before `--` that may be a revision or a path, and the pathspecs after
 * it. An operand right after an option the grammar does not know may be its value: neither.
 */
function operands(tokens: OptionToken[], args: Word[]): { before: Word[]; after: Word[] | null } {
  const before: Word[] = [];
  let after: Word[] | null = null;
  let doubtful = false;
  for (const t of tokens) {
    if (after !== null) after.push(args[t.at]);
    else if (t.kind === "end") after = [];
    else if (t.kind === "operand" || t.kind === "dynamic") {
      if (!doubtful) before.push(args[t.at]);
      doubtful = false;
    } else {
      doubtful = t.kind === "unknown" && t.glued === undefined && t.rest === undefined;
    }
  }
  return { before, after };
}

/**
 * How pathspecs limit a read: `named` where one names what is read (a path, a glob, a word not
 * known), `top` where one reads the whole work tree from its top (`:/`); exclusions (`:!x`)
 * limit nothing.
 */
function pathspecs(words: Word[]): { named: boolean; top: boolean } {
  let named = false;
  let top = false;
  for (const w of words) {
    if (w.kind !== "static") {
      named = true;
      continue;
    }
    const magic = pathspecMagic(w.value);
    if (magic?.exclude) continue;
    if (magic?.top && (magic.path === "" || magic.path === ".")) top = true;
    else named = true;
  }
  return { named, top };
}

/** Options of `git grep` (and their abbreviations) that read the files there are, not the index. */
const GREP_PRESENT = ["--untracked", "--no-index", "--no-exclude-standard", "--recurse-submodules"];

/**
 * `git grep`: the files below the cwd, those the index lists (or, with `--untracked`,
 * `--no-index`, those there are), or a revision's; none where a pathspec names what it searches.
 */
function grepRead(args: Word[]): RepositoryRead | null {
  const tokens = readOptions(valuesOf(args), grammarOf(GIT_GREP));
  const read: RepositoryRead = { from: "cwd", tracked: true, present: false, either: [] };
  let pattern = false;
  for (const t of tokens) {
    if (t.kind === "end") break;
    if (t.kind === "valued" && /^(-e|-f|--regexp|--file)$/.test(t.name)) pattern = true;
    if (t.name.startsWith("--") && GREP_PRESENT.some((name) => abbreviates(t.name, name))) {
      read.present = true;
    }
  }
  const { before, after } = operands(tokens, args);
  // (The first operand is the pattern, unless `-e`/`-f` gave it. Before `--`, revisions, then
  // pathspecs: a glob or a word with magic is a pathspec; the policy tells a path from a
  // revision.)
  const words = after ?? [];
  if (after === null) {
    for (const w of pattern ? before : before.slice(1)) {
      const v = w.kind === "static" ? w.value : null;
      if (v !== null && ((/[*?[]/.test(v) && !/[@^]\{/.test(v)) || isMagic(v))) words.push(w);
      else read.either.push(w);
    }
  }
  const limit = pathspecs(words);
  if (limit.named) return null;
  if (limit.top) read.from = "top";
  return read;
}

/**
 * Whether a word is a pathspec with magic (`:(top)x`, `:!x`, `:^x`, `:/`), not a blob name (`:x`)
 * nor a commit whose message matches (`:/fix`: a revision where one does, as git tries first).
 */
function isMagic(v: string): boolean {
  return /^:(\(|[!^])/.test(v) || v === ":/";
}

// deno-fmt-ignore
/** Long options of the history and diff commands that take a value in the next word. */
const HISTORY_VALUED = [
  "--max-count", "--skip", "--since", "--after", "--until", "--before", "--author", "--committer",
  "--grep", "--grep-reflog", "--exclude", "--min-parents", "--max-parents", "--output",
  "--src-prefix", "--dst-prefix", "--line-prefix", "--word-diff-regex", "--inter-hunk-context",
  "--anchored", "--ignore-matching-lines", "--find-object", "--rotate-to", "--skip-to",
  "--output-indicator-new", "--output-indicator-old", "--output-indicator-context",
  "--diff-filter", "--stat-width", "--stat-name-width", "--stat-graph-width", "--stat-count",
  "--color-moved-ws", "--diff-algorithm", "--diff-merges", "--date", "--decorate-refs",
  "--decorate-refs-exclude", "--default", "--since-as-filter", "--ws-error-highlight",
  "--exclude-hidden", "--orderfile", "--creation-factor",
  // format-patch, send-email, difftool
  "--output-directory", "--subject-prefix", "--start-number", "--reroll-count", "--in-reply-to",
  "--to", "--cc", "--bcc", "--add-header", "--signature", "--signature-file", "--suffix",
  "--base", "--interdiff", "--range-diff", "--cover-from-description", "--description-file",
  "--filename-max-length", "--from", "--subject", "--reply-to", "--identity", "--smtp-server",
  "--smtp-server-port", "--smtp-user", "--smtp-pass", "--smtp-encryption", "--smtp-domain",
  "--smtp-auth", "--envelope-sender", "--8bit-encoding", "--transfer-encoding", "--confirm",
  "--suppress-cc", "--batch-size", "--relogin-delay", "--to-cmd", "--cc-cmd", "--header-cmd",
  "--sendmail-cmd", "--tool", "--extcmd",
];

// deno-fmt-ignore
/** Their long options that take no value (or one only after `=`). */
const HISTORY_FLAGS = [
  "--patch", "--no-patch", "--stat", "--numstat", "--shortstat", "--dirstat", "--summary",
  "--name-only", "--name-status", "--raw", "--compact-summary", "--cached", "--staged",
  "--oneline", "--all", "--graph", "--decorate", "--no-decorate", "--reverse", "--no-merges",
  "--merges", "--first-parent", "--quiet", "--exit-code", "--check", "--color", "--no-color",
  "--word-diff", "--color-words", "--minimal", "--patience", "--histogram", "--no-renames",
  "--find-renames", "--find-copies", "--text", "--binary", "--full-index", "--ext-diff",
  "--no-ext-diff", "--textconv", "--no-textconv", "--ignore-all-space", "--ignore-space-change",
  "--ignore-blank-lines", "--ignore-cr-at-eol", "--ignore-space-at-eol", "--function-context",
  "--relative", "--no-relative", "--merge-base", "--abbrev-commit", "--no-abbrev", "--abbrev",
  "--cc", "--dd", "--remerge-diff", "--combined-all-paths", "--full-diff", "--follow",
  "--pretty", "--format", "--walk-reflogs", "--left-right", "--cherry-pick", "--cherry-mark",
  "--topo-order", "--date-order", "--author-date-order", "--no-walk", "--do-walk", "--source",
  "--use-mailmap", "--mailmap", "--notes", "--no-notes", "--show-signature", "--log-size",
  "--boundary", "--simplify-by-decoration", "--ancestry-path", "--branches", "--tags",
  "--remotes", "--patch-with-raw", "--patch-with-stat", "--unified", "--submodule",
  "--ignore-submodules", "--color-moved", "--break-rewrites", "--irreversible-delete",
  "--pickaxe-all", "--pickaxe-regex", "--regexp-ignore-case", "--all-match", "--invert-grep",
  "--extended-regexp", "--fixed-strings", "--basic-regexp", "--perl-regexp", "--stdout",
  "--cover-letter", "--no-cover-letter", "--numbered", "--no-numbered", "--signoff",
  "--root", "--dir-diff", "--no-prompt", "--prompt", "--gui", "--trust-exit-code",
  "--include-untracked", "--only-untracked", "--index", "--base", "--ours", "--theirs",
  "--annotate", "--compose", "--dry-run", "--no-index", "--expand-tabs", "--no-expand-tabs",
];

/** The grammar the history and diff commands' options are read with. */
const HISTORY: OptionGrammar = {
  // (`-v` is format-patch's reroll count; an option not known may take the next word.)
  flags: "puszwbaRWcmrgqiEFPDkdy",
  valued: "nSGOIotl",
  gluedOnly: "UMCBX",
  longFlags: new Set(HISTORY_FLAGS),
  longValued: new Set(HISTORY_VALUED),
  numbers: "option",
};

/** Options that show the changed lines (`-p`), and those that show other things instead. */
const PATCH =
  /^(-[pucW]|-U.*|--(patch|unified|patch-with-raw|patch-with-stat|cc|dd|remerge-diff|word-diff|color-words|function-context|binary|check)(=.*)?)$/;
const FORMAT =
  /^(-X.*|--(raw|stat|numstat|shortstat|dirstat|dirstat-by-file|cumulative|summary|name-only|name-status|compact-summary)(=.*)?)$/;
const NOTHING = /^(-s|--no-patch)$/;

/** The commands whose `--quiet` turns off all output (`--no-quiet` after it, on again). */
const DIFF_QUIET = new Set(["diff", "diff-files", "diff-index", "diff-tree", "stash show"]);
/** Those whose `-q`/`--quiet` turn off the patch not asked for (`git show -q`). */
const HISTORY_QUIET = new Set(["show", "log", "whatchanged", "reflog", "stash list"]);

/**
 * The history and diff commands (`diff`, `log -p`, `show`, `stash show -p`, `format-patch`, …):
 * the tracked files from the top, where they show changed lines (`shows`: with no option that
 * says what to show), their operands revisions or paths; none where a pathspec, a `REV:path` or
 * `-L` names what is shown, or `--no-index` compares two paths.
 */
function historyRead(sub: string, args: Word[], shows: boolean): RepositoryRead | null {
  const values = valuesOf(args);
  const tokens = readOptions(values, HISTORY);
  let content = shows;
  let asked = false;
  // (`--quiet`: no output at all, for the diff commands; for the history commands, no patch
  // but one asked for (`git show -q` prints none, `git log -p --quiet` and `git show -q -p` print
  // them). `-q` is no such option: diff-files' "silent about missing files", an error elsewhere.)
  let quiet = false;
  let hushed = false;
  // (`stash show -u`: the untracked files the stash keeps, not a patch; `--submodule=diff`.)
  let untracked = false;
  const stash = sub === "stash show";
  const writes = sub === "format-patch" || sub === "send-email";
  for (const t of tokens) {
    if (t.kind === "end") break;
    if (t.kind === "operand" || t.kind === "dynamic") continue;
    if (/^-L/.test(t.name) || t.name === "--no-index") return null;
    const option = t.glued === undefined ? t.name : `${t.name}=${t.glued}`;
    if (stash && /^(-u|--include-untracked|--only-untracked)$/.test(option)) untracked = true;
    // (A submodule's changed lines: files its own index lists, not this one.)
    else if (option === "--submodule=diff") untracked = true;
    else if (/^(-q|--(no-)?quiet)$/.test(option)) {
      if (DIFF_QUIET.has(sub)) quiet = option === "--quiet";
      else if (HISTORY_QUIET.has(sub)) hushed = option !== "--no-quiet";
    } else if (PATCH.test(option) || (t.name === "-U" && t.kind === "valued")) {
      content = asked = true;
    } else if (NOTHING.test(option) && !writes) content = asked = false;
    else if (FORMAT.test(option) && !asked && !writes) content = false;
  }
  if (quiet || !content || (hushed && !asked)) {
    return sub === "show" ? shownObjects(tokens, args) : null;
  }
  const { before, after } = operands(tokens, args);
  // (Before `--`, a word with pathspec magic is a pathspec, `:!src`, `:(top)`: an exclusion
  // limits nothing.)
  const magic = after === null ? before.filter((w) => w.kind === "static" && isMagic(w.value)) : [];
  if (pathspecs([...magic, ...after ?? []]).named) return null;
  const revisions = magic.length ? before.filter((w) => !magic.includes(w)) : before;
  if (revisions.length > 0 && namesObjects(sub, revisions)) return null;
  // (After `--` follow the pathspecs: the words before it are revisions alone, whatever paths
  // there are; so is a `REV:path`. request-pull's operands are a revision and a URL.)
  const either = after !== null || sub === "request-pull"
    ? []
    : revisions.filter((w) => !isObject(w, true));
  const read = fromTop(either);
  read.present = untracked;
  return read;
}

/**
 * What `git show` prints with no patch asked for (`-s`, `--stat`, `-q`): a blob's content, a
 * tree's names, whatever its options (`git show -s bt`, a tag of `HEAD:.env`); a commit's
 * header alone. Its operands before `--` are resolved (see `RepositoryRead.objects`), but a
 * `REV:path` (judged as named), a range and `:/text` (commits alone).
 */
function shownObjects(tokens: OptionToken[], args: Word[]): RepositoryRead | null {
  const objects = operands(tokens, args).before.filter((w) =>
    w.kind !== "static" ||
    !(isMagic(w.value) || isObject(w, true) || /\.\.|^\^|\^[!@]$|\^-\d*$|^:\//.test(w.value))
  );
  return objects.length ? { ...fromTop(objects), objects } : null;
}

/** The subcommands that compare a tree-ish with another, the index or the work tree. */
const COMPARES = new Set(["diff", "diff-index", "diff-tree", "difftool"]);

/**
 * Whether a history command's revisions name the objects it shows alone: `git show HEAD:x`
 * prints that blob or tree (`REV:` lists the top's names); a diff compares a `REV:dir` tree with
 * the work tree, the index or the commit's whole tree (every file of one side is shown) unless
 * each side is a `REV:path` (`git diff HEAD~1:x HEAD:x`).
 */
function namesObjects(sub: string, revisions: Word[]): boolean {
  if (!COMPARES.has(sub)) return revisions.every((w) => isObject(w, true));
  return revisions.length > 1 && revisions.every((w) => isObject(w, false));
}

/** Whether a word is `REV:path` (or, with `top`, `REV:`: the top's tree). */
function isObject(w: Word, top: boolean): boolean {
  return w.kind === "static" &&
    (blobPath(w.value) !== null || (top && /^[^\s:]+:$/.test(w.value)));
}

/** Options that make `add`, `checkout`, `restore`, `reset`, `stash` and `commit` show hunks. */
const PATCH_MODE: Record<string, { short: string; long: string[] }> = {
  add: { short: "pie", long: ["--patch", "--interactive", "--edit"] },
  checkout: { short: "p", long: ["--patch"] },
  restore: { short: "p", long: ["--patch"] },
  reset: { short: "p", long: ["--patch"] },
  stash: { short: "p", long: ["--patch"] },
  commit: { short: "p", long: ["--patch", "--interactive"] },
};

/** Their short options that take a value (the rest of a cluster, or the next word). */
const PATCH_MODE_VALUED: Record<string, string> = {
  add: "",
  checkout: "bB",
  restore: "s",
  reset: "",
  stash: "m",
  commit: "mFCct",
};

/** Long options of theirs that take a value in the next word (`--message`, `--source`). */
// deno-fmt-ignore
const PATCH_MODE_LONG = new Set([
  "--message", "--file", "--reuse-message", "--reedit-message", "--template", "--author",
  "--date", "--fixup", "--squash", "--cleanup", "--trailer", "--source", "--conflict",
  "--pathspec-from-file", "--orphan", "--chmod",
]);

/**
 * Whether a subcommand's words ask for its hunks (`add -p`, `checkout --patch`, `reset -p`,
 * `commit --interactive`; a cluster `-vp`; an abbreviation `--pat`), before `--`.
 */
function asksHunks(sub: string, tokens: OptionToken[], values: (string | null)[]): boolean {
  const mode = PATCH_MODE[sub];
  for (const t of tokens) {
    if (t.kind === "end") return false;
    const v = values[t.at];
    if (v === null || !v.startsWith("-")) continue;
    if (t.name.startsWith("--")) {
      if (mode.long.some((name) => abbreviates(t.name, name))) return true;
    } else if (mode.short.includes(t.name[1])) return true;
  }
  return false;
}

/**
 * `add -p`/`-i`/`-e`, `checkout -p`, `restore -p`, `reset -p`, `stash [push] -p`, `commit -p`:
 * the hunks of every tracked file from the top, where no pathspec names them (checkout's and
 * reset's first operand may be a revision).
 */
function patchMode(sub: string, args: Word[]): RepositoryRead | null {
  const values = valuesOf(args);
  const tokens = readOptions(values, {
    valued: PATCH_MODE_VALUED[sub],
    gluedOnly: "S",
    longValued: PATCH_MODE_LONG,
  });
  if (!asksHunks(sub, tokens, values)) return null;
  return operandsRead(sub, tokens, args);
}

/** The read of a patch mode given its operands: none where a pathspec names what is shown. */
function operandsRead(sub: string, tokens: OptionToken[], args: Word[]): RepositoryRead | null {
  const { before, after } = operands(tokens, args);
  if (after !== null && pathspecs(after).named) return null;
  if (/^(checkout|reset)$/.test(sub)) {
    const [revision, ...rest] = before;
    if (rest.length && pathspecs(rest).named) return null;
    // (Before `--`, the first operand is a revision alone: `git checkout -p README.md --`.)
    return fromTop(revision && after === null ? [revision] : []);
  }
  if (before.length && pathspecs(before).named) return null;
  return fromTop();
}

/**
 * Whether a token is the long option `name` or a prefix of it git's parse-options may take for it
 * (a unique one: one that is not fails, so reading every prefix as it is stricter).
 */
function longFor(t: OptionToken, name: string): boolean {
  return t.name.startsWith("--") && t.name.length > 2 && name.startsWith(t.name);
}

// deno-fmt-ignore
/** git add's long options that take no value. */
const ADD_FLAGS = new Set([
  "--dry-run", "--verbose", "--interactive", "--patch", "--edit", "--force", "--update",
  "--renormalize", "--intent-to-add", "--all", "--no-all", "--ignore-removal",
  "--no-ignore-removal", "--refresh", "--ignore-errors", "--ignore-missing", "--sparse",
  "--no-warn-embedded-repo", "--pathspec-file-nul", "--no-dry-run", "--no-force",
]);

/** git add's grammar (no short option takes a value). */
const ADD: OptionGrammar = {
  flags: "nvfipeuAN",
  longFlags: ADD_FLAGS,
  longValued: new Set(["--chmod", "--pathspec-from-file"]),
};

/**
 * `git add`: its hunks (`-p`, `-i`, `-e`); else what it reads into the object store where no
 * pathspec names it: `-A`/`--all`, `:/` or a pathspec from a file (no pathspec: from the top),
 * exclusions alone (from the cwd), the tracked files and those git does not ignore (with
 * `-f`/`--force`: all there are); `-u`/`--update`, `--renormalize`, the tracked ones alone.
 * Nothing with `-n`/`--dry-run`, nor with no pathspec and none of those.
 */
function addRead(args: Word[]): RepositoryRead | null {
  const values = valuesOf(args);
  const tokens = readOptions(values, ADD);
  if (asksHunks("add", tokens, values)) return operandsRead("add", tokens, args);
  let all = false;
  let update = false;
  let force = false;
  let dry = false;
  for (const t of tokens) {
    if (t.kind === "end") break;
    const long = t.name.startsWith("--");
    const letter = long ? "" : t.name.slice(1);
    // (Pathspecs read from a file may name any file git does not ignore.)
    if (letter === "A" || longFor(t, "--all") || longFor(t, "--no-ignore-removal")) all = true;
    if (longFor(t, "--pathspec-from-file")) all = true;
    if (letter === "u" || longFor(t, "--update") || longFor(t, "--renormalize")) update = true;
    if (letter === "f" || longFor(t, "--force")) force = true;
    if (letter === "n" || longFor(t, "--dry-run")) dry = true;
    // (`--no-…` may be `--no-dry-run`: a prefix of it counts.)
    if (longFor(t, "--no-dry-run")) dry = false;
  }
  if (dry) return null;
  const { before, after } = operands(tokens, args);
  const words = [...before, ...(after ?? [])];
  const limit = pathspecs(words);
  if (limit.named || (words.length === 0 && !all && !update)) return null;
  const read: RepositoryRead = { ...fromTop(), stores: true };
  if (words.length > 0 && !limit.top) read.from = "cwd";
  // (`-A` with `-u` is an error; read as `-A`.)
  if (all || !update) {
    if (force) read.present = true;
    else read.unignored = true;
  }
  return read;
}

/** `git stash push`'s grammar (`-m` takes a value). */
const STASH: OptionGrammar = {
  valued: "m",
  longValued: new Set(["--message", "--pathspec-from-file"]),
};

/**
 * `git stash` (`push`, its options alone, `save`, `create`): its hunks (`-p`), or what it reads
 * into the object store where no pathspec names it: the tracked files' changes from the top, and
 * with `-u`/`--include-untracked` those git does not ignore, with `-a`/`--all` all there are.
 * (`save`'s words are a message, not pathspecs.)
 */
function stashRead(verb: string, args: Word[]): RepositoryRead | null {
  const push = verb === "" || verb === "push" || verb.startsWith("-");
  if (!push && verb !== "save" && verb !== "create") return null;
  const rest = verb === "" || verb.startsWith("-") ? args : args.slice(1);
  if (verb === "create") return { ...fromTop(), stores: true };
  const values = valuesOf(rest);
  const tokens = readOptions(values, STASH);
  if (asksHunks("stash", tokens, values)) {
    return verb === "save" ? fromTop() : operandsRead("stash", tokens, rest);
  }
  const read: RepositoryRead = { ...fromTop(), stores: true };
  for (const t of tokens) {
    if (t.kind === "end") break;
    const letter = t.name.startsWith("--") ? "" : t.name.slice(1);
    if (letter === "u" || longFor(t, "--include-untracked")) read.unignored = true;
    if (letter === "a" || longFor(t, "--all")) read.present = true;
  }
  if (verb === "save") return read;
  const { before, after } = operands(tokens, rest);
  return pathspecs([...before, ...(after ?? [])]).named ? null : read;
}

/**
 * `git commit`: its hunks (`-p`, `--interactive`), or the staged diff `-v`/`--verbose` (or
 * `commit.verbose`) puts in the message the editor opens (not with `-m`, `-F`, `-C`,
 * `--no-edit`, unless `-e`).
 */
function commitRead(args: Word[], own: Word[]): RepositoryRead | null {
  const values = valuesOf(args);
  const tokens = readOptions(values, {
    valued: PATCH_MODE_VALUED.commit,
    gluedOnly: "S",
    longValued: PATCH_MODE_LONG,
  });
  if (asksHunks("commit", tokens, values)) return operandsRead("commit", tokens, args);
  const all = tokens.some((t, i) =>
    tokens.slice(0, i).every((u) => u.kind !== "end") &&
    (t.name === "-a" || longFor(t, "--all") || longFor(t, "--pathspec-from-file"))
  );
  const { before, after } = operands(tokens, args);
  const words = [...before, ...(after ?? [])];
  const limit = pathspecs(words);
  // `-a`, a pathspec from a file or `:/`: the tracked files' changes, from the top; exclusions
  // alone (`':!x'`): from the cwd. (Pathspecs that name files are judged as named.)
  if (!limit.named && (all || limit.top || words.length > 0)) {
    return { ...fromTop(), from: all || limit.top ? "top" : "cwd", stores: true };
  }
  let verbose = own.some((w) => /^commit\.verbose(=(?!false$|no$|off$|0$)|$)/i.test(w.value));
  let editor = true;
  let edit = false;
  // (`--dry-run` prints the status, with `-v` the staged diff, whatever gives the message.)
  let dryRun = false;
  for (const t of tokens) {
    if (t.kind === "end") break;
    const long = t.name.startsWith("--");
    if (t.name === "-v" || (long && abbreviates(t.name, "--verbose"))) verbose = true;
    else if (long && abbreviates(t.name, "--dry-run")) dryRun = true;
    else if (t.name === "-e" || (long && abbreviates(t.name, "--edit"))) edit = true;
    else if (/^-[mFC]$/.test(t.name) || (long && t.name === "--no-edit")) editor = false;
    else if (
      long && ["--message", "--file", "--reuse-message"].some((n) => abbreviates(t.name, n))
    ) {
      editor = false;
    }
  }
  return verbose && (editor || edit || dryRun) ? operandsRead("commit", tokens, args) : null;
}

/**
 * `git status -v` shows the staged changes' diff, `-vv` the unstaged ones' too: the tracked
 * files' content, from the top (limited by the pathspecs it is given).
 */
function statusRead(args: Word[]): RepositoryRead | null {
  const values = valuesOf(args);
  // (`-u[MODE]`, `--untracked-files[=MODE]` and the other long ones take their values glued.)
  const tokens = readOptions(values, { gluedOnly: "uM" });
  const verbose = tokens.some((t, i) =>
    tokens.slice(0, i).every((u) => u.kind !== "end") &&
    (t.name === "-v" || (t.name.startsWith("--") && abbreviates(t.name, "--verbose")))
  );
  return verbose ? operandsRead("status", tokens, args) : null;
}

/**
 * Subcommands that write or serve the content of the whole repository (`archive`,
 * `fast-export`, `bundle create`, `instaweb`) or of objects by name (`unpack-file`,
 * `merge-tree`, the blob `notes add -C` takes; `cat-file`: `catFileRead`; the plumbing of
 * `storeRead`): from the top, where no operand names what is shown.
 */
function wholeRead(sub: string, args: Word[]): RepositoryRead | null {
  const values = valuesOf(args);
  const has = (re: RegExp) => values.some((v) => v !== null && re.test(v));
  switch (sub) {
    case "archive": {
      // (`--remote=.`: an archive of a repository here, as of this one.)
      if (has(/^(-l|--list)$/) || localRemote(values) === false) return null;
      const tokens = readOptions(values, {
        valued: "o",
        longValued: new Set([
          "--output",
          "--format",
          "--prefix",
          "--remote",
          "--exec",
          "--add-file",
          "--add-virtual-file",
          "--mtime",
        ]),
        numbers: "option",
      });
      const { before, after } = operands(tokens, args);
      const [tree, ...paths] = [...before, ...(after ?? [])];
      if (tree === undefined || (tree.kind === "static" && blobPath(tree.value) !== null)) {
        return null;
      }
      return pathspecs(paths).named ? null : fromTop();
    }
    case "notes": {
      // (`notes add -C OBJECT`: a blob's content as the note `git log` prints.)
      const objects: Word[] = [];
      for (let i = 0; i < args.length; i++) {
        const m = /^(-[Cc]|--re(use|edit)-message)(=?)(.*)$/s.exec(values[i] ?? "");
        const w = m && (m[4] || m[3] ? literal(m[4]) : args[++i]);
        if (w && (w.kind !== "static" || blobPath(w.value) === null)) objects.push(w);
      }
      return objects.length ? { ...fromTop(), objects } : null;
    }
    case "fast-export":
      return has(/^--no-data$/) ? null : fromTop();
    case "bundle":
      return values[0] === "create" ? fromTop() : null;
    case "instaweb":
      return has(/^(--stop|--restart)$/) ? null : fromTop();
    case "unpack-file":
    case "merge-tree":
      return fromTop();
    case "checkout-index":
      // (`-a`: every path of the index below the cwd, copied where `--prefix` says.)
      return checksOutAll(args) ? { ...fromTop(), from: "cwd" } : null;
    default:
      return storeRead(sub, args);
  }
}
