/**
 * The remotes git's settings name (git-push(1), git-fetch(1), git-config(1)): `git push origin`,
 * `git push` (the branch's `pushRemote`, `remote.pushDefault`, its `remote`, else `origin`), `git
 * fetch`/`pull`/`ls-remote` (the branch's `remote`, else `origin`), `fetch --all`, a group
 * (`remotes.NAME`), `git remote update|show|prune|set-head -a`, `git archive --remote=NAME`,
 * each remote's `url`s (for a push its `pushurl`s) as `url.<base>.insteadOf` and
 * `pushInsteadOf` rewrite them; and a URL the command line gives, as the config files rewrite it.
 * Where one is on this machine (a local path, `file://`, a host that may be this one, an `ext::`
 * command where the `ext` transport is allowed) or not known, the stage is judged once more with
 * the URL written out (`git push /home/u/.ssh`); a push into a repository on this machine other
 * than the stage's own runs that repository's hooks (`receive-pack`): a command not known, as
 * another repository's settings are (`git_repositories.ts`). A remote elsewhere adds nothing.
 * The settings are those of git's config files (`git_config_files.ts`), of the command's `-c`, and of
 * the stages before that change them (`git_remote_changes.ts`).
 *
 * @module
 */
import { resolve } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import { gitSubcommand } from "../programs/git.ts";
import { gitSshHost, operandWords, settingsOf, VALUED } from "../programs/git_checkouts.ts";
import { gitCwds } from "../programs/git_external.ts";
import { gitRemote, remoteFile } from "../programs/remote_operands.ts";
import { literal, unknownWord } from "../programs/words.ts";
import type { Context } from "../types.ts";
import { commonDirOf, gitConfig } from "./git_config_files.ts";
import { gitDirOf, workTreeTop } from "./git_index.ts";
import { type Changes, settingChanges } from "./git_remote_changes.ts";
import { hereFile } from "./this_machine.ts";

/** What the command around a stage tells: which stages may change what the stage reads first. */
export interface RemoteLook {
  /**
   * The stages that may change `files` (git's settings, `HEAD`) before `stage` starts, git's in
   * order; null where another stage may change them in a way not followed (a file written).
   */
  before(stage: Stage, files: string[]): Stage[] | null;
  /** Whether another stage may change what is at or below `path` before `stage`. */
  disturbed(path: string, stage: Stage): boolean;
}

/** A setting as the remotes are read from it: `maybe` where it may or may not apply. */
interface Setting {
  key: string;
  /** Not known: null. */
  value: string | null;
  maybe: boolean;
}

/** What a stage asks of its remotes: a remote named or a URL, the default one, or all. */
type Ask =
  | { kind: "word"; word: string | null }
  | { kind: "url"; word: string | null }
  | { kind: "default" }
  | { kind: "all" }
  | { kind: "group"; word: string | null };

/** The remotes a stage contacts, and how (`push` writes there). */
interface Contact {
  sub: "push" | "fetch" | "ls-remote" | "archive";
  asks: Ask[];
}

/** `--NAME=V` or `--NAME V` among `args` (null: a value not known). */
function optionValue(args: Word[], name: string): string | null | undefined {
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    if (v === "--") return undefined;
    if (v === name) return args[i + 1]?.kind === "static" ? args[i + 1].value : null;
    if (v.startsWith(name + "=")) {
      return args[i].kind === "static" ? v.slice(name.length + 1) : null;
    }
  }
  return undefined;
}

/** A word's text, or null where it is not known. */
const text = (w: Word): string | null => (w.kind === "static" ? w.value : null);

