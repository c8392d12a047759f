/**
 * Where git reads the attributes of a stage (gitattributes(5)) beyond the files outside its work
 * tree (`git_attributes.ts`): the `.gitattributes` files of the work tree git uses (`--work-tree`,
 * `GIT_WORK_TREE`, `core.worktree`: not the directory holding `.git`), those its index holds (a
 * file deleted from the work tree only is still read: "when checking out, the index's
 * .gitattributes are used first"), and those of the trees of other commits it writes into the
 * work tree (`git checkout evil`, `merge`, `reset --hard`, `cherry-pick`, `restore --source`, a
 * stash; see `git_commits.ts`), archives (`git archive evil`) or checks out in a work tree it
 * makes (`git worktree add ../w evil`), at any depth: of a tree, those
 * that differ from the index's. Nothing is read until asked, only where the repository's config
 * defines a driver the stage runs. What cannot be read (an index or tree that cannot, a revision
 * not known, a repository another stage may change first) is not known (null).
 *
 * @module
 */
import { basename, resolve } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import type { FsFacts } from "../types.ts";
import { gitCwds } from "../programs/git_external.ts";
import { commitsWritten } from "../programs/git_commits.ts";
import type { ConfigSetting } from "./git_config_files.ts";
import type { Repository } from "./git_remotes.ts";
import { INDEX_LIMIT, indexEntries } from "./git_index.ts";
import { readObject } from "./git_objects.ts";
import {
  openRepository,
  refValue,
  type Repository as Opened,
  resolveTree,
} from "./git_revisions.ts";
import { type Budget, indexChanges, newBudget, treeEntries } from "./git_trees.ts";
import { treesWritten } from "./git_writes.ts";

/** Where git reads a stage's attributes (see the module's notes). */
export interface AttributeSources {
  /** The repository, `top` the top of the work tree git uses. */
  repo: Repository;
  /** Whether that work tree is known (a `--work-tree` that is not: false). */
  known: boolean;
  /** The texts of the attributes files of the index and of other commits; null: not known. */
  stored: () => string[] | null;
}

/** The largest attributes file read (a larger one is not known). */
const FILE_LIMIT = 256 * 1024;

/** What `stored` needs besides the stage. */
export interface SourceContext {
  fs: FsFacts;
  home: string;
  env: Record<string, string | undefined>;
  /** Whether no other stage may change what is below a directory (the repository's) first. */
  settled: (dir: string) => boolean;
}

/**
 * The work tree git's config or environment puts elsewhere than the directory holding `.git`:
 * `GIT_WORK_TREE` (from `cwd`), else `core.worktree` (from the git directory); null for none.
 */
export function configuredWorkTree(
  settings: readonly ConfigSetting[],
  repo: Repository,
  env: Record<string, string | undefined>,
  cwd: string | null,
): string | null {
  if (env.GIT_WORK_TREE) return resolve(cwd ?? repo.top, env.GIT_WORK_TREE);
  let tree: string | null = null;
  for (const { key, value, repository } of settings) {
    if (repository && key === "core.worktree") tree = resolve(repo.gitDir, value);
  }
  return tree;
}

/**
 * Where git reads the attributes of stage `s` (its subcommand at `at`) in repository `repo` (see
 * `repositoryOf` with `found`), its config's settings `settings`, environment `env`.
 */
export function attributeSources(
  s: Stage,
  at: number,
  settings: readonly ConfigSetting[],
  repo: Repository,
  ctx: SourceContext,
): AttributeSources {
  const cwd = gitCwds(s, at, true)[0] ?? null;
  // (`--work-tree` before the environment's and the config's; its last one.)
  let given: string | null | undefined;
  for (let i = 1; i < at; i++) {
    const w = s.argv[i];
    if (w.value.startsWith("--work-tree=")) {
      given = w.kind === "static" ? w.value.slice("--work-tree=".length) : null;
    } else if (w.value === "--work-tree") {
      const v = s.argv[++i];
      given = v?.kind === "static" ? v.value : null;
    }
  }
  const top = given === undefined
    ? configuredWorkTree(settings, repo, ctx.env, cwd) ?? repo.top
    : given === null || (cwd === null && !given.startsWith("/"))
    ? null
    : resolve(cwd ?? "/", given);
  let texts: string[] | null | undefined;
  const stored = () => {
    if (texts === undefined) texts = storedTexts(s, at, repo, cwd, ctx);
    return texts;
  };
  return { repo: { ...repo, top: top ?? repo.top }, known: top !== null, stored };
}

/** Whether an index's or tree's path is an attributes file. */
const isAttributes = (path: string) =>
  path === ".gitattributes" || path.endsWith("/.gitattributes");

