/**
 * Operands that name a path on a machine reached by ssh or an rsync daemon, read as the programs
 * read them: OpenSSH's `[user@]host:path` (`[user@][::1]:path`; a `/` before the colon makes it
 * a local path, a leading colon too), scp's and sftp's `scp://[user@]host[:port][/path]` (the
 * path after the `/` is relative to the login's home, `//path` absolute, `%XX` decoded), rsync's
 * `host:path`, its daemon's `host::module/path` and `rsync://[user@]host[:port]/module/path`.
 * Which machine a host is, the policy says (`NamedFile.on`). A daemon's module (rsync's, git's
 * `git://`) is a name its configuration gives a directory: no path (git's, a repository served
 * as a web server serves its URLs; rsync's, on this machine a place not known: `ssh.ts`).
 *
 * @example
 * ```ts
 * import { sshOperand } from "./remote_operands.ts";
 * sshOperand("me@localhost:.ssh/id_rsa"); // { host: "localhost", user: "me", path: ".ssh/id_rsa" }
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import {
  commandWords,
  namesUser,
  optionsHost,
  SCP_OPTIONS,
  SFTP_OPTIONS,
  sshCommandHost,
} from "./ssh_hosts.ts";
import type { NamedFile } from "./spec.ts";

/** A path on a machine reached by ssh or an rsync daemon. */
export interface Remote {
  host: string;
  /** The user named (absent: none). */
  user?: string;
  /** The path there as written (relative: in the login's home); null: not known (a module). */
  path: string | null;
  /** A daemon's module (rsync's `host::module`, `rsync://`; git's `git://`), no path. */
  daemon?: true;
}

/** `host` without the brackets of an IPv6 address (OpenSSH's `cleanhostname`). */
function clean(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** `[user@]host` split at its last `@` (an empty user is none). */
function login(spec: string): { host: string; user?: string } {
  const at = spec.lastIndexOf("@");
  if (at < 0) return { host: clean(spec) };
  const user = spec.slice(0, at);
  return user === ""
    ? { host: clean(spec.slice(at + 1)) }
    : { host: clean(spec.slice(at + 1)), user };
}

/** `%XX` decoded; null where it does not decode. */
function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * A URI `SCHEME://[user@]host[:port][/path]` (any case): the path after the host's `/`, decoded
 * (`.` where none); null where the word is none.
 */
function uri(value: string, schemes: RegExp): Remote | null {
  const m = schemes.exec(value);
  if (!m) return null;
  const rest = value.slice(m[0].length);
  const slash = rest.indexOf("/");
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  const at = authority.lastIndexOf("@");
  const hostPort = authority.slice(at + 1);
  const host = hostPort.startsWith("[")
    ? hostPort.slice(0, hostPort.indexOf("]") + 1)
    : hostPort.replace(/:.*$/s, "");
  const user = at < 0 ? "" : decoded(authority.slice(0, at).replace(/;.*$/s, ""));
  const path = slash < 0 || slash === rest.length - 1 ? "." : decoded(rest.slice(slash + 1));
  const out: Remote = { host: clean(host), path };
  if (user === null) out.path = null;
  else if (user !== "") out.user = user;
  return out;
}

/**
 * Where OpenSSH's `colon()` finds the host's end: the first `:` (past a bracketed `[v6]`), none
 * where a `/` comes first or the word starts with one.
 */
function colon(value: string): number {
  if (value.startsWith(":")) return -1;
  let bracket = value.startsWith("[");
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "@" && value[i + 1] === "[") bracket = true;
    if (c === "]" && value[i + 1] === ":" && bracket) return i + 1;
    if (c === ":" && !bracket) return i;
    if (c === "/") return -1;
  }
  return -1;
}

const SSH_URI = /^(?:scp|sftp):\/\//i;

/** An operand of scp or sftp as a remote path (`host:path`, `scp://…`), or null: a local one. */
export function sshOperand(value: string): Remote | null {
  if (SSH_URI.test(value)) return uri(value, SSH_URI);
  const c = colon(value);
  if (c < 0) return null;
  return { ...login(value.slice(0, c)), path: value.slice(c + 1) || "." };
}