/** What a git stage contacts (see `Contact`); null for none. */
function contactOf(argv: Word[], at: number): Contact | null {
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  const rest = argv.slice(at + 1);
  const flag = (re: RegExp) => rest.some((w) => w.kind === "static" && re.test(w.value));
  if (sub === "push") {
    const repo = optionValue(rest, "--repo");
    const [first] = operandWords(rest, VALUED.push);
    const word = first ? text(first) : repo;
    return { sub, asks: [word === undefined ? { kind: "default" } : { kind: "word", word }] };
  }
  if (sub === "fetch" || sub === "pull") {
    const ops = operandWords(rest, VALUED.fetch).map(text);
    if (flag(/^--all$/)) return { sub: "fetch", asks: [{ kind: "all" }] };
    if (sub === "fetch" && flag(/^--multiple$/)) {
      return { sub: "fetch", asks: ops.map((word) => ({ kind: "group", word })) };
    }
    if (!ops.length) return { sub: "fetch", asks: [{ kind: "default" }] };
    return { sub: "fetch", asks: [{ kind: "group", word: ops[0] }] };
  }
  if (sub === "ls-remote") {
    if (flag(/^--get-url$/)) return null;
    const [first] = operandWords(rest, VALUED["ls-remote"]);
    return { sub, asks: [first ? { kind: "word", word: text(first) } : { kind: "default" }] };
  }
  if (sub === "clone" || (sub === "submodule" && rest[0]?.value === "add")) {
    // (A URL alone, as the config files rewrite it.)
    const args = sub === "clone" ? rest : rest.slice(1);
    const [url] = operandWords(args, VALUED[sub]);
    return url ? { sub: "fetch", asks: [{ kind: "url", word: text(url) }] } : null;
  }
  if (sub === "archive") {
    const word = optionValue(rest, "--remote");
    return word === undefined ? null : { sub, asks: [{ kind: "word", word }] };
  }
  if (sub === "remote") return remoteContact(rest);
  return null;
}

/** `git remote update|show|prune|set-head -a|add -f`: the remotes they contact. */
function remoteContact(rest: Word[]): Contact | null {
  if (!rest.length) return null;
  const verb = rest[0].kind === "static" ? rest[0].value : null;
  const args = rest.slice(1);
  const ops = operandWords(args, new Set(["-t", "-m", "--mirror"])).map(text);
  const flags = args.filter((w) => w.value.startsWith("-")).map((w) => w.value);
  const dry = flags.some((f) => /^(-n|--dry-run)$/.test(f));
  if (verb === "update") {
    if (!ops.length) return { sub: "fetch", asks: [{ kind: "group", word: "default" }] };
    return { sub: "fetch", asks: ops.map((word) => ({ kind: "group", word })) };
  }
  if ((verb === "show" || verb === "prune") && !dry) {
    return { sub: "ls-remote", asks: ops.map((word) => ({ kind: "word", word })) };
  }
  if (verb === "set-head" && flags.some((f) => /^(-a|--auto)$/.test(f)) && ops.length) {
    return { sub: "ls-remote", asks: [{ kind: "word", word: ops[0] }] };
  }
  if (verb === "add" && flags.some((f) => /^(-f|--fetch)$/.test(f)) && ops.length > 1) {
    return { sub: "fetch", asks: [{ kind: "word", word: ops[1] }] };
  }
  if (verb === null) return { sub: "fetch", asks: [{ kind: "word", word: null }] };
  return null;
}

/** A remote name git looks up in its settings (`valid_remote_nick`): no `/`, not `.` or `..`. */
function nick(word: string): boolean {
  return word !== "" && word !== "." && word !== ".." && !word.includes("/");
}

/** The values a one-valued key may have: from its last sure setting on (none: `[]`). */
function lastValues(
  settings: Setting[],
  key: string,
): { values: (string | null)[]; sure: boolean } {
  const values: (string | null)[] = [];
  let sure = false;
  for (const s of settings) {
    if (s.key !== key) continue;
    if (!s.maybe) {
      values.length = 0;
      sure = true;
    }
    values.push(s.value);
  }
  return { values, sure };
}

/** The values a key of many values may have (a sure empty one clears those before it). */
function allValues(settings: Setting[], key: string): (string | null)[] {
  const out: (string | null)[] = [];
  for (const s of settings) {
    if (s.key !== key) continue;
    if (s.value === "" && !s.maybe) out.length = 0;
    else if (s.value !== "") out.push(s.value);
  }
  return out;
}