/** The texts of the attributes files of the index and of the trees git reads (see the module). */
function storedTexts(
  s: Stage,
  at: number,
  repo: Repository,
  cwd: string | null,
  ctx: SourceContext,
): string[] | null {
  const opened = openRepository(repo.top, ctx.fs, ctx);
  if (opened === null) return null;
  const named = ctx.env.GIT_INDEX_FILE;
  // (A relative GIT_INDEX_FILE: not known.)
  if (named !== undefined && !named.startsWith("/")) return null;
  const file = named ?? `${repo.gitDir}/index`;
  const bytes = ctx.fs.readBytes?.(file, INDEX_LIMIT) ?? null;
  const index = bytes === null
    ? (ctx.fs.exists(file) ? null : { entries: [], tree: null })
    : indexEntries(bytes);
  if (index === null) return null;
  const texts: string[] = [];
  for (const e of index.entries) {
    if (!isAttributes(e.path)) continue;
    const text = blobText(opened, e.oid);
    if (text === null) return null;
    texts.push(text);
  }
  const trees = treesRead(s, at, opened, cwd, ctx);
  if (trees === null) return null;
  const budget = newBudget();
  for (const tree of trees) {
    const changed = new Set<string>();
    if (!indexChanges(opened.store, tree, index, budget, changed)) return null;
    for (const path of changed) {
      if (!isAttributes(path)) continue;
      const oid = entryAt(opened, tree, path, budget);
      const text = oid === undefined ? "" : oid === null ? null : blobText(opened, oid);
      if (text === null) return null;
      texts.push(text);
    }
  }
  return texts;
}

/**
 * The trees of other commits whose attributes stage `s` reads: those it writes files from, or
 * archives; null where one is not known.
 */
function treesRead(
  s: Stage,
  at: number,
  repo: Opened,
  cwd: string | null,
  ctx: SourceContext,
): string[] | null {
  const sub = s.argv[at]?.value;
  const args = s.argv.slice(at + 1);
  const rev = sub === "archive"
    ? archived(args)
    : sub === "worktree" && args[0]?.value === "add"
    ? checkedOut(repo, args.slice(1))
    : undefined;
  if (rev !== undefined) {
    const tree = rev === null ? null : resolveTree(repo, rev);
    return tree === null ? null : [tree];
  }
  if (sub === "archive" || sub === "worktree") return [];
  const out: string[] = [];
  for (const { commits } of commitsWritten(s.argv, at)) {
    if (!commits) continue;
    // (Another stage may change the repository first: `git fetch && git checkout FETCH_HEAD`.)
    if (cwd === null || !ctx.settled(repo.gitDir) || !ctx.settled(repo.commonDir)) return null;
    const trees = treesWritten(repo, commits, cwd);
    if (trees === null) return null;
    out.push(...trees.all, ...trees.untracked, ...trees.replayed.map(([, tree]) => tree));
  }
  return out;
}

/** `git archive`'s options that take the next word. */
const ARCHIVE_VALUED =
  /^(-o|--output|--format|--prefix|--exec|--add-file|--add-virtual-file|--mtime)$/;

/**
 * The tree-ish `git archive` archives (its first operand), null where that is not known;
 * undefined where it archives none of this repository (`--list`, `--remote`).
 */
function archived(args: Word[]): string | null | undefined {
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.kind !== "static") return null;
    if (/^(-l|--list|--remote(=.*)?)$/.test(w.value)) return undefined;
    if (w.value === "--") return args[i + 1]?.kind === "static" ? args[i + 1].value : null;
    if (ARCHIVE_VALUED.test(w.value)) i++;
    else if (!w.value.startsWith("-")) return w.value;
  }
  return null;
}

/** `git worktree add`'s options that take the next word. */
const ADD_VALUED = /^(-b|-B|--reason)$/;

/**
 * The commit `git worktree add` checks out in the work tree it makes (its second operand; none
 * given: the branch the path's last name names where there is one, else HEAD), null where that
 * is not known; undefined where it checks out none (`--no-checkout`).
 */
function checkedOut(repo: Opened, args: Word[]): string | null | undefined {
  const operands: string[] = [];
  let named = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.kind !== "static") return null;
    if (w.value === "--no-checkout") return undefined;
    if (w.value === "--guess-remote") return null;
    if (/^(-[bB]|--detach|--orphan)/.test(w.value)) named = true;
    if (w.value === "--") operands.push(...args.slice(i + 1).map((a) => a.value));
    if (w.value === "--") break;
    if (ADD_VALUED.test(w.value)) i++;
    else if (!w.value.startsWith("-")) operands.push(w.value);
  }
  if (operands.length > 1) return operands[1];
  const branch = `refs/heads/${basename(operands[0] ?? "")}`;
  return !named && operands.length === 1 && refValue(repo, branch) !== null ? branch : "HEAD";
}

/** The object of the entry at `path` in tree `tree`: undefined where there is none, null: not known. */
function entryAt(
  repo: Opened,
  tree: string,
  path: string,
  budget: Budget,
): string | null | undefined {
  let oid = tree;
  for (const name of path.split("/")) {
    const entries = treeEntries(repo.store, oid, budget);
    if (entries === null) return null;
    const e = entries.find((x) => x.name === name);
    if (e === undefined) return undefined;
    oid = e.oid;
  }
  return oid;
}

/** A blob's text, or null where it cannot be read (or is larger than an attributes file read). */
function blobText(repo: Opened, oid: string): string | null {
  const o = readObject(repo.store, oid);
  if (o?.type !== "blob" || o.data.length > FILE_LIMIT) return null;
  return new TextDecoder().decode(o.data);
}
