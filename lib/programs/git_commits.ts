/**
 * What git writes into the work tree from other commits, files its command does not name:
 * `git checkout BRANCH`, `git switch`, `git reset --hard|--merge|--keep REV`, `git merge`,
 * `git cherry-pick`, `git revert`, `git stash pop|apply|branch` (and `git stash`, which writes
 * HEAD's files back), `git restore --source=REV`, `git checkout REV -- PATHS`,
 * `git read-tree -u`, `git rebase`, `git pull`. Each is a file named by what it writes from
 * (`NamedFile.commits`): the revisions as written (`@{upstream}` for a bare `git merge` or
 * `git rebase`, `@{-1}` for `-` where git reads it so: `git checkout -`, `git switch -`, `git
 * merge -` alone, `git cherry-pick -`/`git revert -` first, `git rebase -` as the upstream, `git
 * worktree add DIR -`), or one not known (null: a range, commits a rev-list option picks, a word
 * not seen; `unnamed` where the command names none: `git pull`, a sequence to continue); the
 * engine reads the repository to find the paths those differ in (`lib/policy/git_writes.ts`).
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { commitsWritten } from "./git_commits.ts";
 * commitsWritten(["git", "merge", "evil"].map(literal), 1)[0].commits;
 * // { revisions: ["evil"] }
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { CommitsWritten, NamedFile } from "./spec.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";

const set = (...names: string[]): ReadonlySet<string> => new Set(names);

/** Each subcommand's grammar: the options that take a value (the rest are flags). */
const GRAMMARS: Record<string, OptionGrammar> = {
  checkout: {
    valued: "bBU",
    longValued: set("--orphan", "--conflict", "--pathspec-from-file", "--unified"),
    longOptional: set("--track", "--recurse-submodules"),
    abbreviations: true,
  },
  switch: {
    valued: "cC",
    longValued: set("--create", "--force-create", "--orphan", "--conflict"),
    longOptional: set("--track", "--recurse-submodules"),
    abbreviations: true,
  },
  reset: {
    longValued: set("--pathspec-from-file"),
    longOptional: set("--recurse-submodules"),
    abbreviations: true,
  },
  merge: {
    valued: "mFsX",
    gluedOnly: "S",
    longFlags: set("--continue", "--abort", "--quit"),
    longValued: set("--message", "--file", "--strategy", "--strategy-option", "--into-name"),
    longOptional: set("--log", "--cleanup", "--gpg-sign", "--signoff"),
    abbreviations: true,
  },
  pull: {
    valued: "sXjo",
    gluedOnly: "S",
    longValued: set("--strategy", "--strategy-option", "--upload-pack", "--depth", "--jobs"),
    longOptional: set("--log", "--cleanup", "--gpg-sign", "--rebase", "--recurse-submodules"),
    abbreviations: true,
  },
  "cherry-pick": {
    valued: "mX",
    gluedOnly: "S",
    // (The verbs of a sequence under way, spelled in full as git's abbreviations may spell them.)
    longFlags: set("--continue", "--skip", "--abort", "--quit"),
    longValued: set("--mainline", "--strategy", "--strategy-option", "--cleanup"),
    longOptional: set("--gpg-sign"),
    abbreviations: true,
  },
  // (Every long option and its negation git-restore(1) takes, so that any prefix of one is it.)
  restore: {
    valued: "sU",
    longFlags: set(
      ...[
        "staged worktree ignore-unmerged overlay quiet progress merge ours theirs patch",
        "ignore-skip-worktree-bits pathspec-file-nul",
      ].join(" ").split(" ").flatMap((o) => [`--${o}`, `--no-${o}`]),
      "--no-source",
      "--no-conflict",
      "--no-recurse-submodules",
      "--no-pathspec-from-file",
    ),
    longValued: set(
      "--source",
      "--conflict",
      "--pathspec-from-file",
      "--unified",
      "--inter-hunk-context",
    ),
    longOptional: set("--recurse-submodules"),
    abbreviations: "all",
  },
  "read-tree": {
    longValued: set("--prefix", "--exclude-per-directory", "--index-output"),
    longOptional: set("--recurse-submodules"),
  },
  rebase: {
    valued: "sXxC",
    gluedOnly: "S",
    // (The verbs of a sequence under way, spelled in full as git's abbreviations may spell them:
    // `git rebase --cont` continues one.)
    longFlags: set(
      "--continue",
      "--skip",
      "--abort",
      "--quit",
      "--edit-todo",
      "--root",
      "--keep-base",
      "--interactive",
    ),
    longValued: set("--onto", "--exec", "--strategy", "--strategy-option", "--whitespace"),
    longOptional: set(
      "--gpg-sign",
      "--rebase-merges",
      "--empty",
      "--update-refs",
      "--show-current-patch",
    ),
    abbreviations: true,
  },
  am: {
    valued: "Cp",
    gluedOnly: "S",
    longFlags: set(
      "--continue",
      "--resolved",
      "--skip",
      "--abort",
      "--quit",
      "--retry",
      "--allow-empty",
    ),
    longValued: set(
      ...[
        "--whitespace --directory --exclude --include --patch-format --resolvemsg --quoted-cr",
        "--empty",
      ].join(" ").split(" "),
    ),
    longOptional: set("--gpg-sign", "--show-current-patch"),
    abbreviations: true,
  },
  "filter-branch": {},
  "filter-repo": {},
  stash: { valued: "m", longValued: set("--message", "--pathspec-from-file") },
  worktree: { valued: "bB", longValued: set("--reason", "--orphan"), abbreviations: true },
  clone: {
    valued: "objuc",
    longValued: set(
      ...[
        "--origin --branch --upload-pack --reference --reference-if-able --separate-git-dir",
        "--depth --shallow-since --shallow-exclude --config --filter --template --jobs",
        "--server-option --bundle-uri --revision",
      ].join(" ").split(" "),
    ),
    longOptional: set("--recurse-submodules"),
    abbreviations: true,
  },
  bisect: {},
  "sparse-checkout": {
    longFlags: set(
      "--cone",
      "--no-cone",
      "--sparse-index",
      "--no-sparse-index",
      "--skip-checks",
      "--stdin",
      "--end-of-options",
    ),
  },
};
GRAMMARS.revert = GRAMMARS["cherry-pick"];

