/**
 * pathProtection applied to one target's verdict: the strictest entry over the paths it reaches,
 * as a read or a write, at the path or below it (a tree read, a tree replaced, a listing, a
 * program that may write below what it names), if stricter than what the policies said.
 *
 * @module
 */
import type { Target } from "./targets.ts";
import type { RepositoryRead } from "../programs/spec.ts";
import type { StageShared, TreeRewrite } from "./stage_shared.ts";
import { namesBelow } from "./links_seen.ts";
import {
  type BelowOptions,
  type Protection,
  protectionBelow,
  protectionPair,
} from "./protection.ts";
import { RESTRICTIVENESS } from "./action.ts";
import type { Config, Context, TargetVerdict } from "../types.ts";
import { gitDirOf, trackedName, trackedNames, trackedPaths, workTreeTop } from "./git_index.ts";
import { isAbsolute, relative, resolve } from "node:path";
import { indexAdditions } from "../programs/git_staged.ts";
import { unignoredNames } from "./git_ignore.ts";
import { openRepository, resolveCommit } from "./git_revisions.ts";
import type { Word } from "../shell/model.ts";
import { type StoreHeld, storeHeld } from "./object_store.ts";

/** No path exists (see the unknown program's reach above). */
const NONE = () => false;

/** Below a tree written by names not known: every name, every path there may be. */
const ANY_NAME = { write: true, trees: true, exists: () => true };

/** A redirect's own answer to whether it writes. */
const WRITES = () => true;
const READS = () => false;

/** Apply pathProtection to a target's verdict: the strictest entry over its paths, if stricter. */
export function protect(
  config: Config,
  ctx: Context,
  target: Target,
  shared: StageShared,
  checked: string[],
  out: TargetVerdict,
): void {
  // Built-in protection of the gate's files counts for what may change them (asked only when
  // one applies: whether a stage writes is a question to the preset). A redirect says itself.
  const redirect = target.kind === "redirect";
  const writes = redirect ? (target.write ? WRITES : READS) : shared.writes;
  // (Listed paths are operands, below which `rm -r` reaches: `find .pi | xargs truncate -s0`. A
  // directory the stage writes below by names of its own, `tar -x`'s cwd, is written. Names a
  // glob builds, `split`'s pieces or what `rename` makes of `*.txt`, lie one name deep: a path
  // glob below there, `secrets/**`, counts only where that directory is its last name's.)
  // (A new name mktemp makes, `> "$(mktemp)"` too: what its template may make is reached.)
  const below = target.made !== undefined
    ? { ...shared.below, write: writes, surely: true, shallow: true, made: target.made }
    : redirect
    ? { ...shared.below, write: writes }
    : target.replaces
    ? { ...shared.below, trees: true, write: true }
    : target.built
    ? { ...shared.below, trees: true, write: true, surely: true, shallow: true }
    : target.listed && !shared.below.trees
    ? {
      ...shared.below,
      trees: true,
      noHidden: target.listed.noHidden === true,
      // (A lister's name filter, `find -name '*.py'`, counts where it matches a name a glob
      // surely protects, as grep's `--include` does.)
      surely: target.listed.names !== undefined,
    }
    : shared.below;
  // (Below a tree no stage changes first, a name glob counts where such a name is there: looked
  // for at each path the listing reaches, where its links lead and where `dir/..` really is.)
  // (So for a stage that only removes them, `xargs rm -r`, whose reach below each is all there
  // is below the tree now.)
  const settled = target.listed !== undefined && target.settled === true &&
    target.path !== null && (below !== shared.below || shared.removes());
  for (const p of checked) {
    let prot: Protection | null;
    if (target.reach === "below") {
      const at = settled
        ? { ...below, ...listedThere(p, ctx, writes, shared, target.listed!.tracked === true) }
        : below;
      prot = protectionBelow(config, p, ctx.home, lastComponent(target.source ?? ""), at);
    } else {
      const pair = protectionPair(config, p, ctx.home);
      prot = pair.read === pair.write || !writes() ? pair.read : pair.write;
    }
    if (!prot) prot = treeReached(config, ctx, target, shared, { p, below, writes });
    // A formatter rewrites the files it may change below the trees it is given (`deno fmt .`;
    // the cwd where it names none): the gate's own files there among them.
    prot = stricter(prot, rewrittenProtection(config, ctx, target, shared, p, writes));
    // (The files of a revision not read, `git merge evil^{/text}`: any protected path below.)
    if (target.unseen && config.pathProtection.length) {
      prot = stricter(prot, protectionBelow(config, p, ctx.home, "", ANY_NAME));
    }
    // (What git shows of its repository unnamed: `git diff`, `git log -p`, `git grep KEY`.)
    if (!prot && target.kind === "cwd" && config.pathProtection.length) {
      const read = shared.repository();
      if (read) prot = repositoryProtection(config, ctx, shared, { cwd: p, below, read });
    }
    // (A repository's object store read as files, `cat .git/objects/b6/…`, `zip -r o.zip .git`.)
    prot = stricter(prot, storeProtection(config, ctx, target, shared, p));
    // A program the registry does not know may write below a directory it names by names of its
    // own (`esbuild --outdir=.pi`, `rimraf .pi`, `hg clone URL .pi`): what is protected right below
    // a directory such as `.pi` (`config` for `config/master.key`) is reached, whether or not it
    // exists yet. One that only reads (`cat f`, `wc -l f`: the preset's read-only forms) writes
    // nothing there.
    if (
      !prot && shared.unknownProgram && target.reach === "exact" &&
      (target.kind === "argument" || target.kind === "path") && config.pathProtection.length &&
      writes()
    ) {
      prot = protectionBelow(config, p, ctx.home, null, {
        write: writes,
        trees: true,
        exists: NONE,
        shallow: true,
      });
    }
    const strictest = stricter(out.protection ?? null, prot);
    if (strictest) out.protection = strictest;
  }
  if (out.protection && RESTRICTIVENESS[out.protection.action] >= RESTRICTIVENESS[out.action]) {
    out.action = out.protection.action;
    // (No approval counts against a protection; most verdicts have none to take away.)
    if (out.approval !== undefined) delete out.approval;
  }
}

