/**
 * Revisions of a repository resolved as git resolves them (gitrevisions(7)), for the forms an
 * agent writes: `HEAD` (`@`), a ref by its full or short name in gitrevisions' order (a file of
 * that name in the git directory first, then `refs/`, `refs/tags/`, `refs/heads/`,
 * `refs/remotes/`; read from the loose refs and `packed-refs`; a branch first where `git
 * checkout`/`git switch` name one), a full or abbreviated object name (a unique prefix), a
 * reflog's entry (`stash@{n}`, `HEAD@{1}`, `main@{2}`, `@{1}` of the current branch), the branch
 * checked out before (`@{-1}`, from HEAD's reflog), a branch's upstream (`@{u}`,
 * `main@{upstream}`, from `branch.NAME.remote` and `.merge` and the remote's fetch refspecs), and
 * after any of these, in any order, `~n`/`^n` (`~` on first parents) and the peelings `^{}`,
 * `^{commit}`, `^{tag}`, `^{object}` (the commit) and `^{tree}` (its tree, `resolveTree`). Tags
 * are peeled to the commit they name. Anything else (`@{push}`, `@{now}`, `^{/text}`, `:/text`,
 * `REV:path`, `^!`, a range) is not known: null; `unreadRevision` tells a spelling not read here,
 * and `mayNameRevision` a word no revision can be from one not known.
 *
 * @example
 * ```ts
 * import { openRepository, resolveCommit } from "./git_revisions.ts";
 * import { realFs } from "./fs_facts.ts";
 * const repo = openRepository("/repo", realFs());
 * repo && resolveCommit(repo, "HEAD~1"); // the commit's name, or null
 * ```
 *
 * @module
 */
import { resolve } from "node:path";
import type { FsFacts } from "../types.ts";
import { gitDirOf } from "./git_index.ts";
import { type ConfigSetting, gitConfig } from "./git_config_files.ts";
import { objectsStartingWith, type ObjectStore, objectStore, readObject } from "./git_objects.ts";

/** A repository's directories (its work tree's own and the common one) and its objects. */
export interface Repository {
  /** The settings of git's config files (null: not known; see `gitConfig`), once asked. */
  config?: () => ConfigSetting[] | null;
  /** The work tree's git directory (HEAD, the index). */
  gitDir: string;
  /** The directory of refs and objects (a linked work tree's `commondir`). */
  commonDir: string;
  store: ObjectStore;
  fs: FsFacts;
}

/** A commit's tree and parents, and its committer's time (seconds; 0 where none is read). */
export interface Commit {
  tree: string;
  parents: string[];
  time: number;
}

const OID = /^[0-9a-f]{40}$/;

/**
 * The repository of the work tree whose top is `top` (its `.git`, or the directory a `.git` file
 * names and that one's `commondir`), or null where its objects cannot be seen (see `objectStore`).
 */
export function openRepository(
  top: string,
  fs: FsFacts,
  user?: { home: string; env: Record<string, string | undefined> },
): Repository | null {
  const gitDir = gitDirOf(top, fs);
  if (gitDir === null) return null;
  const common = fs.readText?.(`${gitDir}/commondir`, 4096)?.trim();
  const commonDir = common ? resolve(gitDir, common) : gitDir;
  const store = objectStore(commonDir, fs);
  if (store === null) return null;
  let settings: ConfigSetting[] | null | undefined;
  const config = () => {
    if (settings === undefined) {
      settings = user
        ? gitConfig(gitDir, commonDir, fs, user.home, user.env)?.settings ?? null
        : null;
    }
    return settings;
  };
  return { gitDir, commonDir, store, fs, config };
}

/** Whether a ref lives in the work tree's own git directory (HEAD, `FETCH_HEAD`, the like). */
const isOwn = (name: string) => /^[A-Z_]+$/.test(name);

/** The file of a loose ref or of its reflog (`logs/`: `log`). */
const refFile = (repo: Repository, name: string, log = "") =>
  `${isOwn(name) ? repo.gitDir : repo.commonDir}/${log}${name}`;

const packedRefs = new WeakMap<Uint8Array, Map<string, string>>();