const RSYNC_URI = /^rsync:\/\//i;

/**
 * An operand of rsync as a remote path (`host:path`; a daemon's `host::module`, `rsync://…`,
 * whose paths are its modules', not known), or null: a local one.
 */
export function rsyncOperand(value: string): Remote | null {
  if (RSYNC_URI.test(value)) return { ...uri(value, RSYNC_URI)!, path: null, daemon: true };
  const c = colon(value);
  if (c < 0) return null;
  if (value[c + 1] === ":") return { ...login(value.slice(0, c)), path: null, daemon: true };
  return { ...login(value.slice(0, c)), path: value.slice(c + 1) || "." };
}

/** `%XX` decoded as git decodes a URL (`url_decode`): an escape that is none is left as it is. */
function gitDecoded(text: string): string {
  return text.replace(
    /%([0-9a-f]{2})/gi,
    (_, hex: string) => String.fromCharCode(parseInt(hex, 16)),
  );
}

/** Where git's `host_end` finds a host's end: its `]` where it is bracketed (`[h:22]`, `u@[::1]`). */
function bracketEnd(text: string): number {
  const at = text.indexOf("@[");
  const start = at < 0 ? 0 : at + 1;
  if (text[start] !== "[") return 0;
  const close = text.indexOf("]", start + 1);
  return close < 0 ? 0 : close;
}

/**
 * The login git has ssh make of a URL's host part: its brackets taken away (`[user@localhost:22]`
 * is `user@localhost` on port 22, `me@[::1]:22` is `me@::1`), a port cut (after the brackets, or
 * else after the first colon: digits only).
 */
function gitLogin(spec: string): { host: string; user?: string } {
  let s = spec;
  const end = bracketEnd(s);
  if (end > 0) {
    const open = s.indexOf("[");
    const after = s.slice(end + 1);
    s = s.slice(0, open) + s.slice(open + 1, end) + (/^:\d+$/.test(after) ? "" : after);
  }
  const colon = s.indexOf(":");
  if (colon >= 0 && /^\d+$/.test(s.slice(colon + 1))) s = s.slice(0, colon);
  return login(s);
}

const GIT_SSH_SCHEME = /^(?:ssh|git\+ssh|ssh\+git)$/i;

/**
 * A repository URL of git as a path on a machine reached by ssh (git-clone's "GIT URLS"), read as
 * git's `parse_connect_url` reads it: `ssh://[user@]host[:port]/path` (decoded first, `%2e` and
 * `%7e` too; absolute, `/~/x` and `/~user/x` in a home), `git+ssh://`, `ssh+git://`, the scp-like
 * `[user@]host:path` (no `/` before the first colon; `[user@host:22]:path` bracketed), and
 * `git://` (a daemon's paths, not known); null for another URL or a local path.
 */
export function gitRemote(url: string): Remote | null {
  const scheme = /^([a-z][\w+.-]*):\/\//i.exec(url);
  if (scheme) {
    const git = scheme[1].toLowerCase() === "git";
    if (!git && !GIT_SSH_SCHEME.test(scheme[1])) return null;
    const rest = gitDecoded(url.slice(scheme[0].length));
    const slash = rest.indexOf("/", bracketEnd(rest));
    // (No path: git stops.)
    if (slash < 0) return null;
    const at = gitLogin(rest.slice(0, slash));
    if (git) return { ...at, path: null, daemon: true };
    const path = rest.slice(slash);
    return { ...at, path: path[1] === "~" ? path.slice(1) : path };
  }
  const first = url.indexOf(":");
  const slash = url.indexOf("/");
  if (first < 0 || (slash >= 0 && slash < first)) return null;
  const c = url.indexOf(":", bracketEnd(url));
  return { ...gitLogin(url.slice(0, c)), path: url.slice(c + 1) || "." };
}

/**
 * rsync's remote shell: the value of its last `-e`/`--rsh` (`-ave CMD`, `--rsh=CMD`), else the
 * `RSYNC_RSH` the stage sets before it (`RSYNC_RSH='ssh -p 2' rsync …`); undefined for none (ssh
 * as it is), null for one not known.
 */
