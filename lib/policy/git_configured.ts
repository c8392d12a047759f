/**
 * What git runs from its config files and hooks (git-config(1), githooks(5)) for the git stages of
 * a command. Where another stage of the command may write one of the config files git reads (a
 * redirect, `tee`, `sed -i`, `cp` over it: not a `git config` stage, whose settings git.ts judges
 * where they are made), or below its hooks directory (`echo … > .git/hooks/pre-commit`), each
 * git stage after it that may run them runs a command not known. Otherwise the command settings
 * of the repository's own files as they are (`.git/config`, its work tree's, what they include:
 * files another call may have written; the user's and the system's are the user's) are judged as
 * the same stage given them by `-c`, for the subcommands that run them: `core.fsmonitor` for those
 * that read the index, `core.editor` and `sequence.editor` for those that open an editor (not
 * `commit -m`, not where `GIT_EDITOR` is set), `core.sshCommand`, `credential.helper` and
 * `core.askPass` for those that reach a remote, `diff.external` for `git diff`, `gpg.program`
 * where a commit or tag is signed or a signature checked (`gpg.ssh.defaultKeyCommand` where one
 * is signed), `interactive.diffFilter` for `-p`, those of archive, imap-send and send-email, and
 * the filter, diff and merge drivers an attributes file names for the subcommands of their kind
 * (`git_attributes.ts`; an attributes file another stage writes first makes those of a kind the
 * config defines not known). A pager runs only where git's output is a terminal, which the
 * agent's commands have not.
 *
 * @module
 */
import { resolve } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import { gitSubcommand } from "../programs/git.ts";
import { settingsOf } from "../programs/git_checkouts.ts";
import { gitCwds } from "../programs/git_external.ts";
import { namesProgram } from "../programs/registry.ts";
import { literal, unknownWord } from "../programs/words.ts";
import type { Context } from "../types.ts";
import type { GlobScope } from "./glob_scope.ts";
import { type ConfigSetting, type GitConfig, gitConfigParts } from "./git_config_files.ts";
import { edits, editsSequence, signs } from "./git_configured_forms.ts";
import { gitEnv, type Repository, repositoryOf } from "./git_remotes.ts";
import {
  type AttributeSources,
  attributeSources,
  configuredWorkTree,
} from "./git_attribute_sources.ts";
import {
  attributesWrittenFirst,
  type DriverKind,
  driverOf,
  driversSelected,
  mayRunDriver,
  outerAttributeFiles,
  runsDriver,
} from "./git_attributes.ts";

/** Whether a stage runs git. */
function isGit(stage: Stage): boolean {
  return namesProgram(stage.argv[0], "git");
}

/** git's subcommands that neither read the index nor run a hook. */
// deno-fmt-ignore
const QUIET = new Set([
  "log", "show", "shortlog", "rev-list", "rev-parse", "config", "ls-remote", "help", "version",
  "var", "cat-file", "for-each-ref", "show-ref", "ls-tree", "name-rev", "merge-base",
  "count-objects", "verify-pack", "check-ref-format", "format-patch", "range-diff", "cherry",
  "whatchanged", "show-branch", "archive", "bundle", "get-tar-commit-id", "column", "stripspace",
  "hash-object", "credential",
]);

/**
 * Whether a git stage runs no hook (githooks(5)): its subcommand, named, neither reads the index
 * nor changes a ref (`log`, `show`, `rev-parse`; an alias may run any).
 */
export function runsNoHook(stage: Stage): boolean {
  const w = stage.argv[gitSubcommand(stage.argv)];
  return w?.kind === "static" && QUIET.has(SYNONYMS[w.value] ?? w.value);
}

/** The subcommands git runs under another name (git.c's commands: `stage` is `add`). */
const SYNONYMS: Record<string, string> = {
  stage: "add",
  pickaxe: "blame",
  "init-db": "init",
  "fsck-objects": "fsck",
  "merge-recursive-ours": "merge-recursive",
  "merge-recursive-theirs": "merge-recursive",
};

/** Of those, the ones that may run other settings (gpg, an editor, a transport's, a helper's). */
// deno-fmt-ignore
const SETTINGS_TOO = new Set([
  "log", "show", "whatchanged", "ls-remote", "credential", "config", "archive",
]);