/** The object a ref names (`HEAD`, `refs/heads/main`), following symbolic refs; or null. */
export function refValue(repo: Repository, name: string, depth = 0): string | null {
  if (depth > 5 || name.includes("..") || !/^[\w./@+-]+$/.test(name)) return null;
  // (HEAD and the other pseudo-refs are the work tree's own; refs/… and other names, shared.)
  const own = isOwn(name);
  const text = repo.fs.readText?.(refFile(repo, name), 4096);
  if (text != null) {
    const value = text.split("\n")[0].trim();
    // (`FETCH_HEAD`'s lines say more after the name.)
    const oid = /^([0-9a-f]{40})(\s|$)/.exec(value);
    if (oid) return oid[1];
    const m = /^ref: *(refs\/\S+)$/.exec(value);
    return m ? refValue(repo, m[1], depth + 1) : null;
  }
  if (own) return null;
  const bytes = repo.fs.readBytes?.(`${repo.commonDir}/packed-refs`, 16 * 1024 * 1024);
  if (!bytes) return null;
  let refs = packedRefs.get(bytes);
  if (!refs) {
    refs = new Map();
    for (const line of new TextDecoder().decode(bytes).split("\n")) {
      const m = /^([0-9a-f]{40}) (refs\/\S+)$/.exec(line);
      if (m) refs.set(m[2], m[1]);
    }
    packedRefs.set(bytes, refs);
  }
  return refs.get(name) ?? null;
}

/** A commit's tree and parents, or null where it is no commit that can be read. */
export function commitOf(repo: Repository, oid: string): Commit | null {
  const o = readObject(repo.store, oid);
  if (o?.type !== "commit") return null;
  const text = new TextDecoder().decode(o.data.subarray(0, headerEnd(o.data)));
  const tree = /^tree ([0-9a-f]{40})$/m.exec(text)?.[1];
  if (!tree) return null;
  const parents = [...text.matchAll(/^parent ([0-9a-f]{40})$/gm)].map((m) => m[1]);
  const time = Number(/^committer .*> (\d+) [-+]\d{4}$/m.exec(text)?.[1] ?? 0);
  return { tree, parents, time };
}

/** Where an object's headers end (the first empty line). */
function headerEnd(data: Uint8Array): number {
  for (let i = 0; i + 1 < data.length; i++) if (data[i] === 10 && data[i + 1] === 10) return i;
  return data.length;
}

/** The commit an object names, tags peeled (bounded), or null. */
function peeled(repo: Repository, oid: string): string | null {
  for (let n = 0; n < 8; n++) {
    const o = readObject(repo.store, oid);
    if (o?.type === "commit") return oid;
    if (o?.type !== "tag") return null;
    const text = new TextDecoder().decode(o.data.subarray(0, headerEnd(o.data)));
    const next = /^object ([0-9a-f]{40})$/m.exec(text)?.[1];
    if (!next) return null;
    oid = next;
  }
  return null;
}

/** The full names a short name may be, in gitrevisions' order (a branch first: `branchFirst`). */
function refCandidates(name: string, branchFirst: boolean): string[] {
  const all = [
    name,
    `refs/${name}`,
    `refs/tags/${name}`,
    `refs/heads/${name}`,
    `refs/remotes/${name}`,
    `refs/remotes/${name}/HEAD`,
  ];
  return branchFirst ? [`refs/heads/${name}`, ...all] : all;
}

/**
 * Whether a word may be a ref's name as git reads one (git-check-ref-format(1): no space, `~`,
 * `^`, `:`, `?`, `*`, `[`, `\\`, `@{`, `..`, control character; no leading `-`).
 */