/**
 * What is protected below a tree the stage reads, replaces or may make at `p` (what `protect`
 * finds at the path itself found nothing): a name glob where such a name lies below, a tree made
 * where none is.
 */
function treeReached(
  config: Config,
  ctx: Context,
  target: Target,
  shared: StageShared,
  at: { p: string; below: BelowOptions; writes: () => boolean },
): Protection | null {
  const { p, below, writes } = at;
  if (
    !target.built && (shared.readsTrees || shared.replacesTrees || target.replaces) &&
    (target.kind === "argument" || target.kind === "path" ||
      // (The cwd, for a read limited to names, where it is the tree read: not `rsync -F src/
      // dst/`'s, whose trees its words name.)
      (target.kind === "cwd" &&
        ((shared.treeNames.length > 0 && !shared.operands) || shared.readsCwd))) &&
    config.pathProtection.length
  ) {
    const under = treeProtection(config, ctx, target, shared, p, below, writes);
    if (under && (shared.readsTrees || target.replaces || writes())) {
      if (ctx.fs.exists(p) && ctx.fs.isDirectory?.(p) !== false) {
        // (A tree made only where none is: `docker cp c:/x .pi` writes `.pi/x` into one.)
        if (!target.fresh) return under;
      } else if (
        (target.replaces || shared.replacesTrees) && target.kind !== "cwd" &&
        target.reach === "exact" && (target.replaces || writes())
      ) {
        // A tree the stage may make there, whether or not it exists yet (`cp -r /tmp/x .pi`,
        // `git clone URL .pi`, `mv /tmp/x secrets`): what may come to lie below it by names
        // of the stage's own (see `BelowOptions.fresh`).
        return protectionBelow(config, p, ctx.home, null, {
          ...below,
          trees: true,
          exists: NONE,
          fresh: true,
        });
      }
    }
  }
  return null;
}

