/**
 * git stages that write the index alone (`git add f`, `git rm --cached f`, `git update-index
 * --add f`): the index file and new objects, nothing a sequence under way replays (its todo, its
 * commits, its mails: state files and objects already there) nor what a ref names. Another stage
 * of such alone leaves a reading taken from the sequencer's state as it is (`git add -A && git
 * rebase --continue`), where that reading consults no index (`CommitsWritten.replays`, the paths
 * of `git am`'s mails); a reading that does (`git checkout REV`, `git merge X`: unpack-trees'
 * `twoway_merge` takes the current index entry for each path) is not.
 *
 * Such a stage is one of git's own, spelled so that nothing moves it (no `-c`, `--git-dir`,
 * `GIT_INDEX_FILE`, ...), of options that write nothing else (no `--cacheinfo`, `--index-info`,
 * `-p`, `-e`), in a repository whose own settings run no program as it writes the index (a clean
 * filter, the fsmonitor) and where no hook it may run is there (`post-index-change`).
 *
 * @example
 * ```ts
 * import { indexOnly } from "./git_index_only.ts";
 * // indexOnly(stage of `git add -A`, ctx) → true; of `git -c core.hooksPath=h add f` → false
 * ```
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { gitDirOf, workTreeTop } from "./git_index.ts";
import type { FsFacts } from "../types.ts";
import type { Stage } from "../shell/model.ts";
import { gitSubcommand } from "../programs/git.ts";
import { openRepository, type Repository } from "./git_revisions.ts";

/** git's own options before the subcommand that move nothing but the cwd (`-C`, done). */
export const PLAIN_GIT_OPTIONS = /^(--no-pager|-P|--no-optional-locks|--no-replace-objects)$/;

/**
 * The repository's settings that have git's subcommands that write files of commits run a program
 * or write elsewhere: a filter, a merge driver, the fsmonitor, hooks elsewhere, a work tree
 * elsewhere, submodules, signing.
 */
const RUNS_OR_MOVES =
  /^(filter\..*|merge\..*\.driver|core\.(fsmonitor|hookspath|worktree|editor)|sequence\.editor|submodule\..*|gpg\..*|commit\.gpgsign)$/;

/** The hooks git's subcommands that write files of commits may run (githooks(5)). */
// deno-fmt-ignore
const HOOKS_RUN = [
  "post-checkout", "post-merge", "pre-merge-commit", "prepare-commit-msg", "commit-msg",
  "post-commit", "reference-transaction", "post-rewrite", "pre-auto-gc", "post-index-change",
  "fsmonitor-watchman", "pre-rebase", "pre-commit",
];

/** What a stage is judged in: the filesystem, git's environment, the home. */
type Ctx = { fs: FsFacts; env: Record<string, string | undefined>; home: string };

/**
 * Whether the repository runs none of `hooks` (there, in its hooks directory: `core.hooksPath`'s
 * where set) and none of its own settings matches `settings` (false where they cannot be read).
 */
export function runsNone(
  repo: Repository,
  top: string,
  ctx: Ctx,
  settings: RegExp = RUNS_OR_MOVES,
  hooks: readonly string[] = HOOKS_RUN,
): boolean {
  const found = repo.config?.() ?? null;
  if (found === null || found.some((s) => s.repository && settings.test(s.key))) return false;
  const paths = found.filter((s) => s.key === "core.hookspath").map((s) => s.value);
  const path = paths.length ? paths[paths.length - 1] : `${repo.commonDir}/hooks`;
  const dir = path.startsWith("~/") ? ctx.home + path.slice(1) : resolve(top, path);
  return !hooks.some((h) => ctx.fs.exists(`${dir}/${h}`));
}

/** The settings that have `git add` (rm, update-index) run a program or write elsewhere. */
const INDEX_RUNS = /^(filter\..*|core\.(fsmonitor|hookspath|worktree|splitindex)|index\..*)$/;

/** The hooks they may run. */
const INDEX_HOOKS = ["post-index-change", "fsmonitor-watchman"];

/**
 * The environment that moves git's repository, index, objects or settings, or has it write a
 * file of its own (`GIT_TRACE=PATH`); a stage's own `GIT_*`, any.
 */
const MOVED =
  /^GIT_(DIR|WORK_TREE|INDEX_FILE|COMMON_DIR|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|CONFIG.*|TRACE.*)$/;