/**
 * A URL as `url.<base>.insteadOf` (for a push, `pushInsteadOf` first) may rewrite it: the longest
 * prefix's base, and each rewrite that may or may not apply beside it; null: not known.
 */
export function rewrites(settings: Setting[], url: string, push: boolean): (string | null)[] {
  const out: (string | null)[] = [];
  for (const kind of push ? ["pushinsteadof", "insteadof"] : ["insteadof"]) {
    let best: { base: string; prefix: string } | undefined;
    const maybes: { base: string; prefix: string }[] = [];
    for (const s of settings) {
      const m = /^url\.([\s\S]*)\.([a-z]+)$/.exec(s.key);
      if (!m || m[2] !== kind) continue;
      if (s.value === null) {
        out.push(null);
        continue;
      }
      if (!url.startsWith(s.value)) continue;
      const rule = { base: m[1], prefix: s.value };
      if (s.maybe) maybes.push(rule);
      else if (best === undefined || s.value.length > best.prefix.length) best = rule;
    }
    for (const r of maybes) {
      if (best === undefined || r.prefix.length >= best.prefix.length) {
        out.push(r.base + url.slice(r.prefix.length));
      }
    }
    if (best) {
      out.push(best.base + url.slice(best.prefix.length));
      // (For a push, `pushInsteadOf` gives a push URL beside the fetch URL `insteadOf` gives.)
      if (kind === "insteadof") return out;
    }
  }
  out.push(url);
  return out;
}

/** The names of the remotes the settings configure. */
function remoteNames(settings: Setting[]): string[] {
  const out = new Set<string>();
  for (const s of settings) {
    const m = /^remote\.([\s\S]*)\.(url|pushurl)$/.exec(s.key);
    if (m) out.add(m[1]);
  }
  return [...out];
}

/**
 * The remotes a push or fetch given none contacts (git-push(1) "remote.pushDefault", git-fetch(1)):
 * for each branch that may be checked out (null: any), its `pushRemote`, `remote.pushDefault`,
 * its `remote`, `origin`, each as far as a sure one.
 */
function defaultRemotes(
  settings: Setting[],
  branches: string[] | null,
  push: boolean,
  changes: Changes[],
): (string | null)[] {
  const out: (string | null)[] = [];
  const chain = (b: string | null) => {
    const keys = [
      ...(push && b !== null ? [`branch.${b}.pushremote`] : []),
      ...(push ? ["remote.pushdefault"] : []),
      ...(b !== null ? [`branch.${b}.remote`] : []),
    ];
    for (const key of keys) {
      const { values, sure } = lastValues(settings, key);
      out.push(...values);
      if (sure) return;
    }
    out.push("origin");
  };
  if (branches === null) {
    // (Any branch: each one the settings name, and each remote that may become an upstream.)
    const named = new Set<string>();
    for (const s of settings) {
      const m = /^branch\.([\s\S]*)\.(remote|pushremote)$/.exec(s.key);
      if (m) named.add(m[1]);
    }
    for (const b of named) chain(b);
    chain(null);
    out.push(...remoteNames(settings), ...changes.flatMap((c) => c.remotes));
  } else if (!branches.length) chain(null);
  else for (const b of branches) chain(b);
  return [...new Set(out)];
}

/** The branch `HEAD` names in `gitDir` (`[]`: detached), null where it cannot be read. */
function headBranches(gitDir: string, ctx: Context): string[] | null {
  const head = ctx.fs.readText?.(`${gitDir}/HEAD`, 4096) ?? null;
  if (head === null) return null;
  const m = /^ref: refs\/heads\/(.+?)\s*$/.exec(head);
  return m ? [m[1]] : [];
}

/** Where a stage's repository is: its work tree's top, its git and common directories. */
export interface Repository {
  top: string;
  gitDir: string;
  commonDir: string;
}

/**
 * The repository a stage works in; null for none (or one not known), undefined: not known. With
 * `found`, also where its work tree is moved elsewhere (see `gitCwds`): `top` is then the
 * directory holding its `.git`.
 */