/** The words of a subcommand read: its flags and valued options by name, its operands. */
interface Read {
  has: (...names: string[]) => boolean;
  /** The options given, by name. */
  names: string[];
  value: (...names: string[]) => string | null | undefined;
  /** The operands before `--` and after it (null: a word not seen). */
  before: (string | null)[];
  after: (string | null)[] | null;
  /**
   * Every operand, before `--` and after it: for the subcommands whose `--` only ends the options
   * (`git merge -- REV`, `git clone -- SRC DIR`, `git worktree add -- DIR REV`; gitcli(7)), not
   * those that take paths after it (`checkout`, `restore`, `reset`).
   */
  operands: (string | null)[];
}

function read(args: Word[], grammar: OptionGrammar): Read {
  const words = args.map((w) => (w.kind === "static" ? w.value : null));
  const tokens = readOptions(words, grammar);
  const names = new Map<string, string | null>();
  const before: (string | null)[] = [];
  let after: (string | null)[] | null = null;
  for (const t of tokens) {
    if (t.kind === "end") after = [];
    else if (t.kind === "operand" || t.kind === "dynamic") (after ?? before).push(words[t.at]);
    else if (t.kind === "valued") {
      names.set(t.name, t.glued ?? (t.valueAt === undefined ? null : words[t.valueAt]));
    } else names.set(t.name, null);
  }
  return {
    has: (...n) => n.some((x) => names.has(x)),
    names: [...names.keys()],
    value: (...n) => {
      for (const x of n) if (names.has(x)) return names.get(x);
      return undefined;
    },
    before,
    after,
    operands: after === null ? before : [...before, ...after],
  };
}

/**
 * A revision word as git reads it: a range or a negation is no single commit (null); a word
 * that starts as a path does (`../x`, `./x`, `/x`) is none (git checkout takes it for a path).
 */