/** The stricter of two protections (the first where they are as strict). */
function stricter(a: Protection | null, b: Protection | null): Protection | null {
  return b && (!a || RESTRICTIVENESS[b.action] > RESTRICTIVENESS[a.action]) ? b : a;
}

/**
 * What of the gate's own files below `p` a stage's formatter may change there (see
 * `StageShared.rewrites`): `p` a directory it is given, or the cwd where it names none.
 */
function rewrittenProtection(
  config: Config,
  ctx: Context,
  target: Target,
  shared: StageShared,
  p: string,
  writes: () => boolean,
): Protection | null {
  const given = target.kind === "argument" || target.kind === "path" || target.kind === "cwd";
  if (!given || target.reach !== "exact" || target.built || !config.pathProtection.length) {
    return null;
  }
  const rewrite = shared.rewrites();
  if (rewrite === null || (target.kind === "cwd" && !rewrite.cwd)) return null;
  const fs = ctx.fs;
  if (!fs.exists(p) || fs.isDirectory?.(p) === false) return null;
  return protectionBelow(config, p, ctx.home, null, {
    write: writes,
    trees: true,
    exists: (q) => fs.exists(q),
    rewrites: (entry) => mayRewrite(fs, shared, rewrite, p, entry),
  });
}

/**
 * Whether a formatter given `dir` may change what a built-in entry protects at `entry` below it:
 * a file it may change, a directory holding one (as listed now; a directory or a link in it may
 * hold any), anything there where another stage may change it first.
 */
function mayRewrite(
  fs: Context["fs"],
  shared: StageShared,
  rewrite: TreeRewrite,
  dir: string,
  entry: string,
): boolean {
  if (!shared.settled(entry, true, true)) return true;
  if (!fs.exists(entry)) return false;
  if (fs.isDirectory?.(entry) === false) return rewrite.changes(dir, entry);
  const list = fs.entries?.(entry) ?? null;
  if (list === null) return true;
  return list.some((e) => e.dir || e.link || rewrite.changes(dir, `${entry}/${e.name}`));
}

/**
 * What is protected below a directory operand a stage reads as a tree or replaces below (see the
 * caller), before whether the operand is a directory there is asked.
 */