const refLike = (name: string) =>
  name !== "" && !/[\s~^:?*[\\]|@\{|\.\.|\.lock$|^-/.test(name) &&
  ![...name].some((c) => c < " " || c === "\x7f");

/** The full name of the ref a name gives (see `refCandidates`), or null where there is none. */
function fullRef(repo: Repository, name: string, branchFirst: boolean): string | null {
  if (name === "HEAD" || name === "@") return "HEAD";
  if (!refLike(name)) return null;
  for (const full of refCandidates(name, branchFirst)) if (refValue(repo, full)) return full;
  return null;
}

/** The object a name gives before any `~`/`^` (see the module's notes), or null. */
function named(repo: Repository, name: string, branchFirst = false, depth = 0): string | null {
  if (depth > 4) return null;
  if (OID.test(name)) return name;
  const at = /^(.*?)@\{([^{}]*)\}$/.exec(name);
  if (at) return atNamed(repo, at[1], at[2], branchFirst, depth);
  const full = fullRef(repo, name, branchFirst);
  if (full !== null) return refValue(repo, full);
  if (/^[0-9a-f]{4,39}$/.test(name)) {
    const found = objectsStartingWith(repo.store, name);
    return found?.length === 1 ? found[0] : null;
  }
  return null;
}

/** What `BASE@{SPEC}` names: a reflog's entry, the branch before, an upstream; or null. */
function atNamed(
  repo: Repository,
  base: string,
  spec: string,
  branchFirst: boolean,
  depth: number,
): string | null {
  if (/^-\d+$/.test(spec)) {
    const before = base === "" ? priorCheckout(repo, Number(spec.slice(1))) : null;
    return before === null ? null : named(repo, before, true, depth + 1);
  }
  if (/^\d+$/.test(spec)) {
    const ref = base === "" ? currentBranch(repo) : fullRef(repo, base, branchFirst);
    return ref === null ? null : reflogEntry(repo, ref, Number(spec));
  }
  if (/^(u|upstream)$/i.test(spec)) {
    const current = base === "" || base === "HEAD" || base === "@";
    const branch = current ? currentBranch(repo)?.slice("refs/heads/".length) : base;
    const up = branch && refLike(branch) ? upstreamRef(repo, branch) : null;
    return up === null ? null : refValue(repo, up);
  }
  return null;
}

/** The branch HEAD is on (`refs/heads/main`), or null (detached, not read). */
function currentBranch(repo: Repository): string | null {
  const head = repo.fs.readText?.(`${repo.gitDir}/HEAD`, 4096);
  return head ? /^ref: *(refs\/heads\/\S+)\s*$/.exec(head)?.[1] ?? null : null;
}

/** The lines of a ref's reflog, oldest first (none: empty). */
function reflogLines(repo: Repository, ref: string): string[] {
  const text = repo.fs.readText?.(refFile(repo, ref, "logs/"), 4 * 1024 * 1024);
  return text?.split("\n").filter((l) => l.trim()) ?? [];
}

/** The `n`th newest entry of a ref's reflog (`stash@{1}`, `HEAD@{2}`), or null. */
function reflogEntry(repo: Repository, ref: string, n: number): string | null {
  if (n === 0) return refValue(repo, ref);
  const lines = reflogLines(repo, ref);
  const line = lines[lines.length - 1 - n];
  const m = line && /^[0-9a-f]{40} ([0-9a-f]{40}) /.exec(line);
  return m ? m[1] : null;
}

/**
 * The `n`th branch (or commit) checked out before the current one (`@{-n}`), as HEAD's reflog
 * says (`checkout: moving from A to B`), or null.
 */
function priorCheckout(repo: Repository, n: number): string | null {
  const lines = reflogLines(repo, "HEAD");
  for (let i = lines.length - 1; i >= 0 && n > 0; i--) {
    const m = /\tcheckout: moving from (\S+) to \S+$/.exec(lines[i]);
    if (m && --n === 0) return m[1];
  }
  return null;
}

/** The last value of a setting (undefined: none), or null where an `includeIf` may set it. */
function lastSetting(settings: ConfigSetting[], key: string): string | null | undefined {
  const found = settings.filter((s) => s.key === key);
  if (found.some((s) => s.conditional)) return null;
  return found.length ? found[found.length - 1].value : undefined;
}

/**
 * The remote-tracking ref (or local branch) a branch's upstream is (`branch.NAME.remote` and
 * `.merge`, mapped by the remote's fetch refspecs), or null where that is not known.
 */
function upstreamRef(repo: Repository, branch: string): string | null {
  const settings = repo.config?.();
  if (!settings) return null;
  const remote = lastSetting(settings, `branch.${branch}.remote`);
  const merge = lastSetting(settings, `branch.${branch}.merge`);
  if (!remote || !merge?.startsWith("refs/")) return null;
  if (remote === ".") return merge;
  const specs = settings.filter((s) => s.key === `remote.${remote}.fetch`);
  if (specs.some((s) => s.conditional)) return null;
  return tracking(specs.map((s) => s.value), merge);
}

/** The ref a remote's fetch refspecs map `ref` to (the first that maps it), or null. */
function tracking(specs: string[], ref: string): string | null {
  for (const value of specs) {
    const m = /^\+?([^:*]*)(\*?)([^:*]*):([^:*]*)(\*?)([^:*]*)$/.exec(value);
    if (!m || !m[2] !== !m[5]) continue;
    const [head, glob, tail] = [m[1], m[2], m[3]];
    if (!glob) {
      if (head === ref) return m[4];
      continue;
    }
    const fits = ref.length >= head.length + tail.length && ref.startsWith(head) &&
      ref.endsWith(tail);
    if (fits) return m[4] + ref.slice(head.length, ref.length - tail.length) + m[6];
  }
  return null;
}

/**
 * The remote-tracking branch `git checkout NAME`/`git switch NAME` starts a branch NAME from
 * where NAME names nothing else (git's `--guess`, checkout.c's `parse_remote_branch`): the one
 * remote whose fetch refspecs map `refs/heads/NAME` to a ref there is, or among several that of
 * `checkout.defaultRemote`; null where there is none, `checkout.guess` is false, or what git reads
 * is not all known (a ref's file there, an object it may name, unread packed refs, the old
 * `remotes/` and `branches/` files, a setting from `includeIf`).
 */
function guessedBranch(repo: Repository, name: string): string | null {
  return guessing(repo, name) ?? null;
}

/**
 * Whether git's guess for `git checkout NAME` (see `guessedBranch`) finds no branch for certain:
 * NAME names nothing else, and no remote's or several remotes' branches match, none of them
 * `checkout.defaultRemote`'s, or `checkout.guess` is false; git then fails (or takes NAME for a
 * path).
 */
export function guessesNone(repo: Repository, name: string): boolean {
  return guessing(repo, name) === null;
}

/** The ref `guessedBranch` finds, null where none for certain, undefined where not known. */
function guessing(repo: Repository, name: string): string | null | undefined {
  const settings = repo.config?.();
  const packed = `${repo.commonDir}/packed-refs`;
  if (
    !settings || !refLike(name) || name === "HEAD" ||
    refCandidates(name, true).some((full) => repo.fs.exists(refFile(repo, full))) ||
    (/^[0-9a-f]{4,40}$/.test(name) && objectsStartingWith(repo.store, name)?.length !== 0) ||
    (repo.fs.exists(packed) && !repo.fs.readBytes?.(packed, 16 * 1024 * 1024)) ||
    ["remotes", "branches"].some((d) => {
      const dir = `${repo.commonDir}/${d}`;
      return repo.fs.exists(dir) && repo.fs.entries?.(dir)?.length !== 0;
    })
  ) return undefined;
  const guess = lastSetting(settings, "checkout.guess");
  if (guess === null) return undefined;
  if (/^(false|no|off|0|)$/i.test(guess ?? "true")) return null;
  const fetches = settings.filter((s) => /^remote\..+\.fetch$/.test(s.key));
  if (fetches.some((s) => s.conditional || s.value.startsWith("^"))) return undefined;
  const matches = new Map<string, string>();
  for (const remote of new Set(fetches.map((s) => s.key.slice(7, -6)))) {
    const specs = fetches.filter((s) => s.key === `remote.${remote}.fetch`);
    const dst = tracking(specs.map((s) => s.value), `refs/heads/${name}`);
    if (dst !== null && refValue(repo, dst) !== null) matches.set(remote, dst);
  }
  if (matches.size === 1) return [...matches.values()][0];
  const preferred = lastSetting(settings, "checkout.defaultremote");
  if (preferred === null) return undefined;
  return preferred ? matches.get(preferred) ?? null : null;
}

/**
 * Whether git may take a word for a revision: false only where it names none for certain (a
 * ref-like name no candidate ref has, nor any object starts with; a word of no revision's
 * syntax, `my file.txt`, `*.ts`), so that a word that is not read here (`evil@{now}`, `:/text`)
 * is never taken for a path.
 */
export function mayNameRevision(repo: Repository, word: string): boolean {
  const base = splitRevision(word)?.base;
  if (base === undefined) return true;
  // (Past a ref's name, git reads only `NAME@{…}` and `REV:path`, `:/text`, `:N:path`.)
  if (!refLike(base)) return /@\{|:/.test(base);
  if (named(repo, base) !== null) return true;
  if (refCandidates(base, false).some((full) => repo.fs.exists(refFile(repo, full)))) return true;
  return /^[0-9a-f]{4,40}$/.test(base) && objectsStartingWith(repo.store, base)?.length !== 0;
}

/**
 * Whether a word may be a revision spelled in a form not read here, whatever the repository holds
 * (`:/text`, `evil^{/text}`, `evil@{now}`, `@{push}`, `REV:path`): not a name, an object's name,
 * `NAME@{n}`, `@{-n}`, `NAME@{u}` with `~n`, `^n` and the peelings after it, nor a word of no
 * revision's syntax (`my file.txt`).
 */
export function unreadRevision(rev: string): boolean {
  const base = splitRevision(rev)?.base;
  if (base === undefined) return true;
  const at = /^(.*?)@\{([^{}]*)\}$/.exec(base);
  if (at === null) return !refLike(base) && /@\{|:/.test(base);
  const read = at[1] === "" ? /^(-?\d+|u|upstream)$/i : /^(\d+|u|upstream)$/i;
  return !((at[1] === "" || refLike(at[1])) && read.test(at[2]));
}

/** A suffix of a revision: `~n`, `^n`, or a peeling (`^{}`: the commit; `^{tree}`: its tree). */
type Step = { op: "~" | "^"; n: number } | { op: "peel"; tree: boolean };

/** The peelings read: each names the commit but `tree` (`^{tag}` of no tag git refuses). */
const PEELS = new Set(["", "commit", "tag", "object", "tree"]);

/**
 * A revision split as git splits it (`get_oid_1`, from its end): the base and the suffixes after
 * it in order; null where one is not read here (`^{/text}`, `^{blob}`) or there is no base.
 */
function splitRevision(rev: string): { base: string; steps: Step[] } | null {
  const steps: Step[] = [];
  let s = rev;
  for (let n = 0; n < 256; n++) {
    if (s.endsWith("}")) {
      const at = s.lastIndexOf("^{");
      // (Else `NAME@{…}`: the base.)
      if (at < 0) break;
      const type = s.slice(at + 2, -1);
      if (at === 0 || !PEELS.has(type)) return null;
      steps.unshift({ op: "peel", tree: type === "tree" });
      s = s.slice(0, at);
      continue;
    }
    const m = /([~^])(\d*)$/.exec(s);
    if (m === null) break;
    if (m.index === 0 || m[2].length > 6) return null;
    steps.unshift({ op: m[1] as "~" | "^", n: m[2] === "" ? 1 : Number(m[2]) });
    s = s.slice(0, m.index);
  }
  return s === "" ? null : { base: s, steps };
}

/**
 * The commit a revision names (see the module's notes), or null where that is not known: a form
 * not read here, a name that is not there, an object that cannot be read, a tree (`^{tree}`).
 */
export function resolveCommit(
  repo: Repository,
  rev: string,
  branchFirst = false,
  guess = branchFirst,
): string | null {
  const split = splitRevision(rev);
  if (split === null) return null;
  const { base, steps } = split;
  // (A branch first only for a name as it is: `git checkout evil~1` reads `evil` as rev-parse.)
  let oid = named(repo, base, branchFirst && !steps.length);
  if (oid === null && guess && !steps.length) {
    const guessed = guessedBranch(repo, base);
    oid = guessed && refValue(repo, guessed);
  }
  oid = oid && peeled(repo, oid);
  for (const step of steps) {
    if (oid === null) return null;
    if (step.op === "peel") {
      if (step.tree) return null;
      continue;
    }
    if (step.n > 10000) return null;
    if (step.op === "~") {
      for (let i = 0; i < step.n && oid !== null; i++) {
        oid = commitOf(repo, oid)?.parents[0] ?? null;
      }
    } else if (step.n > 0) oid = commitOf(repo, oid)?.parents[step.n - 1] ?? null;
  }
  return oid;
}

/** The tree a revision names: a commit's (see `resolveCommit`), or a tree named itself; or null. */
export function resolveTree(
  repo: Repository,
  rev: string,
  branchFirst = false,
  guess = branchFirst,
): string | null {
  // (`evil^{tree}`: the tree of what it peels.)
  if (rev.endsWith("^{tree}") && splitRevision(rev) !== null) {
    return resolveTree(repo, rev.slice(0, -7), false, false);
  }
  const commit = resolveCommit(repo, rev, branchFirst, guess);
  if (commit !== null) return commitOf(repo, commit)?.tree ?? null;
  const oid = /^[0-9a-f]{4,40}$/.test(rev) ? named(repo, rev) : null;
  return oid !== null && readObject(repo.store, oid)?.type === "tree" ? oid : null;
}

/**
 * The commits `git merge FETCH_HEAD` merges: each line of FETCH_HEAD not marked
 * `not-for-merge` (none: empty), or null where it cannot be read.
 */
export function fetchedForMerge(repo: Repository): string[] | null {
  const text = repo.fs.readText?.(`${repo.gitDir}/FETCH_HEAD`, 4 * 1024 * 1024);
  if (text == null) return null;
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const m = /^([0-9a-f]{40})\t([^\t]*)\t/.exec(line);
    if (!m) return null;
    if (m[2] !== "not-for-merge") out.push(m[1]);
  }
  return out;
}