function single(rev: string | null): string | null {
  if (rev === null || /^\.{0,2}\//.test(rev)) return rev;
  return rev.includes("..") || rev.startsWith("^") ? null : rev;
}

/** The options of `git cherry-pick` and `git revert` that are no rev-list options. */
const PICKING = set(
  ...[
    "-e --edit --no-edit -x -r -m --mainline -n --no-commit -s --signoff --no-signoff -S",
    "--gpg-sign --no-gpg-sign --ff --allow-empty --allow-empty-message --keep-redundant-commits",
    "--empty --strategy -X --strategy-option --rerere-autoupdate --no-rerere-autoupdate",
    "--cleanup --reference --quit",
  ].join(" ").split(" "),
);

/** What git's sequencer continues with (`--continue`, `--skip`, `--abort`): not known. */
const SEQUENCE = ["--continue", "--skip", "--abort"];

/** The verbs of `git am` that go on with a session under way, each as its state is read. */
const AM_VERBS: Record<string, "continue" | "skip" | "abort" | "apply"> = {
  "--continue": "continue",
  "--resolved": "continue",
  "-r": "continue",
  // (An empty patch recorded as an empty commit, then the patches left.)
  "--allow-empty": "continue",
  "--skip": "skip",
  "--abort": "abort",
  "--retry": "apply",
};

/**
 * git am's options that leave what a session's patches write as they name it: every other one
 * (`-p`, `--directory`, `--reject`, `-3`, `-i`, one not known) makes it not known.
 */
const AM_PLAIN = set(
  ...[
    "-q --quiet -s --signoff --no-signoff -k --keep --keep-non-patch --no-keep -u --utf8",
    "--no-utf8 --keep-cr --no-keep-cr -c --scissors --no-scissors -m --message-id",
    "--no-message-id --quoted-cr --empty --whitespace --ignore-space-change --ignore-whitespace",
    "-C --exclude --include --committer-date-is-author-date --ignore-date --rerere-autoupdate",
    "--no-rerere-autoupdate -S --gpg-sign --no-gpg-sign --resolvemsg --patch-format --no-3way",
    "-b --binary",
  ].join(" ").split(" "),
);

/** What `git restore` writes (see `restoreWrites`). */
export interface RestoreWrites {
  /** The work tree's files: with `-W`/`--worktree`, or by default (no `-S`/`--staged`). */
  worktree: boolean;
  /** The index. */
  index: boolean;
  /** The tree-ish they are restored from (`-s`/`--source`); undefined: the index (or HEAD). */
  source: string | null | undefined;
}

/**
 * What `git restore` writes, from its words after `restore`, read as git reads them: the last of
 * `-S`/`--staged` and `--no-staged` (and of `-W`/`--worktree`, `--no-worktree`) decides, in a
 * cluster too (`-SW`; not inside `-s`'s value, `-sStaged`), any unique prefix of a long option is
 * it (`--wor`); with neither `-S` nor `-W` it restores the work tree. A word not known before
 * `--` (or an option not known) may be `-W`: the work tree. The one reading of restore's options:
 * the files it writes from commits here, and the pathspecs of the index alone (git_pathspecs.ts).
 */
export function restoreWrites(args: Word[]): RestoreWrites {
  const words = args.map((w) => (w.kind === "static" ? w.value : null));
  let staged: boolean | undefined;
  let worktree: boolean | undefined;
  let unknown = false;
  let source: string | null | undefined;
  for (const t of readOptions(words, GRAMMARS.restore)) {
    if (t.kind === "end") break;
    if (t.kind === "dynamic" || t.kind === "unknown") unknown = true;
    else if (t.name === "-S" || t.name === "--staged") staged = true;
    else if (t.name === "--no-staged") staged = false;
    else if (t.name === "-W" || t.name === "--worktree") worktree = true;
    else if (t.name === "--no-worktree") worktree = false;
    else if (t.name === "-s" || t.name === "--source") {
      source = t.glued ?? (t.valueAt === undefined ? null : words[t.valueAt]);
    } else if (t.name === "--no-source") source = undefined;
  }
  const index = staged === true;
  return {
    index,
    worktree: unknown || worktree === true || (worktree === undefined && !index),
    source,
  };
}

/** What a subcommand writes from commits, or null where it writes none (see the module). */
function written(sub: string, args: Word[]): CommitsWritten | null {
  const grammar = GRAMMARS[sub];
  if (!grammar) return null;
  const r = read(args, grammar);
  const unknown: CommitsWritten = { revisions: [null] };
  const unnamed: CommitsWritten = { revisions: [null], unnamed: true };
  switch (sub) {
    case "checkout": {
      const limited = r.has("--pathspec-from-file") ? [null] : undefined;
      // (With nothing after `--` (`git checkout evil --`), git switches to the revision, as
      // without `--`: git-checkout(1); before it, no word is a path.)
      const dashed = r.after !== null;
      const [rev, ...rest] = r.before;
      const paths = [...rest, ...(r.after ?? [])];
      if (rev === undefined) {
        // (`git checkout -- PATHS` writes the index's files, named already; `git checkout -f`:
        // HEAD's files over the changes; `-b NEW`, `--orphan`: none.)
        return r.has("-f", "--force") && !r.has("--orphan") && !paths.length &&
            !limited
          ? { revisions: ["HEAD"], overwrites: true }
          : null;
      }
      // (Forced, or limited to paths: over the work tree's changes.)
      const over = r.has("-f", "--force") || paths.length > 0 || limited !== undefined;
      return {
        revisions: [single(rev === "-" ? "@{-1}" : rev)],
        branchFirst: true,
        ...(over ? { overwrites: true } : {}),
        ...(r.has("--no-guess") ? { noGuess: true } : {}),
        ...(dashed ? {} : { orPath: true }),
        ...(paths.length || limited ? { pathspecs: limited ?? paths } : {}),
      };
    }
    case "switch": {
      if (r.has("--orphan")) return unnamed;
      const [rev] = r.operands;
      const over = r.has("-f", "--force", "--discard-changes");
      // (`git switch -f -c NEW`: HEAD's files over the changes.)
      if (rev === undefined) return over ? { revisions: ["HEAD"], overwrites: true } : null;
      return {
        revisions: [single(rev === "-" ? "@{-1}" : rev)],
        branchFirst: true,
        ...(over ? { overwrites: true } : {}),
        ...(r.has("--no-guess") ? { noGuess: true } : {}),
      };
    }
    case "reset": {
      if (!r.has("--hard", "--merge", "--keep")) return null;
      const [rev] = r.before;
      const over = r.has("--hard") ? { overwrites: true } : {};
      return { revisions: [rev === undefined ? "HEAD" : single(rev)], ...over };
    }
    case "merge":
    case "pull": {
      // (`git merge --abort`: `git reset --merge` where a merge is under way, then its autostash
      // applied. `--continue` commits, as `git commit` does.)
      if (r.has("--abort")) {
        return sub === "pull"
          ? { revisions: ["HEAD"] }
          : { ...unnamed, underway: "abort", underwayOf: "merge" };
      }
      if (r.has("--continue", "--quit")) return null;
      if (sub === "pull") return pulledWritten(r.operands);
      // (`git merge FETCH_HEAD`: every commit fetched for merging; a bare `git merge`: the
      // branch's upstream, as merge.defaultToUpstream has it; `git merge -` alone, `@{-1}`.)
      const revs = r.operands.length === 1 && r.operands[0] === "-" ? ["@{-1}"] : r.operands;
      if (revs.length === 1 && revs[0] === "FETCH_HEAD") {
        return { revisions: ["FETCH_HEAD"], fetched: true };
      }
      return { revisions: revs.length ? revs.map(single) : ["@{upstream}"] };
    }
    case "cherry-pick":
    case "revert":
      return pickedWritten(r, sub === "revert");
    case "restore": {
      const { source, worktree } = restoreWrites(args);
      if (source === undefined || !worktree) return null;
      const paths = [...r.before, ...(r.after ?? [])];
      return {
        revisions: [single(source)],
        overwrites: true,
        pathspecs: r.has("--pathspec-from-file") ? [null] : paths,
      };
    }
    case "read-tree": {
      if (!r.has("-u")) return null;
      // (`--prefix=DIR/ -u`: the whole tree written below DIR/, not read here.)
      if (r.has("--prefix")) return unknown;
      const over = r.has("--reset") ? { overwrites: true } : {};
      return r.operands.length ? { revisions: r.operands.map(single), ...over } : null;
    }
    case "rebase":
      return rebaseWritten(r);
    case "am":
      return amWritten(r);
    case "filter-branch":
    case "filter-repo":
      // (Commits rewritten, the branch checked out anew: `read-tree -u -m HEAD`, `reset --hard`.)
      return unnamed;
    case "worktree":
      return worktreeWritten(r);
    case "clone":
      return cloneWritten(r);
    case "bisect":
      return bisectWritten(args);
    case "sparse-checkout": {
      // (Any verb that changes the patterns, or applies them again: the files skipped may return.)
      const [verb] = r.operands;
      if (verb === null) return unnamed;
      return verb !== undefined && /^(disable|add|set|reapply|init)$/.test(verb)
        ? { revisions: [], skipped: true }
        : null;
    }
    default:
      return stashWritten(r);
  }
}

/** What `git rebase` writes first: its `--onto` or upstream's files, and its branch's. */
function rebaseWritten(r: Read): CommitsWritten | null {
  const unnamed: CommitsWritten = { revisions: [null], unnamed: true };
  if (r.has("--quit", "--edit-todo", "--show-current-patch")) return null;
  if (r.has(...SEQUENCE)) {
    // (Two verbs: git refuses them.)
    const verbs = SEQUENCE.filter((v) => r.has(v));
    return verbs.length > 1 ? unnamed : { ...unnamed, underway: verbs[0].slice(2) as "skip" };
  }
  const onto = r.value("--onto");
  const [first, branch] = r.operands;
  const upstream = first === "-" ? "@{-1}" : first;
  const revisions = onto !== undefined ? [single(onto)] : upstream ? [single(upstream)] : [];
  if (branch !== undefined) revisions.push(single(branch));
  if (r.has("--root")) return onto !== undefined ? { revisions } : unnamed;
  // (`--keep-base`: onto the merge base of the upstream and the branch, not read here.)
  if (r.has("--keep-base")) return unnamed;
  // (A bare `git rebase`: onto the branch's upstream.)
  return { revisions: revisions.length ? revisions : ["@{upstream}"] };
}

/**
 * What `git pull` writes: the commits it fetches, from another machine's repository not named
 * (`unnamed`: what is there now judges it); from this one (`git pull . evil`), the branches it
 * names; from another here (`git pull ../other evil`), commits not read.
 */
function pulledWritten(operands: (string | null)[]): CommitsWritten {
  const [source, ...specs] = operands;
  if (source !== null && (source === undefined || !/^(\.|\/|~|file:)/.test(source))) {
    return { revisions: [null], unnamed: true };
  }
  if (source !== "." || !specs.length) return { revisions: [null] };
  return {
    revisions: specs.map((s) => s === null ? null : single(s.replace(/^\+/, "").split(":")[0])),
  };
}

/**
 * What `git am` writes from a session under way (`--continue`, `--skip`, `--abort`, `--retry`):
 * its patches left, or the files back as they were, read from its state (`rebase-apply/`); a
 * mailbox's patches are named by what they change (`gitPatchFiles`). With a mailbox, or two verbs,
 * git refuses: not read.
 */
function amWritten(r: Read): CommitsWritten | null {
  const unnamed: CommitsWritten = { revisions: [null], unnamed: true };
  const verbs = Object.keys(AM_VERBS).filter((v) => r.has(v));
  if (!verbs.length) return null;
  if (verbs.length > 1 || r.operands.length) return unnamed;
  const changing = r.names.filter((n) => !(n in AM_VERBS) && !AM_PLAIN.has(n));
  return {
    ...unnamed,
    underway: AM_VERBS[verbs[0]],
    underwayOf: "am",
    ...(changing.length ? { underwayOptions: changing } : {}),
  };
}

/** What `git cherry-pick` and `git revert` (`reverts`: the parents' files) write. */
function pickedWritten(r: Read, reverts: boolean): CommitsWritten | null {
  if (r.has("--quit")) return null;
  // (`git cherry-pick - X`: the first `-` is `@{-1}`.)
  const revs = r.operands.map((w, n) => (n === 0 && w === "-" ? "@{-1}" : w));
  if (r.has(...SEQUENCE)) {
    // (Two verbs: git refuses them. git reads the sequence's own options from its state, and
    // refuses most others beside a verb.)
    const verbs = SEQUENCE.filter((v) => r.has(v));
    const unnamed: CommitsWritten = { revisions: [null], unnamed: true };
    if (verbs.length > 1 || r.operands.length) return unnamed;
    return { ...unnamed, underway: verbs[0].slice(2) as "skip", underwayOf: "sequencer" };
  }
  // (A rev-list option picks commits not named: `--stdin`, `--all`, `--branches`, `-3`.)
  if (r.names.some((n) => !PICKING.has(n))) return { revisions: [null] };
  if (!revs.length) return { revisions: [null], unnamed: true };
  const parents = reverts ? { parents: true } : {};
  // (A range or a negation: each commit it names, as rev-list reads them; `X^!`, `X^@`, `X^-N`.)
  const ranged = (w: string) => w.includes("..") || w.startsWith("^") || /\^(!|@|-\d*)$/.test(w);
  if (revs.some((w) => w !== null && ranged(w))) {
    return { revisions: revs, range: true, ...parents };
  }
  return { revisions: revs.map(single), ...parents };
}

/**
 * What `git worktree add [-b NEW] DIR [REV]` writes: REV's files (HEAD's without one; a branch
 * named as DIR's last name where one is there, as git guesses it) into DIR.
 */
function worktreeWritten(r: Read): CommitsWritten | null {
  const [verb, into, rev] = r.operands;
  if (verb !== "add" || into === undefined) return verb === null ? { revisions: [null] } : null;
  if (r.has("--no-checkout", "--orphan")) return null;
  const base = into?.replace(/\/+$/, "").split("/").at(-1);
  const guess = rev === undefined && !r.has("-b", "-B", "--detach", "-d") && base;
  return {
    revisions: [rev === undefined ? "HEAD" : single(rev === "-" ? "@{-1}" : rev)],
    branchFirst: true,
    into,
    ...(guess ? { guessed: base } : {}),
  };
}

/**
 * What `git clone [-b REV] SRC [DIR]` writes of a local source (a path, `file://`): REV's files
 * (the source's HEAD's without one) into DIR (SRC's last name without one). Another machine's
 * repository cannot be read: none here (its directory is judged below, `git_checkouts.ts`).
 */
function cloneWritten(r: Read): CommitsWritten | null {
  if (r.has("-n", "--no-checkout", "--bare", "--mirror")) return null;
  const [url, dir] = r.operands;
  if (url === undefined) return null;
  if (url === null) return { revisions: [null] };
  const local = /^file:\/\//.test(url)
    ? url.slice(7)
    : /^[\w+.-]+:\/\//.test(url) || /^[^/]*:/.test(url)
    ? null
    : url;
  if (local === null) return null;
  const rev = r.value("--revision", "-b", "--branch");
  const name = local.replace(/\/+$/, "").replace(/\/\.git$/, "").replace(/\.git$/, "")
    .split("/").at(-1);
  return {
    revisions: [rev === undefined ? "HEAD" : rev],
    branchFirst: true,
    into: dir === undefined ? name || null : dir,
    source: local,
  };
}

/** The verbs of `git bisect` that write no commit's files. */
const BISECT_QUIET = set("log", "view", "visualize", "terms", "help");

/** What `git bisect VERB ...` writes (see `CommitsWritten.bisect`). */
function bisectWritten(args: Word[]): CommitsWritten | null {
  const words = args.map((w) => (w.kind === "static" ? w.value : null));
  const [verb, ...rest] = words;
  if (verb === undefined || (verb !== null && BISECT_QUIET.has(verb))) return null;
  if (verb === null || verb === "replay") return { revisions: [null], unnamed: true };
  if (verb === "reset") return { revisions: rest.slice(0, 1), bisect: verb };
  if (verb === "run") return { revisions: [], bisect: verb };
  if (verb !== "start") return { revisions: rest, bisect: verb };
  const revs: (string | null)[] = [];
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i];
    if (w === "--") break;
    if (w === "--no-checkout") return null;
    if (w !== null && /^--term-(new|bad|old|good)$/.test(w)) i++;
    else if (w === null || !w.startsWith("-")) revs.push(w);
    else if (w !== "--first-parent" && !/^--term-(new|bad|old|good)=/.test(w)) revs.push(null);
  }
  // (With a new and an old revision: one commit of the range between them; with fewer, none.)
  return revs.length < 2 ? { revisions: [], bisect: verb } : {
    revisions: revs.map((w, n) => (n === 0 || w === null ? w : `^${w}`)),
    range: true,
    bisect: verb,
  };
}