function treeProtection(
  config: Config,
  ctx: Context,
  target: Target,
  shared: StageShared,
  p: string,
  below: BelowOptions,
  writes: () => boolean,
): Protection | null {
  // A directory operand (the cwd, for a read limited to names: `rg KEY -g .env`) may be read
  // all the way down (grep -r key ~), or what lies below it replaced by a stage that writes
  // (`rm -r`, `find -delete`): protected paths below it can be reached. Name globs (.env) are
  // counted only where the read is limited to names they may match, and a change limited to
  // names (`git rm '*.orig'`) reaches only what those may be. Whether the stage writes and
  // whether the operand is a directory are asked only when a protected path may lie below.
  const limited = shared.treeNames.length > 0 &&
    (target.kind === "cwd" || (shared.namesLimitTrees && target.kind === "argument"));
  const names = limited
    ? {
      ...below,
      names: shared.treeNames,
      isDirectory: (q: string) => ctx.fs.isDirectory?.(q) ?? true,
    }
    : below;
  // A read sees what is there: a path glob inside the tree (`secrets/**`) counts only where
  // a name it ends in is below it now (asked only where such a glob would count).
  let there: BelowOptions | null | undefined;
  const seen = (found: Protection | null, word: string | null, dots?: true) => {
    if (found === null || found.builtin === true) return found;
    // (A stage that may also write there by names of its own reaches one name deep, as a
    // program that says nothing of its files does: `python3 gen.py config`, `config/x.key`.)
    // (So for the listed paths of a tree no stage changes first that a stage only removes,
    // `find build -name '*.o' | xargs rm -r`: what it removes below them is there now.)
    const removed = target.listed !== undefined && target.settled === true && shared.removes();
    // (What `git ls-files` lists: what the index lists, `indexedBelow`.)
    const indexed = target.listed?.tracked === true && target.settled === true
      ? indexedBelow(p, ctx, shared)
      : null;
    if (there === undefined) {
      // (A later stage of a command run one after another starts once this one has read the tree:
      // `docker build . && docker run app`.)
      there = !target.replaces && (removed || (!shared.replacesTrees && shared.settled(p, true)))
        ? { ...names, there: indexed ?? presentBelow(p, ctx.fs), shallow: writes() && !removed }
        : lookedBelow(p, ctx, target, shared, writes, names);
      // (Where it is looked only now, a name glob below counts where such a name is: `.env`.)
      looked = there !== null && there.present !== undefined;
    }
    return there === null
      ? found
      : protectionBelow(config, p, ctx.home, looked && word === null ? "" : word, {
        ...there,
        ...(dots ? { dots } : {}),
      });
  };
  let looked = false;
  let under = seen(protectionBelow(config, p, ctx.home, null, names), null);
  // A read limited to some names reaches the name globs those may be (`--include=.env`).
  for (const name of shared.treeNames) {
    const word = lastComponent(name);
    const named = seen(
      protectionBelow(config, p, ctx.home, word, { ...names, dots: true }),
      word,
      true,
    );
    if (named && (!under || RESTRICTIVENESS[named.action] > RESTRICTIVENESS[under.action])) {
      under = named;
    }
  }
  return under;
}

/**
 * How the protection below a tree a stage replaces, or hands to a program that writes by names of
 * its own, sees what is there (null: any name may be): for a stage that copies, moves or removes
 * what its operands name, the names below each of them and theirs (`StageShared.landing`), with
 * the names below `p` (a link's target, where it follows them); a directory written by fixed
 * names of the program's own (`python -m venv .venv`) or read by a program its wrapper runs
 * (`npx vitest run src`), the names there now, one name deep besides. Each only where no other
 * stage may change the tree first.
 */
function lookedBelow(
  p: string,
  ctx: Context,
  target: Target,
  shared: StageShared,
  writes: () => boolean,
  names: BelowOptions,
): BelowOptions | null {
  // (The whole filesystem is never walked within the bounds: not tried.)
  if (target.unseen || target.listed !== undefined || p === "/") return null;
  if (target.replaces) {
    if (!target.ownNames || !shared.settled(p)) return null;
    const here = presentBelow(p, ctx.fs);
    return { ...names, there: here, present: here, shallow: true };
  }
  if (shared.replacesTrees) {
    if (!shared.settled(p)) return null;
    const landed = shared.landing();
    if (landed === null) return null;
    const own = namesMatching(() => landed);
    const here = presentBelow(p, ctx.fs);
    const any = (name: RegExp, folded: boolean) => own(name, folded) || here(name, folded);
    return { ...names, there: any, present: any };
  }
  if (!shared.settled(p, false, false, true)) return null;
  const here = presentBelow(p, ctx.fs);
  return { ...names, there: here, present: here, shallow: writes() };
}

/**
 * What is protected among the files git shows from `cwd` without naming them (see
 * `RepositoryRead`): below the work tree's top (or the cwd, where it reads from there or there is
 * none), a path glob counts where a name it ends in is a name of a path the index lists (or,
 * where git reads them or the index cannot be read, of the files there are). Nothing where an
 * operand that may be a revision names a path that exists: git reads only what its words name.
 */