/** Subcommands that reach a remote (their transport's settings: ssh, credentials, askpass). */
const TRANSPORT = new Set(["fetch", "pull", "push", "ls-remote", "remote", "submodule"]);

/** What a key's subcommand test is given: the words after it, the environment, the settings. */
type Runs = (
  sub: string,
  words: string[],
  env: Env,
  settings: ConfigSetting[],
  key: string,
) => boolean;

/** Whether a subcommand checks signatures and makes none (`verify-commit`, `log`, `tag -v`). */
function verifies(sub: string, words: string[]): boolean {
  return /^(verify-(commit|tag)|log|show|whatchanged)$/.test(sub) ||
    sub === "tag" && /^(-v|--verify|--verif|--veri)$/.test(words[0] ?? "");
}

/** The keys of settings that are commands (lower case), and the subcommands that run them. */
const KEYS: [RegExp, Runs][] = [
  [/^core\.fsmonitor$/, (sub) => !QUIET.has(sub)],
  [/^core\.editor$/, (sub, words, env, set) => !env("GIT_EDITOR") && edits(sub, words, set)],
  [
    /^sequence\.editor$/,
    (sub, words, env, set) => !env("GIT_SEQUENCE_EDITOR") && editsSequence(sub, words, set),
  ],
  [/^core\.sshcommand$/, (sub, _, env) => TRANSPORT.has(sub) && !env("GIT_SSH_COMMAND")],
  [
    /^credential\.(.+\.)?helper$/,
    (sub, words) => TRANSPORT.has(sub) || sub === "credential" && words[0] !== "capability",
  ],
  [/^core\.askpass$/, (sub, _, env) => TRANSPORT.has(sub) && !env("GIT_ASKPASS")],
  [
    /^diff\.external$/,
    (sub, words, env) =>
      !env("GIT_EXTERNAL_DIFF") &&
      ((sub === "diff" && !words.includes("--no-ext-diff")) || words.includes("--ext-diff")),
  ],
  [/^gpg\.(.+\.)?program$/, (sub, words, _, set) => signs(sub, words, set)],
  // (The key an ssh signature is made with where `user.signingKey` names none: signing only.)
  [
    /^gpg\.ssh\.defaultkeycommand$/,
    (sub, words, _, set) => !verifies(sub, words) && signs(sub, words, set),
  ],
  [/^core\.(alternaterefscommand|gitproxy)$/, (sub) => TRANSPORT.has(sub)],
  [/^tar\..+\.command$/, (sub) => sub === "archive"],
  [/^imap\.tunnel$/, (sub) => sub === "imap-send"],
  [
    /^sendemail\.(.+\.)?(tocmd|cccmd|headercmd|sendmailcmd|smtpserver)$/,
    (sub) => sub === "send-email",
  ],
  [/^browser\..+\.(cmd|path)$/, (sub) => /^(instaweb|web--browse)$/.test(sub)],
  [/^instaweb\.httpd$/, (sub) => sub === "instaweb"],
  [/^interactive\.difffilter$/, (sub, words) => patches(sub, words)],
  [
    /^trailer\..+\.(cmd|command)$/,
    (sub, words) =>
      sub === "interpret-trailers" || sub === "commit" && words.some((w) => /^--tr/.test(w)),
  ],
  [/^difftool\..+\.(cmd|path)$/, (sub) => sub === "difftool"],
  [/^mergetool\..+\.(cmd|path)$/, (sub) => sub === "mergetool" || sub === "difftool"],
  [
    /^remote\..+\.uploadpack$/,
    (sub, _, __, set, key) => sub !== "push" && TRANSPORT.has(sub) && localRemote(set, key),
  ],
  [/^remote\..+\.receivepack$/, (sub, _, __, set, key) => sub === "push" && localRemote(set, key)],
  [
    /^submodule\..+\.update$/,
    (sub, words) =>
      sub === "submodule" && words.includes("update") &&
      !words.some((w) => /^(--checkout|--rebase|--merge)$/.test(w)),
  ],
];

type Env = (name: string) => string | undefined;