export function repositoryOf(
  stage: Stage,
  at: number,
  ctx: Context,
  found = false,
): Repository | null | undefined {
  // (The cwd as written and where it really is: one repository, or not known.)
  const cwds = gitCwds(stage, at, found);
  if (cwds.includes(null)) return undefined;
  const tops = new Set(cwds.map((c) => workTreeTop(resolve(c!), ctx.fs)));
  if (tops.size !== 1) return undefined;
  const [top] = tops;
  if (top === null) return null;
  const gitDir = gitDirOf(top, ctx.fs);
  const commonDir = gitDir === null ? null : commonDirOf(gitDir, ctx.fs);
  return gitDir === null || commonDir === null ? undefined : { top, gitDir, commonDir };
}

/**
 * The environment git runs with: the tool's, and what the stage assigns (null: not known). Where
 * `loose`, a variable not known that says nothing of which config and attributes files git reads
 * (`GIT_EDITOR=$e`, `GIT_AUTHOR_DATE=$(date)`) is left out: read as unset, the settings it would
 * stand for are judged.
 */
export function gitEnv(
  stage: Stage,
  ctx: Context,
  loose = false,
): Record<string, string | undefined> | null {
  const env: Record<string, string | undefined> = { ...ctx.env };
  for (const a of stage.assignments ?? []) {
    const eq = a.value.indexOf("=");
    const name = a.value.slice(0, eq);
    if (!/^(GIT_|HOME$|XDG_CONFIG_HOME$)/.test(name)) continue;
    if (a.kind !== "static") {
      if (loose && !/^(GIT_(CONFIG|DIR|COMMON_DIR|WORK_TREE|ATTR)|HOME$|XDG_)/.test(name)) {
        delete env[name];
        continue;
      }
      return null;
    }
    env[name] = a.value.slice(eq + 1);
  }
  return env;
}

/**
 * The settings a stage reads its remotes by (see the module's notes), the branches that may be
 * checked out, and the changes of the stages before; null where they are not known.
 */
function settingsFor(
  stage: Stage,
  at: number,
  repo: Repository | null,
  ctx: Context,
  look: RemoteLook,
): { settings: Setting[]; branches: string[] | null; changes: Changes[] } | null {
  const env = gitEnv(stage, ctx);
  if (env === null) return null;
  const home = env.HOME ?? ctx.home;
  const config = gitConfig(repo?.gitDir ?? null, repo?.commonDir ?? null, ctx.fs, home, env);
  if (config === null) return null;
  const settings: Setting[] = config.settings.map((s) => ({
    key: s.key,
    value: s.value,
    maybe: s.conditional,
  }));
  const head = repo === null ? [] : [`${repo.gitDir}/HEAD`];
  const before = look.before(stage, [...config.files, ...head]);
  if (before === null) return null;
  const changes: Changes[] = [];
  for (const s of before) {
    const c = settingChanges(s);
    if (c === null) return null;
    changes.push(c);
    for (const x of c.settings) settings.push({ ...x, maybe: true });
  }
  for (const [key, value] of settingsOf(stage.argv, at)) {
    if (key === "") return null;
    settings.push({ key, value, maybe: false });
  }
  const moved = changes.some((c) => c.branches);
  const branches = repo === null ? [] : moved ? null : headBranches(repo.gitDir, ctx);
  return { settings, branches, changes };
}

/** Whether git's `ext` transport is allowed (protocol.ext.allow, protocol.allow, the variable). */
function extAllowed(settings: Setting[], env: Record<string, string | undefined>): boolean {
  const allow = env.GIT_ALLOW_PROTOCOL;
  if (allow !== undefined) return allow.split(":").includes("ext");
  const own = lastValues(settings, "protocol.ext.allow");
  const all = lastValues(settings, "protocol.allow");
  const values = own.values.length ? [...own.values, ...(own.sure ? [] : all.values)] : all.values;
  return values.some((v) => v === null || /^(always|user)$/i.test(v));
}

/** A URL's place: elsewhere, a path on this machine (null: not known), or a command git runs. */
type Place = { kind: "elsewhere" } | { kind: "here"; path: string | null } | { kind: "command" };