/** What `git stash` writes: a stash's files (`pop`, `apply`, `branch`), HEAD's (`push`). */
function stashWritten(r: Read): CommitsWritten | null {
  // (`git stash -- PATHS` pushes; `git stash pop -- stash@{1}` pops that one.)
  const verb = r.before[0];
  const rest = r.operands.slice(1);
  if (verb === null) return { revisions: [null] };
  if (verb === "pop" || verb === "apply" || verb === "branch") {
    const name = verb === "branch" ? rest[1] : rest[0];
    const stash = name === undefined
      ? "refs/stash"
      : name !== null && /^\d+$/.test(name)
      ? `stash@{${name}}`
      : name;
    return { revisions: [stash], stash: true };
  }
  if (verb === undefined || verb === "push" || verb === "save") {
    return { revisions: ["HEAD"], overwrites: true };
  }
  return null;
}

/** The files a git subcommand writes from commits (see the module's notes). */
export function commitsWritten(argv: Word[], at: number): NamedFile[] {
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  if (!(sub in GRAMMARS)) return [];
  const commits = written(sub, argv.slice(at + 1));
  if (commits === null) return [];
  const text = argv.slice(at).map((w) => w.text).join(" ");
  const source = `git ${text}`;
  const replays = sub === "rebase" && !commits.unnamed ? replayed(argv.slice(at + 1)) : null;
  return replays === null
    ? [{ path: null, source, commits }]
    : [{ path: null, source, commits }, { path: null, source, commits: replays }];
}

