/**
 * Another repository's settings and hooks: git reads the config files of the repository it works
 * in, and a setting there can be a command (`core.fsmonitor`, `core.editor`, `diff.external`, a
 * filter, an alias) that `git status` or `git log` runs; its hooks run too. A stage that reaches
 * another repository by `git -C DIR` or `cd DIR && git …` has that repository's settings judged
 * as the project's are (git_configured.ts, and git.ts for its aliases: the files git reads for it,
 * `.git/config`, a linked work tree's `commondir` config and `config.worktree`, what they
 * include); this module says where that is not enough, and asks then: a hook of that repository
 * the subcommand may run (the project's own hooks, shared with its linked work trees, are the
 * user's, README "Known limits"), config of it that cannot be read whole, a bare repository, a
 * `.git` file that is no linked work tree's, `--git-dir`/`GIT_DIR`/`GIT_WORK_TREE`, or a
 * repository an earlier stage may make other than by a plain `git clone`/`git init` (git's
 * defaults and the user's templates: no hooks, no settings of its own) or a `git worktree add` of
 * the project's own repository.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import type { Stage } from "../shell/model.ts";
import { gitSubcommand } from "../programs/git.ts";
import { programOf } from "../programs/registry.ts";
import { literal, unknownWord } from "../programs/words.ts";
import type { Context } from "../types.ts";
import type { GlobScope } from "./glob_scope.ts";
import { commonDirOf, gitConfigParts } from "./git_config_files.ts";
import { HOOKS, runsNoHook } from "./git_configured.ts";
import { gitDirOf } from "./git_index.ts";
import { gitEnv } from "./git_remotes.ts";

/**
 * The top of the repository holding `dir`, or null: the nearest directory with a `.git`, or that
 * is a git directory itself (a bare repository, `git -C repo.git log`, whose config git reads as
 * well: its `core.pager` runs), as git looks (`.git` first, at each level). A `.git` directory is
 * its work tree's.
 */
function repositoryOf(dir: string, ctx: Context): string | null {
  for (let d = dir, n = 0; n < 64; n++) {
    const at = d === "/" ? "" : d;
    if (ctx.fs.exists(`${at}/.git`)) return d;
    if (gitDirectory(at, ctx)) return d.endsWith("/.git") ? dirname(d) : d;
    const up = dirname(d);
    if (up === d) return null;
    d = up;
  }
  return null;
}

/** Whether `dir` is itself a git directory, as git tells one: `HEAD`, `objects` and `refs`. */
function gitDirectory(dir: string, ctx: Context): boolean {
  return ctx.fs.exists(`${dir}/HEAD`) && ctx.fs.exists(`${dir}/objects`) &&
    ctx.fs.exists(`${dir}/refs`);
}

/** A repository's git directory and common directory, where it is a work tree's `.git`. */
interface GitDirs {
  gitDir: string;
  commonDir: string;
}

/**
 * The git directories of the work tree at `top`: its `.git` directory, or a linked work tree's
 * (`.git` a file naming `COMMON/worktrees/NAME`, whose `commondir` is COMMON, a work tree's
 * `.git` directory). Null for anything else (a bare repository, a submodule's or another `.git`
 * file, one that cannot be read).
 */
function workTreeDirs(top: string, ctx: Context): GitDirs | null {
  const dotGit = `${top === "/" ? "" : top}/.git`;
  const isDir = ctx.fs.isDirectory?.(dotGit);
  if (isDir === undefined) return null;
  const gitDir = gitDirOf(top, ctx.fs);
  const commonDir = gitDir === null ? null : commonDirOf(gitDir, ctx.fs);
  if (gitDir === null || commonDir === null) return null;
  if (isDir) return gitDir === commonDir ? { gitDir, commonDir } : null;
  const linked = dirname(gitDir) === `${commonDir}/worktrees` && commonDir.endsWith("/.git") &&
    ctx.fs.isDirectory?.(commonDir) === true;
  return linked ? { gitDir, commonDir } : null;
}

/** Options and variables that put git's repository or work tree elsewhere. */
const ELSEWHERE_OPTION = /^--(git-dir|work-tree|namespace)(=|$)/;
const ELSEWHERE_ENV = ["GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE"];

/**
 * Whether what git runs for `s` in the repository at `top` (not the project's) is seen: its
 * config read whole (judged by git_configured.ts and git.ts), and no hook of its own the
 * subcommand may run.
 */