/**
 * Where a URL leads (git-clone(1) "GIT URLS"): `ext::` runs a command (where allowed), another
 * `<transport>::` or scheme a remote helper elsewhere, `file://` and a local path (`~` the home,
 * relative from `base`) here, an ssh URL here where its host (after the stage's ssh command)
 * may be this machine.
 */
function placeOf(
  url: string,
  base: string | null,
  stage: Stage,
  at: number,
  ctx: Context,
  ext: boolean,
): Place {
  if (/^ext::/i.test(url)) return ext ? { kind: "command" } : { kind: "elsewhere" };
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(url)) return { kind: "elsewhere" };
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url);
  if (scheme?.[1].toLowerCase() === "file") {
    // (`file:///x`, `file://host/x`: the path after the host.)
    const path = url.slice(7).replace(/^[^/]*/, "");
    return { kind: "here", path: path === "" || path.includes("%") ? null : path };
  }
  const r = gitRemote(url);
  if (r !== null) {
    if (r.daemon) return { kind: "elsewhere" };
    const ssh = gitSshHost(r.host, settingsOf(stage.argv, at), stage);
    const file = remoteFile({ ...r, host: ssh.host }, "", ssh.other ? null : r.user);
    const here = hereFile(file, ctx);
    return here === undefined ? { kind: "elsewhere" } : { kind: "here", path: here.path };
  }
  if (scheme) return { kind: "elsewhere" };
  const home = ctx.env.HOME ?? ctx.home;
  if (url === "~" || url.startsWith("~/")) return { kind: "here", path: home + url.slice(1) };
  if (url.startsWith("/")) return { kind: "here", path: url };
  return { kind: "here", path: base === null ? null : resolve(base, url) };
}

/**
 * The URLs a stage's remotes may have, each with whether it is written as the command gives it
 * (no setting names or rewrites it: judged as it stands already).
 */
function urlsOf(
  contact: Contact,
  s: { settings: Setting[]; branches: string[] | null; changes: Changes[] },
  legacy: (name: string) => boolean,
): { url: string | null; given: boolean }[] {
  const { settings } = s;
  const push = contact.sub === "push";
  const out: { url: string | null; given: boolean }[] = [];
  // (A remote's `vcs`: git runs `git-remote-<vcs>` given the URL; `ext`'s runs it as a command.)
  let helpers: (string | null | undefined)[] = [];
  const add = (url: string | null, given: boolean) => {
    for (const vcs of helpers.length ? helpers : [undefined]) {
      const u = vcs === undefined || url === null
        ? url
        : vcs === null
        ? null
        : vcs.toLowerCase() === "ext"
        ? `ext::${url}`
        : /^[A-Za-z][A-Za-z0-9+.-]*$/.test(vcs)
        ? `${vcs}::${url}`
        : null;
      if (!out.some((o) => o.url === u)) out.push({ url: u, given: given && u === url });
    }
  };
  const remote = (word: string | null) => {
    if (word === null) return add(null, false);
    helpers = [];
    if (nick(word)) {
      const vcs = lastValues(settings, `remote.${word}.vcs`);
      helpers = vcs.values.length && !vcs.sure ? [...vcs.values, undefined] : vcs.values;
      const urls = allValues(settings, `remote.${word}.url`);
      const pushurls = push ? allValues(settings, `remote.${word}.pushurl`) : [];
      if (urls.length || pushurls.length) {
        for (const u of [...urls, ...pushurls]) {
          if (u === null) add(null, false);
          // (A push URL is rewritten by `insteadOf` alone.)
          else for (const r of rewrites(settings, u, push && urls.includes(u))) add(r, false);
        }
        return;
      }
      // (A remote of the old files in the repository, `remotes/NAME`, `branches/NAME`.)
      if (legacy(word)) return add(null, false);
    }
    for (const r of rewrites(settings, word, push)) add(r, r === word);
  };
  for (const ask of contact.asks) {
    if (ask.kind === "word") remote(ask.word);
    else if (ask.kind === "url") {
      helpers = [];
      if (ask.word === null) continue;
      for (const r of rewrites(settings, ask.word, false)) add(r, r === ask.word);
    } else if (ask.kind === "default") {
      for (const name of defaultRemotes(settings, s.branches, push, s.changes)) remote(name);
    } else if (ask.kind === "all") { for (const name of remoteNames(settings)) remote(name); }
    else {
      const group = ask.word === null ? null : lastValues(settings, `remotes.${ask.word}`);
      if (group === null) remote(null);
      else if (group.values.length) {
        for (const v of group.values) for (const name of v?.split(/\s+/) ?? [null]) remote(name);
        if (!group.sure) remote(ask.word);
      } else if (ask.word === "default") {
        for (const name of remoteNames(settings)) remote(name);
      } else remote(ask.word);
    }
  }
  return out;
}