/** Whether a subcommand with these words picks hunks interactively (`add -p`, `stash -p`). */
function patches(sub: string, words: string[]): boolean {
  const has = (re: RegExp) => words.some((w) => re.test(w));
  if (sub === "add" && has(/^(-i|--interactive)$/)) return true;
  if (sub === "commit" && has(/^--interactive$/)) return true;
  return /^(add|checkout|reset|restore|stash|commit)$/.test(sub) && has(/^(-p|--patch)$/);
}

/**
 * Whether the remote of a `remote.<name>.*` key has a URL on this machine (a path, `file://`),
 * where git runs its upload-pack or receive-pack locally through the shell (elsewhere, over ssh,
 * on the other host); so too where it has none (the name may be a path).
 */
function localRemote(settings: ConfigSetting[], key: string): boolean {
  const name = key.slice("remote.".length, key.lastIndexOf("."));
  const urls = settings.filter((s) =>
    s.key === `remote.${name}.url` || s.key === `remote.${name}.pushurl`
  );
  // (A URL of a scheme other than file, or scp's `host:path`: another machine.)
  const remote = (u: string) =>
    /^[a-z][a-z0-9+.-]*:\/\//i.test(u) ? !/^file:/i.test(u) : /^[^/]*:/.test(u);
  return !urls.length || urls.some((s) => !remote(s.value));
}

/**
 * The stages git runs from its config files and hooks for the command's git stages (see the
 * module's notes), each expanded by `expand` (given the stage it comes from).
 */
export function configuredPrograms(
  stages: readonly Stage[],
  ctx: Context,
  globs: () => GlobScope,
  expand: (s: Stage, from: Stage) => Stage[],
  tops?: ReadonlyMap<Stage, Stage>,
): Stage[] {
  const out: Stage[] = [];
  // (Most commands run no git: nothing is built for them.)
  if (!stages.some((s) => (s.argv[0]?.value ?? "").endsWith("git"))) return out;
  const read = new Map<string, GitConfig>();
  for (const s of stages) {
    const name = s.argv[0]?.value ?? "";
    if (!name.endsWith("git") || !isGit(s)) continue;
    const at = gitSubcommand(s.argv);
    const named = s.argv[at]?.kind === "static" ? s.argv[at].value : null;
    const sub = named === null ? null : SYNONYMS[named] ?? named;
    // (The history commands run a diff program or gpg only when asked to, a driver an attribute
    // selects where they show a diff.)
    const words = s.argv.slice(at + 1).map((w) => w.kind === "static" ? w.value : "");
    if (
      sub === null ||
      QUIET.has(sub) && !SETTINGS_TOO.has(sub) &&
        !s.argv.some((w) => /^--(ext-diff|show-signature)$/.test(w.value)) &&
        !mayRunDriver(sub, words)
    ) continue;
    // (A work tree `--work-tree` moves: the repository is found from the cwd still.)
    const repo = repositoryOf(s, at, ctx, true);
    if (repo === null || repo === undefined) continue;
    const env = gitEnv(s, ctx, true);
    const unknown = (what: string) =>
      out.push({
        ...s,
        argv: [literal("git"), unknownWord(what)],
        origin: `${s.origin} (git's config)`,
      });
    // (A repository's config file that cannot be read or resolved whole, or an environment
    // not known, may set any program; the user's files that cannot are the user's.)
    const config = env === null ? null : configOf(repo, env, ctx, read);
    if (config === null || config.unread.some((u) => u.repository)) {
      unknown("(what the repository's config files, not read whole, have git run)");
      continue;
    }
    const top = tops?.get(s) ?? s;
    if (writtenFirst(config, repo, s, top, globs, env!.HOME ?? ctx.home)) {
      unknown("(what git runs from its config files or hooks another stage writes first)");
      continue;
    }
    // (The drivers of a kind the config defines, where another stage may write an attributes
    // file first: not known.)
    // (The settings the command gives, `-c k=v` and `--config-env=k=VAR`, come last; a value not
    // known is on, and as from an `includeIf`, not sure.)
    const given = settingsOf(s.argv, at);
    const settings = given.length
      ? [...config.settings, ...given.map(givenSetting)]
      : config.settings;
    const options = s.argv.slice(1, at).map((w) => w.kind === "static" ? w.value : "");
    const settled = (d: string) => !globs().disturbed(d, top);
    const home = env!.HOME ?? ctx.home;
    // (Where the work tree is, from the files' settings: git does not take `-c core.worktree`.)
    const sources = attributeSources(s, at, config.settings, repo, { ...ctx, home, settled });
    const drivers = selectedDrivers(sources, settings, sub, words, options, env!, ctx);
    let chosen: Set<string> | undefined;
    if (drivers !== null) {
      if (attributesWrittenFirst(sources.repo, drivers.outer, s, top, globs(), ctx.fs)) {
        unknown("(the drivers attributes files another stage writes first select)");
      } else chosen = drivers.chosen;
    }
    // (The history commands read no work tree.)
    const moved = QUIET.has(sub) ? null : elsewhere(s, at, config.settings, repo, env!);
    if (moved) out.push(moved, ...expand(moved, s));
    out.push(...judged(s, at, sub, settings, env!, expand, chosen));
  }
  return out;
}