export function rsyncShell(argv: Word[], stage?: Stage): string | null | undefined {
  let shell: string | null | undefined;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    const v = w.kind === "static" ? w.value : w.prefix;
    if (v === "--") break;
    const m = /^-[a-zA-Z]*e(.*)$|^--rsh(?:=(.*))?$/s.exec(v);
    if (!m) continue;
    const glued = m[1] || m[2];
    if (w.kind !== "static") shell = null;
    else if (glued) shell = glued;
    else {
      const next = argv[++i];
      shell = next?.kind === "static" ? next.value : null;
    }
  }
  if (shell !== undefined) return shell;
  for (const a of stage?.assignments ?? []) {
    if (!a.value.startsWith("RSYNC_RSH=")) continue;
    shell = a.kind === "static" ? a.value.slice(10) : null;
  }
  return shell;
}

/**
 * The host a login reaches: the one the operand names, unless the options give another (scp's
 * and sftp's `-o HostName=127.1`, rsync's remote shell's: `ssh_hosts.ts`); "" for one not known
 * (a value not known, a proxy, a program other than ssh).
 */
export function optionHost(
  argv: Word[],
  host: string,
  program: "scp" | "sftp" | "rsync",
  stage?: Stage,
): string {
  if (program === "rsync") {
    const shell = rsyncShell(argv, stage);
    if (shell === undefined) return host;
    const words = shell === null ? null : commandWords(shell);
    return words === null ? "" : sshCommandHost(words, host);
  }
  const args = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  const grammar = program === "scp" ? SCP_OPTIONS : SFTP_OPTIONS;
  return optionsHost(args, grammar, host, { program: "-S", server: "-D" });
}

/**
 * The user a login is told to log in as by the options (scp's and sftp's `-o User=x`, `-oUser
 * x`; an `-l x` or `User` in rsync's remote shell), beside the one the operand names:
 * undefined for none, null where they differ or one is not known.
 */
export function optionUser(
  argv: Word[],
  named: string | undefined,
  rsync: boolean,
  stage?: Stage,
): string | null | undefined {
  if (rsync) {
    const shell = rsyncShell(argv, stage);
    if (shell === undefined) return named;
    return shell === null || namesUser(shell) ? null : named;
  }
  let user = named;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") {
      if (/^-[a-zA-Z]*o/.test(w.prefix)) return null;
      continue;
    }
    // (The value in a word of its own: `-o User=x`.)
    const v = /^-[a-zA-Z]*o$/.test(w.value) ? `-o ${argv[++i]?.value ?? ""}` : w.value;
    const set = /^-[a-zA-Z]*o\s*user\s*[=\s]\s*(\S+)/i.exec(v);
    if (!set) continue;
    if (user !== undefined && user !== set[1]) return null;
    user = set[1];
  }
  return user;
}

/**
 * The text of an operand as the remote side reads it: a glob's as written (bash leaves one that
 * matches nothing here, `[::1]:x`); one with a part not known, its known text and a `$` (a path
 * not known there); null for none.
 */
export function operandText(w: Word): string | null {
  return w.kind === "dynamic" ? (w.prefix.includes(":") ? w.prefix + "$" : null) : w.value;
}

/**
 * A remote path as a file of the machine it is on (see `NamedFile.on`). The other side expands
 * what it is given (a glob, rsync's and the old scp protocol's remote shell): a path with a glob
 * is written below its directory, one with `$` or a backquote is not known.
 */
export function remoteFile(
  r: Remote,
  source: string,
  user: string | null | undefined,
  extra?: Partial<NamedFile>,
): NamedFile {
  const on = { host: r.host, user };
  const path = r.path;
  if (path === null || /[$`]/.test(path)) return { ...extra, path: null, source, on };
  const glob = path.search(/[*?[{]/);
  if (glob < 0) return { ...extra, path, source, on };
  const dir = path.slice(0, path.lastIndexOf("/", glob) + 1) || ".";
  return { ...extra, path: dir, source, on, below: true };
}