/**
 * The stages a git stage's remotes add (see the module's notes): each remote on this machine or
 * not known judged as the stage given its URL, and the hooks a push there runs.
 */
export function gitRemoteStages(stage: Stage, ctx: Context, look: RemoteLook): Stage[] {
  const argv = stage.argv;
  const at = gitSubcommand(argv);
  const contact = contactOf(argv, at);
  if (contact === null) return [];
  const origin = `${stage.origin} (git's remote)`;
  const judged = (word: Word): Stage => ({
    argv: [literal("git"), ...sshSettings(argv, at), literal(contact.sub), word],
    redirects: [],
    text: stage.text,
    origin,
    cwds: stage.cwds,
    assignments: stage.assignments,
  });
  const unknown = [judged(unknownWord("(the URL of a remote git's settings name)"))];
  const repo = repositoryOf(stage, at, ctx);
  if (repo === undefined) return unknown;
  // (Outside a repository, git contacts only a URL given: a push or fetch fails.)
  if (repo === null) {
    const given = contact.sub === "ls-remote" || contact.sub === "archive";
    contact.asks = contact.asks.filter((a) => a.kind === "url" || (given && a.kind === "word"));
    if (!contact.asks.length) return [];
  }
  const s = settingsFor(stage, at, repo, ctx, look);
  if (s === null) return unknown;
  const legacy = (name: string) =>
    repo !== null &&
    ["remotes", "branches"].some((d) => ctx.fs.exists(`${repo.commonDir}/${d}/${name}`));
  const env = gitEnv(stage, ctx) ?? ctx.env;
  const ext = extAllowed(s.settings, env);
  const out: Stage[] = [];
  for (const { url, given } of urlsOf(contact, s, legacy)) {
    if (url === null) {
      out.push(...unknown);
      continue;
    }
    const place = placeOf(url, repo?.top ?? gitCwds(stage, at)[0], stage, at, ctx, ext);
    if (place.kind === "elsewhere") continue;
    const own = place.kind === "here" && repo !== null && place.path !== null &&
      [repo.top, repo.gitDir, repo.commonDir].includes(resolve(place.path));
    if (own) continue;
    if (!given) {
      const word = place.kind === "here" && place.path !== null && gitRemote(url) === null &&
          !/^file:/i.test(url)
        ? literal(place.path)
        : literal(url);
      out.push(judged(word));
    }
    if (contact.sub === "push" && place.kind === "here") {
      const path = place.path;
      if (path !== null && !ctx.fs.exists(path) && !look.disturbed(path, stage)) continue;
      const hooks = unknownWord(`(what the hooks of the repository at ${path ?? url} run)`);
      out.push({ ...judged(hooks), argv: [literal("git"), hooks] });
    }
  }
  return out;
}

/** The `-c` settings of a stage's ssh command (`-c core.sshCommand=…`): the host it reaches. */
function sshSettings(argv: Word[], at: number): Word[] {
  const out: Word[] = [];
  for (let i = 1; i < at; i++) {
    if (argv[i].value === "-c" && /^core\.sshcommand=/i.test(argv[i + 1]?.value ?? "")) {
      out.push(argv[i], argv[i + 1]);
    }
  }
  return out;
}