/** A setting the command gives as the config files' are (a value not known: on, not sure). */
function givenSetting([key, value]: [string, string | null]): ConfigSetting {
  return value === null
    ? { key, value: "true", conditional: true }
    : { key, value, conditional: false };
}

/**
 * The repository's driver settings the subcommand runs and an attributes file selects (see
 * `git_attributes.ts`), with the attributes files outside the work tree (null: not known, as
 * where git's options name others); null where the config defines none it runs.
 */
function selectedDrivers(
  sources: AttributeSources,
  settings: ConfigSetting[],
  sub: string,
  words: string[],
  options: string[],
  env: Record<string, string | undefined>,
  ctx: Context,
): { chosen: Set<string>; outer: string[] | null } | null {
  const byKind = new Map<DriverKind, Set<string>>();
  for (const { key, repository } of settings) {
    const driver = repository ? driverOf(key) : null;
    if (driver === null || !runsDriver(key, sub, words)) continue;
    byKind.set(driver.kind, (byKind.get(driver.kind) ?? new Set()).add(driver.name));
  }
  if (!byKind.size) return null;
  const { repo, known, stored } = sources;
  // (A setting the command gives that is not known at all may be `core.attributesFile`; with
  // `attr.tree`, attributes come from a tree.)
  const outer = !known || options.some((o) => /^--attr-source/.test(o)) ||
      settings.some((s) => s.key === "" || s.key === "attr.tree")
    ? null
    : outerAttributeFiles(repo, settings, env, env.HOME ?? ctx.home);
  const chosen = new Set<string>();
  for (const [kind, names] of byKind) {
    if (outer !== null && !driversSelected(repo, outer, kind, names, ctx.fs, stored)) continue;
    for (const n of names) chosen.add(`${kind}\0${n}`);
  }
  return { chosen, outer };
}

/**
 * The stage as git runs it where the repository's config (or the tool's `GIT_WORK_TREE`) puts its
 * work tree elsewhere than the directory holding `.git`: `core.worktree` (relative to the git
 * directory), judged as the same stage given `--work-tree=` that directory, whose files git reads
 * and writes (paths given from a cwd outside it are from its top). Null where it is that
 * directory (a submodule's `.git/modules/x/config` names its own).
 */
function elsewhere(
  s: Stage,
  at: number,
  settings: ConfigSetting[],
  repo: Repository,
  env: Record<string, string | undefined>,
): Stage | null {
  // (A `--work-tree` given: the stage is judged with it as it is.)
  if (s.argv.slice(1, at).some((w) => /^--work-tree(=|$)/.test(w.value))) return null;
  const cwds = gitCwds(s, at);
  const tree = configuredWorkTree(settings, repo, env, cwds[0]);
  if (tree === null || tree === repo.top) return null;
  // (git's own options but `-C`, whose move the cwds have made.)
  const own: Word[] = [];
  for (let i = 1; i < at; i++) {
    if (s.argv[i].value === "-C") i++;
    else own.push(s.argv[i]);
  }
  const argv = [s.argv[0], literal(`--work-tree=${tree}`), ...own, ...s.argv.slice(at)];
  const inside = (c: string | null) => c !== null && (c === tree || c.startsWith(`${tree}/`));
  return {
    ...s,
    argv,
    cwds: cwds.map((c) => inside(c) ? c : tree),
    origin: `${s.origin} (git's config)`,
  };
}