function repositoryProtection(
  config: Config,
  ctx: Context,
  shared: StageShared,
  at: { cwd: string; below: BelowOptions; read: RepositoryRead },
): Protection | null {
  const { cwd, below, read } = at;
  for (const w of read.either) {
    if (w.kind === "static" && ctx.fs.exists(resolve(cwd, w.value))) return null;
  }
  const top = workTreeTop(cwd, ctx.fs);
  const dir = read.from === "top" && top !== null ? top : cwd;
  const prefix = top === null || dir === top ? "" : `${relative(top, dir)}/`;
  // (The index is read, or the tree walked, only where a path glob may lie below.)
  let paths: readonly string[] | null | undefined;
  let present: ((name: RegExp, folded: boolean) => boolean) | null = null;
  const there = (name: RegExp, folded: boolean) => {
    if (read.dangling) return true;
    if (paths === undefined) {
      const gitDir = read.tracked && top !== null ? gitDirOf(top, ctx.fs) : null;
      paths = gitDir === null ? null : trackedPaths(gitDir, ctx.fs);
      // (Another stage of the command may change the index first, `git add -Af && git diff
      // --cached`: what may be added is there; `git add src/main.ts` adds what it names. What git
      // does not ignore, where the ignore files and settings are read and no other stage may
      // change them first.)
      const added = read.present || paths === null ? null : addedFirst(shared, gitDir!, top!, ctx);
      if (added === null) present = presentBelow(dir, ctx.fs);
      else {
        if (added.length) paths = [...paths!, ...added];
        if (read.unignored) {
          present = unignoredBelow(top!, dir, gitDir!, ctx, shared) ?? presentBelow(dir, ctx.fs);
        }
      }
    }
    return (paths !== null && trackedName(paths, prefix, name, folded)) ||
      present?.(name, folded) === true;
  };
  // (What git reads into its object store it does not change.)
  const write = read.stores ? false : below.write;
  const found = protectionBelow(config, dir, ctx.home, null, { ...below, write, there });
  // (Names of commits alone show no file's content: `git cat-file -p HEAD`, `git show -s v1`.)
  if (found && read.objects && namesCommits(read.objects, top, ctx, shared)) {
    return null;
  }
  return found;
}

/** A path that may lie in a store or be a repository's directory (see `storeHeld`): looked at. */
const STORE_WORDS =
  /\/(?:objects|rr-cache|lost-found)(?:\/|$)|\/\.git$|\/[0-9a-f]{38}(?:[0-9a-f]{24})?$|\.pack$/;

/**
 * What of a repository's object store a stage's read of `p` reaches as files (see
 * object_store.ts and `StageShared.storeReads`): below the work tree's top, a path glob counts
 * where a name it ends in is a name of a path the repository's indexes list, as for what
 * `git cat-file -p` shows (`repositoryProtection`). A tree read whole is looked at only where
 * such a glob may lie below it.
 */
function storeProtection(
  config: Config,
  ctx: Context,
  target: Target,
  shared: StageShared,
  p: string,
): Protection | null {
  if (!config.pathProtection.length) return null;
  if (target.replaces || target.built || target.write || target.unseen) return null;
  if (target.kind === "cwd" && !shared.readsCwd) return null;
  const reads = shared.storeReads();
  if (reads === null) return null;
  const whole = reads === "trees";
  if (STORE_WORDS.test(p)) {
    const held = storeHeld(p, ctx.fs, whole);
    if (held === null) return null;
    const there = namesMatching(() => held.names);
    return protectionBelow(config, held.dir, ctx.home, null, { write: false, there });
  }
  if (!whole) return null;
  // (Asked only where a path glob may lie below: the tree is looked at then.)
  let held: StoreHeld | null | undefined;
  const there = (name: RegExp, folded: boolean) => {
    held ??= storeHeld(p, ctx.fs, true);
    return held !== null && namesMatching(() => held!.names)(name, folded);
  };
  return protectionBelow(config, p, ctx.home, null, { write: false, there });
}

