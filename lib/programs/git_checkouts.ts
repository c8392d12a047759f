/**
 * What git writes below a directory by names of its own (a repository's files, not named in the
 * command): `git clone URL [DIR]` (DIR defaults to the URL's last name), `git worktree add PATH`,
 * `git submodule add URL [PATH]`, `git read-tree -u --prefix=DIR/`. Each is a directory written
 * below (`NamedFile.below`): what is protected there may be replaced (`git clone URL .pi`).
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { checkoutDirectories } from "./git_checkouts.ts";
 * checkoutDirectories(["git", "clone", "https://x/repo.git"].map(literal), 1);
 * // [{ path: "repo", source: "git clone", below: true }]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { NamedFile } from "./spec.ts";
import { gitRemote, operandText, remoteFile } from "./remote_operands.ts";
import { commandWords, namesUser, sshCommandHost, sshProgramHost } from "./ssh_hosts.ts";

/** The options of each subcommand that take a value in the next word (the rest are flags). */
export const VALUED: Record<string, ReadonlySet<string>> = {
  clone: new Set([
    "-o",
    "--origin",
    "-b",
    "--branch",
    "-u",
    "--upload-pack",
    "--reference",
    "--reference-if-able",
    "--separate-git-dir",
    "--depth",
    "--shallow-since",
    "--shallow-exclude",
    "-c",
    "--config",
    "--filter",
    "--template",
    "-j",
    "--jobs",
    "--server-option",
    "--bundle-uri",
    "--revision",
  ]),
  worktree: new Set(["-b", "-B", "--reason", "--orphan"]),
  submodule: new Set(["-b", "--branch", "--name", "--reference", "--depth"]),
  // (fetch's and pull's; push's; ls-remote's.)
  // deno-fmt-ignore
  fetch: new Set(["--upload-pack", "--depth", "--deepen", "-j", "--jobs", "-o", "--server-option", "--negotiation-tip", "--shallow-since", "--shallow-exclude", "--refmap", "--filter", "-s", "--strategy", "-X", "--strategy-option", "--recurse-submodules-default"]),
  push: new Set(["--repo", "--receive-pack", "--exec", "-o", "--push-option"]),
  "ls-remote": new Set(["--upload-pack", "-o", "--server-option", "--sort"]),
};

/** The operands after the subcommand's words (`add`), past options and their values. */
function operands(args: Word[], valued: ReadonlySet<string>): (string | null)[] {
  return operandWords(args, valued).map((w) => (w.kind === "static" ? w.value : null));
}

/** The words of `operands`. */
export function operandWords(args: Word[], valued: ReadonlySet<string>): Word[] {
  const out: Word[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const v = w.kind === "static" ? w.value : null;
    if (!ended && v === "--") ended = true;
    else if (!ended && v !== null && v.startsWith("-") && v !== "-") {
      if (valued.has(v)) i++;
    } else out.push(w);
  }
  return out;
}

/** The name git gives a clone of URL: its last name, without `.git` (`x/repo.git` -> `repo`). */
export function cloneName(url: string): string | null {
  const name = url.replace(/\/+$/, "").replace(/\.git$/, "").split(/[/:]/).at(-1);
  return name ? name : null;
}

/** The directories git writes below by names of its own (see the module's notes). */
export function checkoutDirectories(argv: Word[], at: number): NamedFile[] {
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  const source = `git ${sub}`;
  const below = (path: string | null): NamedFile[] => [{ path, source, below: true }];
  if (sub === "clone") {
    const [url, dir] = operands(argv.slice(at + 1), VALUED.clone);
    if (dir !== undefined) return below(dir);
    return url === undefined ? [] : below(url === null ? null : cloneName(url));
  }
  const verb = argv[at + 1]?.value;
  if (sub === "worktree" && verb === "add") {
    const [path] = operands(argv.slice(at + 2), VALUED.worktree);
    return path === undefined ? [] : below(path);
  }
  if (sub === "submodule" && verb === "add") {
    const [url, path] = operands(argv.slice(at + 2), VALUED.submodule);
    if (path !== undefined) return below(path);
    return url === undefined ? [] : below(url === null ? null : cloneName(url));
  }
  if (sub === "read-tree" && argv.some((w) => w.value === "-u")) {
    for (let i = at + 1; i < argv.length; i++) {
      const v = argv[i].value;
      if (v.startsWith("--prefix=")) return below(argv[i].kind === "static" ? v.slice(9) : null);
      if (v === "--prefix") return below(argv[i + 1]?.kind === "static" ? argv[i + 1].value : null);
    }
  }
  return [];
}

/**
 * The settings a command gives git (`git -c k=v`, `git clone -c|--config k=v`), in the order
 * git applies them (clone's first: the command's `-c` win), each `[key, value]` with the key's
 * section and name in lower case; a value not known is null, and a setting not known at all is
 * `["", null]`.
 */