function seen(s: Stage, top: string, ctx: Context, own: GitDirs | null): boolean {
  const at = gitSubcommand(s.argv);
  if (s.argv.slice(1, at).some((w) => w.kind !== "static" || ELSEWHERE_OPTION.test(w.value))) {
    return false;
  }
  const env = gitEnv(s, ctx, true);
  if (env === null || ELSEWHERE_ENV.some((k) => env[k] !== undefined)) return false;
  const dirs = workTreeDirs(top, ctx);
  if (dirs === null) return false;
  // (A linked work tree of the project's repository: its hooks and settings are the project's.)
  if (own !== null && dirs.commonDir === own.commonDir) return true;
  const home = env.HOME ?? ctx.home;
  const config = gitConfigParts(dirs.gitDir, dirs.commonDir, ctx.fs, home, env);
  if (config.unread.some((u) => u.repository)) return false;
  if (runsNoHook(s)) return true;
  // (The hooks directory: the last `core.hooksPath`, the user's own where it is not the
  // repository's; a relative one from the work tree's top.)
  const paths = config.settings.filter((x) => x.key === "core.hookspath");
  const last = paths[paths.length - 1];
  if (last && (!last.repository || last.conditional)) return !last.repository;
  const hooks = last
    ? (last.value.startsWith("~/") ? home + last.value.slice(1) : resolve(top, last.value))
    : `${dirs.commonDir}/hooks`;
  return !HOOKS.some((h) => ctx.fs.exists(`${hooks}/${h}`));
}

/** git's options that give a new repository settings, hooks or a git directory elsewhere. */
const MADE_OTHERWISE = /^(-c|--config|--template|--separate-git-dir|--config-env)(=|$)|^-c./;

/**
 * Whether each stage that may change `dir` before `s` makes a plain new repository there: `git
 * clone` or `git init` without settings or templates of their own, or `git worktree add` of the
 * project's repository (whose hooks and settings it shares).
 */
function madePlain(
  dir: string,
  s: Stage,
  ctx: Context,
  globs: () => GlobScope,
  ownTop: string | null,
): boolean {
  const changers = globs().changers(dir, s);
  return changers.length > 0 && changers.every((c) => {
    if (programOf(c.argv[0])?.names[0] !== "git" || c.assignments?.length) return false;
    if (c.argv.some((w) => w.kind !== "static" || MADE_OTHERWISE.test(w.value))) return false;
    const sub = c.argv[gitSubcommand(c.argv)]?.value;
    if (sub === "clone" || sub === "init") return true;
    const cwd = c.cwds.length === 1 ? c.cwds[0] : null;
    return sub === "worktree" && cwd !== null && ownTop !== null &&
      repositoryOf(cwd, ctx) === ownTop;
  });
}

/**
 * A stage for each git stage that works in a repository other than the one the tool's cwd is in
 * where what that repository has git run is not seen (see the module): asked about.
 */
export function otherRepositories(
  stages: Stage[],
  ctx: Context,
  globs: () => GlobScope,
): Stage[] {
  const out: Stage[] = [];
  let own: { top: string | null; dirs: GitDirs | null } | undefined;
  for (const s of stages) {
    if (!s.cwds.some((c) => c !== null && c !== ctx.cwd)) continue;
    if (programOf(s.argv[0])?.names[0] !== "git") continue;
    if (own === undefined) {
      const top = repositoryOf(ctx.cwd, ctx);
      own = { top, dirs: top === null ? null : workTreeDirs(top, ctx) };
    }
    for (const c of s.cwds) {
      if (c === null || c === ctx.cwd) continue;
      const repo = repositoryOf(c, ctx);
      if (repo === own.top) continue;
      // (No repository there now: one another stage may put there, `tar xzf r.tgz -C /tmp`.)
      if (repo === null && (!globs().disturbed(c, s) || madePlain(c, s, ctx, globs, own.top))) {
        continue;
      }
      // (A git directory another stage may write first, its config or hooks: not seen.)
      const settled = () => !globs().disturbed(`${repo === "/" ? "" : repo}/.git`, s);
      if (repo !== null && seen(s, repo, ctx, own.dirs) && settled()) continue;
      out.push({
        // (git, given what cannot be known: asked about, as a value not known is.)
        argv: [
          literal("git"),
          unknownWord(`(what the settings and hooks of the repository at ${repo ?? c} run)`),
        ],
        redirects: [],
        text: s.text,
        origin: `${s.origin} (another repository)`,
        cwds: [c],
      });
    }
  }
  return out;
}