/** `git add`'s options that write the index alone (`-p`, `-i`, `-e` run more). */
const ADD_OPTIONS =
  /^(-[nvfuAN]+|--(dry-run|verbose|force|update|all|no-all|ignore-removal|no-ignore-removal|intent-to-add|refresh|ignore-errors|ignore-missing|sparse|renormalize|pathspec-file-nul)|--chmod=[+-]x|--pathspec-from-file=.+)$/;

/**
 * `git rm`'s options (with `--cached`: the index alone; without, it removes the work tree's files
 * too, through a directory there that may be a link into the git directory).
 */
const RM_OPTIONS =
  /^(-[rfqn]+|--(cached|force|quiet|dry-run|ignore-unmatch|sparse|pathspec-file-nul)|--pathspec-from-file=.+)$/;

/** `git update-index`'s options that write the index alone (not `--cacheinfo`, `--index-info`). */
const UPDATE_INDEX_OPTIONS =
  /^(-[qz]|--(add|remove|force-remove|replace|refresh|really-refresh|ignore-submodules|unmerged|ignore-missing|info-only|stdin|verbose|again|(no-)?(assume-unchanged|skip-worktree|fsmonitor-valid))|-g|--chmod=[+-]x)$/;

/**
 * Whether a stage is a git stage that writes the index alone (see the module), in the repository
 * it finds from each of its cwds.
 */
export function indexOnly(stage: Stage, ctx: Ctx): boolean {
  const { argv } = stage;
  const name = argv[0];
  if (name?.kind !== "static" || !/(^|\/)git$/.test(name.value)) return false;
  if (argv.some((w) => w.kind !== "static") || stage.assignments?.length) return false;
  if (Object.keys(ctx.env).some((k) => MOVED.test(k) && ctx.env[k] !== undefined)) return false;
  if ([...stage.handed?.keys() ?? [], ...stage.unknownVars ?? []].some((k) => /^GIT_/.test(k))) {
    return false;
  }
  const at = gitSubcommand(argv);
  if (argv.slice(1, at).some((w) => !PLAIN_GIT_OPTIONS.test(w.value))) return false;
  const sub = argv[at]?.value;
  const options = argv.slice(at + 1);
  const end = options.findIndex((w) => w.value === "--");
  const flags = (end < 0 ? options : options.slice(0, end)).map((w) => w.value)
    .filter((w) => w.startsWith("-"));
  const plain = sub === "add"
    ? flags.every((f) => ADD_OPTIONS.test(f))
    : sub === "rm"
    ? flags.includes("--cached") && flags.every((f) => RM_OPTIONS.test(f))
    : sub === "update-index"
    ? flags.every((f) => UPDATE_INDEX_OPTIONS.test(f))
    : false;
  if (!plain) return false;
  return stage.cwds.every((c) => {
    const top = c === null ? null : repositoryTop(c, ctx.fs);
    const repo = top === null ? null : openRepository(top, ctx.fs, ctx);
    return repo !== null && runsNone(repo, top!, ctx, INDEX_RUNS, INDEX_HOOKS);
  });
}

/**
 * Where a git stage that writes the index alone (`git add .`, `indexOnly`) writes: its
 * repository's index and objects, from each cwd; null where it is no such stage.
 */
export function indexAreas(
  stage: Stage,
  ctx: { fs: FsFacts; env: Record<string, string | undefined>; home: string },
): string[] | null {
  if (!indexOnly(stage, ctx)) return null;
  const areas: string[] = [];
  for (const c of stage.cwds) {
    const repo = openRepository(repositoryTop(c!, ctx.fs)!, ctx.fs, ctx);
    if (repo === null) return null;
    areas.push(`${repo.gitDir}/index`, `${repo.gitDir}/index.lock`, `${repo.commonDir}/objects`);
  }
  return areas;
}

/**
 * The top of the work tree git works in from `dir`: the nearest directory at or above it whose
 * `.git` is a repository (its HEAD a ref or an object name: git passes over one that is not, as
 * it fails on one it cannot read), or null where there is none.
 */
export function repositoryTop(dir: string, fs: FsFacts): string | null {
  for (let d: string | null = dir, n = 0; d !== null && n < 64; n++) {
    const top = workTreeTop(d, fs);
    if (top === null) return null;
    const git = gitDirOf(top, fs);
    if (git === null || !fs.readText) return top;
    const head = fs.readText(`${git}/HEAD`, 4096);
    if (head !== null && /^(ref: *refs\/|[0-9a-f]{40}\s*$)/.test(head)) return top;
    d = top === "/" ? null : dirname(top);
  }
  return null;
}