export function settingsOf(argv: Word[], at: number): [string, string | null][] {
  const out: [string, string | null][] = [];
  const add = (w: Word | undefined, cut = 0) => {
    if (w === undefined) return;
    const text = (w.kind === "static" ? w.value : w.prefix).slice(cut);
    const eq = text.indexOf("=");
    if (eq < 0) return w.kind === "static" ? undefined : out.push(["", null]);
    const name = text.slice(0, eq);
    const [first, last] = [name.indexOf("."), name.lastIndexOf(".")];
    // (The subsection between, `url.<base>.insteadOf`'s base, keeps its case.)
    const key = first === last ? name.toLowerCase() : name.slice(0, first + 1).toLowerCase() +
      name.slice(first + 1, last) + name.slice(last).toLowerCase();
    out.push([key, w.kind === "static" ? text.slice(eq + 1) : null]);
  };
  if (argv[at]?.value === "clone") {
    const args = argv.slice(at + 1);
    for (let i = 0; i < args.length && args[i].value !== "--"; i++) {
      const v = args[i].value;
      if (v === "-c" || v === "--config") add(args[++i]);
      else if (v.startsWith("--config=")) add(args[i], 9);
      else if (VALUED.clone.has(v)) i++;
    }
  }
  // (`--config-env=KEY=VAR`, or its two words: its value is the variable's, not known here.)
  const fromEnv = (w: Word | undefined, cut = 0) => {
    const before = out.length;
    add(w, cut);
    if (out.length > before) out[out.length - 1][1] = null;
  };
  for (let i = 1; i < at; i++) {
    const v = argv[i].value;
    if (v === "-c") add(argv[++i]);
    else if (v === "--config-env") fromEnv(argv[++i]);
    else if (v.startsWith("--config-env=")) fromEnv(argv[i], 13);
  }
  return out;
}

/**
 * A URL as the settings' `url.<base>.insteadOf` (for push, `pushInsteadOf` first) rewrite it:
 * the longest prefix wins; null where a rewrite is not known (a setting or value not known).
 */
function rewritten(url: string, settings: [string, string | null][], push: boolean): string | null {
  const rewrite = (kind: string): string | null | undefined => {
    let best: [string, string] | undefined;
    for (const [key, value] of settings) {
      if (key === "") return null;
      const m = /^url\.([\s\S]*)\.([a-z]+)$/.exec(key);
      if (!m || m[2] !== kind) continue;
      if (value === null) return null;
      if (url.startsWith(value) && (best === undefined || value.length > best[1].length)) {
        best = [m[1], value];
      }
    }
    return best && best[0] + url.slice(best[1].length);
  };
  const pushed = push ? rewrite("pushinsteadof") : undefined;
  if (pushed !== undefined) return pushed;
  const plain = rewrite("insteadof");
  return plain === undefined ? url : plain;
}

/**
 * The host git's ssh reaches for a URL on `host`: its ssh command (`GIT_SSH_COMMAND` set before
 * it, else `core.sshCommand`, else `GIT_SSH`, a program) with its options read (`ssh_hosts.ts`);
 * and whether that command may log in as another user (`-l`, `User`).
 */
export function gitSshHost(
  host: string,
  settings: [string, string | null][],
  stage?: Stage,
): { host: string; other: boolean } {
  let command: string | null | undefined;
  let program: string | null | undefined;
  for (const a of stage?.assignments ?? []) {
    const m = /^(GIT_SSH_COMMAND|GIT_SSH)=([\s\S]*)$/.exec(a.value);
    const value = m && a.kind === "static" ? m[2] : null;
    if (m?.[1] === "GIT_SSH") program = value;
    else if (m) command = value;
  }
  if (command === undefined) {
    for (const [key, value] of settings) {
      if (key === "" || key === "core.sshcommand") command = value;
    }
  }
  if (command === undefined) {
    return { host: program === undefined ? host : sshProgramHost(program, host), other: false };
  }
  const words = command === null ? null : commandWords(command);
  if (words === null) return { host: "", other: true };
  return { host: sshCommandHost(words, host), other: namesUser(command!) };
}

/**
 * The repository a command names on a machine reached by ssh (`git clone localhost:repo`, `git
 * push ssh://127.1/~/x`, `git archive --remote=host:x`), as the command's settings rewrite its
 * URL and its ssh command reaches the host: read there, written below by `push` (a file of this
 * machine where the host may be it: `NamedFile.on`).
 */
export function remoteRepositories(argv: Word[], at: number, stage?: Stage): NamedFile[] {
  const sub = argv[at]?.kind === "static" ? argv[at].value : "";
  const args = argv.slice(at + 1);
  let url: Word | undefined;
  if (sub === "clone") url = operandWords(args, VALUED.clone)[0];
  else if (sub === "submodule" && args[0]?.value === "add") {
    url = operandWords(args.slice(1), VALUED.submodule)[0];
  } else if (sub === "fetch" || sub === "pull") url = operandWords(args, VALUED.fetch)[0];
  else if (sub === "push" || sub === "ls-remote") url = operandWords(args, VALUED[sub])[0];
  else if (sub === "archive") {
    const i = args.findIndex((w) => /^--remote(=|$)/.test(w.value));
    url = i < 0 ? undefined : args[i].value === "--remote" ? args[i + 1] : {
      ...args[i],
      value: args[i].value.slice(9),
      prefix: args[i].prefix.slice(9),
    };
  }
  const text = url === undefined ? null : operandText(url);
  if (text === null) return [];
  const settings = settingsOf(argv, at);
  const written = settings.length ? rewritten(text, settings, sub === "push") : text;
  const source = `git ${sub}`;
  const below = sub === "push";
  // (A rewrite not known may make it any URL, this machine's too.)
  if (written === null) return [{ path: null, source, on: { host: "", user: null }, below }];
  const r = gitRemote(written);
  if (r === null || r.daemon) return [];
  const ssh = gitSshHost(r.host, settings, stage);
  return [remoteFile({ ...r, host: ssh.host }, source, ssh.other ? null : r.user, { below })];
}

/** The files `checkoutDirectories` and `remoteRepositories` name. */
export function repositoryFiles(argv: Word[], at: number, stage?: Stage): NamedFile[] {
  const remote = remoteRepositories(argv, at, stage);
  const dirs = checkoutDirectories(argv, at);
  return remote.length ? [...dirs, ...remote] : dirs;
}