/**
 * Whether each of `words` names a commit (or a tag of one) in the repository at `top`, as it is
 * when the stage runs: no other stage of the command may change its refs or objects first. Where
 * its objects cannot be read here (a partial clone, SHA-256 names), HEAD and a name with `~n` or
 * `^n` after it (which git reads only on a commit) alone; where no repository is found here (git
 * may find one through the environment), any but an object's name and a name with `@{…}` or a
 * peeling `^{…}`.
 */
function namesCommits(
  words: Word[],
  top: string | null,
  ctx: Context,
  shared: StageShared,
): boolean {
  const repo = top === null ? null : openRepository(top, ctx.fs, { home: ctx.home, env: ctx.env });
  if (repo !== null && !shared.settled(repo.commonDir, true)) return false;
  return words.every((w) => {
    if (w.kind !== "static") return false;
    if (repo !== null) return resolveCommit(repo, w.value) !== null;
    if (top !== null) return /^(HEAD|@)$|[~^]\d*$/.test(w.value) && shared.settled(top, true);
    return !/^[0-9a-f]{4,64}$|[@^]\{/i.test(w.value);
  });
}

/**
 * Whether a name of a file below `dir` that git does not ignore matches (see `unignoredNames`),
 * or null where that is not known, or another stage of the command may change what git ignores
 * first (a `.gitignore`, the excludes file, a config file).
 */
function unignoredBelow(
  top: string,
  dir: string,
  gitDir: string,
  ctx: Context,
  shared: StageShared,
): ((component: RegExp, folded: boolean) => boolean) | null {
  const found = unignoredNames(top, dir, gitDir, ctx.fs, ctx.home, ctx.env);
  if (found === null || !found.watched.every((f) => shared.settled(f, true))) return null;
  return namesMatching(() => found.names);
}

/**
 * The paths (from the work tree's top) the stages of the command that may change the index at
 * `gitDir` before this one add to it (see `indexAdditions`); null where that is not known.
 */
function addedFirst(
  shared: StageShared,
  gitDir: string,
  top: string,
  ctx: Context,
): string[] | null {
  const changers = shared.changers(gitDir);
  if (changers === null) return null;
  const kind = (p: string) =>
    (ctx.fs.isDirectory?.(p) ?? true) ? "directory" : ctx.fs.exists(p) ? "file" : "none";
  const out: string[] = [];
  for (const stage of changers) {
    const paths = indexAdditions(stage, kind);
    if (paths === null) return null;
    for (const p of paths) {
      const name = relative(top, p);
      if (name === "" || name.startsWith("..") || isAbsolute(name)) return null;
      out.push(name);
    }
  }
  return out;
}

/** Whether a name lies below `dir` as the filesystem shows it (see `BelowOptions.present`). */
function presentBelow(
  dir: string,
  fs: Context["fs"],
): (component: RegExp, folded: boolean) => boolean {
  return namesMatching(() => namesBelow(dir, fs));
}

/**
 * Whether a name a component glob matches is among `names()` (null: any may be), answered once
 * per glob (asked for each path a target reaches and each name glob).
 */
function namesMatching(
  names: () => readonly string[] | null,
): (component: RegExp, folded: boolean) => boolean {
  const answers = new Map<RegExp, boolean>();
  return (component, folded) => {
    let known = answers.get(component);
    if (known === undefined) {
      const list = names();
      known = list === null || list.some((n) => component.test(folded ? n.toLowerCase() : n));
      answers.set(component, known);
    }
    return known;
  };
}

/**
 * How protection below a listed tree no stage changes first sees what is there (`tracked`: the
 * paths the index lists, `git ls-files`; see `indexedBelow`).
 */
function listedThere(
  dir: string,
  ctx: Context,
  writes: () => boolean,
  shared: StageShared,
  tracked: boolean,
): Pick<BelowOptions, "present" | "there"> {
  const present = (tracked ? indexedBelow(dir, ctx, shared) : null) ??
    presentBelow(dir, ctx.fs);
  // (Where the stage only reads them, or only removes them, the listed paths are what is
  // there: a path glob, `secrets/**`, counts where a name it ends in is. One that writes may
  // make a name there as the listing goes.)
  return {
    present,
    there: (name, folded) => (writes() && !shared.removes()) || present(name, folded),
  };
}

/** The environment that has git read another repository, work tree or index. */
const GIT_PLACES = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR"];

/**
 * Whether a name lies below `dir` at or below a path the index lists (what `git ls-files` lists
 * reaches: a tracked file, a submodule's tree, a tracked name that is a directory now), with what
 * the stages before may add to it (`git add .env && git ls-files`); null where that is not known
 * (no repository, an index that cannot be read, git told of another, more than the walk's
 * bounds).
 */
function indexedBelow(
  dir: string,
  ctx: Context,
  shared: StageShared,
): ((component: RegExp, folded: boolean) => boolean) | null {
  if (GIT_PLACES.some((v) => ctx.env[v] !== undefined)) return null;
  // (Read once a name glob asks; where it is not known, the names there are.)
  let known: ((component: RegExp, folded: boolean) => boolean) | undefined;
  return (component, folded) =>
    (known ??= indexedNames(dir, ctx, shared) ?? presentBelow(dir, ctx.fs))(component, folded);
}

/** The names `indexedBelow` finds, or null where they are not known. */
function indexedNames(
  dir: string,
  ctx: Context,
  shared: StageShared,
): ((component: RegExp, folded: boolean) => boolean) | null {
  const top = workTreeTop(dir, ctx.fs);
  const gitDir = top === null ? null : gitDirOf(top, ctx.fs);
  const paths = gitDir === null ? null : trackedPaths(gitDir, ctx.fs);
  const added = paths === null ? null : addedFirst(shared, gitDir!, top!, ctx);
  if (added === null) return null;
  const prefix = relative(top!, dir);
  if (prefix.startsWith("..") || isAbsolute(prefix)) return null;
  const all = added.length ? [...paths!, ...added] : paths!;
  const names = [...trackedNames(all, prefix ? `${prefix}/` : "")];
  const inside = directoriesListed(top!, prefix, all, ctx.fs);
  if (inside === null) return null;
  for (const d of inside) {
    const below = namesBelow(d, ctx.fs);
    if (below === null) return null;
    names.push(...below);
  }
  return namesMatching(() => names);
}

/** The most directories `directoriesListed` reads. */
const LISTED_DIRECTORIES = 1024;

/**
 * The paths the index lists below `prefix` (from the top) that are directories now (a submodule,
 * a tracked file a directory took the place of): what lies below them is listed too. The
 * directories the index's paths lie in are read, not others; null past the bound.
 */
function directoriesListed(
  top: string,
  prefix: string,
  paths: readonly string[],
  fs: Context["fs"],
): string[] | null {
  if (!fs.entries) return null;
  const index = new Set(paths);
  const dirs = new Set<string>();
  for (const p of paths) {
    for (let at = p.indexOf("/"); at > 0; at = p.indexOf("/", at + 1)) dirs.add(p.slice(0, at));
  }
  const out: string[] = [];
  const queue = [prefix];
  for (let at = 0; at < queue.length; at++) {
    if (at >= LISTED_DIRECTORIES) return null;
    const rel = queue[at];
    const path = rel ? `${top}/${rel}` : top;
    const listing = fs.entries(path);
    // (A directory inside that cannot be listed hides a tracked name that is a directory now.)
    if (!listing) {
      if (at > 0 || fs.isDirectory?.(path) === true) return null;
      continue;
    }
    for (const e of listing) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (index.has(path) && e.dir) out.push(`${top}/${path}`);
      else if (e.dir && dirs.has(path)) queue.push(path);
    }
  }
  return out;
}

/** The last path component of a word (`~/.ssh/*` -> `*`). */
function lastComponent(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}