/** The settings of a repository's config files, read once per decision. */
function configOf(
  repo: Repository,
  env: Record<string, string | undefined>,
  ctx: Context,
  read: Map<string, GitConfig>,
): GitConfig {
  const home = env.HOME ?? ctx.home;
  const key = `${repo.gitDir}\0${home}\0${
    Object.entries(env).filter(([k]) => k.startsWith("GIT_C") || k === "XDG_CONFIG_HOME").join()
  }`;
  if (!read.has(key)) {
    read.set(key, gitConfigParts(repo.gitDir, repo.commonDir, ctx.fs, home, env));
  }
  return read.get(key)!;
}

/**
 * Whether another stage that is no `git config` may write a config file git reads, or below its
 * hooks directory, before `stage` starts.
 */
function writtenFirst(
  config: GitConfig,
  repo: Repository,
  stage: Stage,
  top: Stage,
  globs: () => GlobScope,
  home: string,
): boolean {
  const g = globs();
  // (git's stages that change its settings are judged where they are made; one that writes by a
  // redirect counts.)
  const follows = (w: Stage) =>
    isGit(w) && !w.redirects.some((r) => r.kind === "write" && r.target !== null);
  for (const f of config.files) {
    const written = g.fileWritten(f, stage, top, follows);
    if (written === null || written.length) return true;
  }
  const paths = config.settings.filter((s) => s.key === "core.hookspath").map((s) => s.value);
  const hooks = paths.length ? paths[paths.length - 1] : `${repo.commonDir}/hooks`;
  // (A path setting: `~/` is the home directory; a relative one is from the work tree's top.)
  const dir = hooks.startsWith("~/") ? home + hooks.slice(1) : resolve(repo.top, hooks);
  return HOOKS.some((h) => {
    const written = g.fileWritten(`${dir}/${h}`, stage, top, follows);
    return written === null || written.length > 0;
  });
}

/** The hooks git runs (githooks(5)). */
// deno-fmt-ignore
export const HOOKS = [
  "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
  "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge",
  "pre-push", "pre-receive", "update", "proc-receive", "post-receive", "post-update",
  "reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite", "sendemail-validate",
  "fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist", "p4-post-changelist",
  "p4-pre-submit", "post-index-change",
];

/** The stage given each command setting of the repository's files its subcommand runs. */
function judged(
  s: Stage,
  at: number,
  sub: string,
  settings: ConfigSetting[],
  env: Record<string, string | undefined>,
  expand: (s: Stage, from: Stage) => Stage[],
  /** The drivers an attributes file selects (`filter\0lfs`); undefined: none is known. */
  chosen?: ReadonlySet<string>,
): Stage[] {
  const words = s.argv.slice(at + 1).map((w) => w.kind === "static" ? w.value : "");
  const variable: Env = (v) => env[v] || undefined;
  const given: Word[] = [];
  for (const { key, value, repository } of settings) {
    if (!repository) continue;
    // (A key's section and name are in lower case, its subsection as written: a driver's name is
    // compared with the attribute's value as it is, `filter=Leak` selecting `[filter "Leak"]`.)
    const k = key.toLowerCase();
    if (k === "core.fsmonitor" && /^(true|false|yes|no|on|off|1|0|)$/i.test(value)) continue;
    const driver = driverOf(key);
    if (driver !== null) {
      if (!chosen?.has(`${driver.kind}\0${driver.name}`) || !runsDriver(key, sub, words)) continue;
    } else if (
      !KEYS.some(([re, runs]) => re.test(k) && runs(sub, words, variable, settings, key))
    ) continue;
    given.push(literal("-c"), literal(`${key}=${value}`));
  }
  if (!given.length) return [];
  const argv = [...s.argv.slice(0, at), ...given, ...s.argv.slice(at)];
  const origin = `${s.origin} (git's config)`;
  // (What the settings run, not the stage again nor what it runs of its own.)
  return expand({ ...s, argv, origin }, s).filter((x) => x.argv !== argv && x.origin === "git -c");
}