/**
 * The commits `git rebase` replays (`UPSTREAM..BRANCH`, every commit of the branch with
 * `--root`), each of whose files it may leave in the work tree where it stops: a path where none
 * of them, the branch's, nor the base's differs from HEAD's is none a replay writes otherwise.
 */
function replayed(args: Word[]): CommitsWritten {
  const r = read(args, GRAMMARS.rebase);
  const [first, branch = "HEAD"] = r.operands;
  const tip = single(branch);
  if (r.has("--root")) return { revisions: [tip], range: true, replays: true };
  const upstream = first === undefined ? "@{upstream}" : first === "-" ? "@{-1}" : single(first);
  if (upstream === null || tip === null) return { revisions: [null] };
  return { revisions: [`^${upstream}`, tip], range: true, replays: true };
}

/**
 * git's subcommands that write files of the repository into a work tree `--work-tree=DIR` moves
 * (`git --work-tree=~/.ssh checkout-index -a -f`, `merge`, `read-tree -u`): what lies below DIR.
 */
const MOVED_TREE_WRITERS = new Set(
  "checkout-index merge pull cherry-pick revert rebase am read-tree sparse-checkout submodule"
    .split(" "),
);

/**
 * Whether a git stage (its subcommand at `at`) writes the files of its repository into a work
 * tree it moves elsewhere (`--work-tree=DIR`; see `MOVED_TREE_WRITERS`).
 */
export function writesMovedTree(argv: Word[], at: number): boolean {
  const sub = argv[at];
  return sub?.kind === "static" && MOVED_TREE_WRITERS.has(sub.value) &&
    argv.slice(1, at).some((w) => /^--work-tree(=|$)/.test(w.value));
}
