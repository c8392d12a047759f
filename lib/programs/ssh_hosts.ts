/**
 * The host a connection by ssh reaches, as its options make it: the destination it is given,
 * unless `-o HostName=…` names another (the first one given wins, as ssh takes it), and a host
 * not known ("", which may be this machine) where a `ProxyCommand`, `ProxyJump` or `-J` makes
 * the connection go wherever that connects, where a value is not known or built from the name
 * (`%h`), where `CanonicalizeHostname` with `CanonicalDomains` makes it `HOST.DOMAIN`, or where the program that connects is not ssh (`-S ./myssh`, `GIT_SSH=./x`). The same
 * reading serves scp's and sftp's own options, and the ssh command lines other programs run
 * (rsync's `-e`/`RSYNC_RSH`, git's `core.sshCommand`/`GIT_SSH_COMMAND`, rclone's `ssh`).
 *
 * @example
 * ```ts
 * import { sshCommandHost } from "./ssh_hosts.ts";
 * sshCommandHost(["ssh", "-o", "HostName=127.1"], "evil"); // "127.1"
 * sshCommandHost(["ssh", "-J", "jump"], "evil"); // ""
 * sshCommandHost(["ssh", "-p", "2222"], "prod"); // "prod"
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { NamedFile } from "./spec.ts";

/** ssh's options (OpenSSH): the letters without a value, and those with one. */
export const SSH_OPTIONS: OptionGrammar = {
  flags: "46AaCfGgKkMNnqsTtVvXxYy",
  valued: "BbcDEeFIiJLlmOoPpRSWw",
};

/** scp's options (OpenSSH), and sftp's. */
export const SCP_OPTIONS: OptionGrammar = { flags: "346ABCdfOpqRrsTtv", valued: "cDFiJloPSX" };
export const SFTP_OPTIONS: OptionGrammar = { flags: "46AaCfNpqrv", valued: "BbcDFiJloPRSs" };

/**
 * The placeholder of the destination and command an ssh command line exported for later
 * programs is given (`export RSYNC_RSH='ssh -o HostName=127.1'`): where its options name the
 * host, what it reaches there is not known (see `givenConnection`).
 */
export const GIVEN_CONNECTION = "(the connection it is given)";

/**
 * What ssh given a connection not seen (`GIVEN_CONNECTION`) reaches: a file not known on the
 * host its options name (`-o HostName=127.1`, a proxy), none where they name none.
 */
export function givenConnection(argv: Word[]): NamedFile[] {
  const at = argv.findIndex((w) => w.kind === "static" && w.value === GIVEN_CONNECTION);
  if (at < 0) return [];
  const seen = argv.slice(1, at).map((w) => (w.kind === "static" ? w.value : null));
  const host = optionsHost(seen, SSH_OPTIONS, UNSEEN, { destination: true });
  if (host === UNSEEN) return [];
  const source = `(what ${argv[0].text} reaches there)`;
  return [{ path: null, source, on: { host, user: null } }];
}

/** The host `givenConnection` reads when the options name none. */
const UNSEEN = "\0";

/** What options say of the host: the first `HostName`, a proxy, a value not known. */
interface Reading {
  hostName?: string;
  /** `CanonicalizeHostname` (the first given), and whether `CanonicalDomains` names any. */
  canonicalize?: boolean;
  domains?: boolean;
  /** The connection goes where something else connects it, or a value is not known. */
  unknown: boolean;
}

/** An `-o Key=value` setting (`Key value`, `Key=value`; the key in any case), or null. */
function setting(text: string): [string, string] | null {
  const m = /^\s*([A-Za-z]+)\s*(?:=\s*|\s+)([\s\S]*?)\s*$/.exec(text);
  return m ? [m[1].toLowerCase(), m[2].replace(/^"([\s\S]*)"$/, "$1")] : null;
}

/** What one option of ssh (or scp, sftp) says of the host, into `r`. */
function readOption(name: string, value: string | null, r: Reading): void {
  if (name === "-J") {
    if (value === null || value !== "none") r.unknown = true;
    return;
  }
  if (name === "-F") {
    // (A configuration of its own may alias any host: `-F /dev/null` has none.)
    if (value !== "/dev/null" && value !== "none") r.unknown = true;
    return;
  }
  if (name !== "-o") return;
  const s = value === null ? null : setting(value);
  if (s === null) {
    r.unknown = true;
    return;
  }
  const [key, v] = s;
  if (key === "hostname") {
    if (r.hostName === undefined) r.hostName = /[%$`]/.test(v) ? "" : v;
  } else if (key === "canonicalizehostname") {
    r.canonicalize ??= /^(yes|always)$/i.test(v);
  } else if (key === "canonicaldomains") {
    r.domains ??= v.trim() !== "" && v.toLowerCase() !== "none";
  } else if ((key === "proxycommand" || key === "proxyjump") && v.toLowerCase() !== "none") {
    r.unknown = true;
  }
}

/**
 * The host the options among `args` (null: a word not known) make a connection to `host` reach,
 * read with `grammar`: "" where it is not known (see the module's notes). `destination`: the
 * first operand is the host (an ssh command line given none of its own keeps `host`); the
 * options end at the second (ssh's command). `program`: the valued letter that names the program
 * that connects in place of ssh (scp's and sftp's `-S`), and sftp's `-D` (a server run here).
 */
export function optionsHost(
  args: readonly (string | null)[],
  grammar: OptionGrammar,
  host: string,
  opts: { destination?: boolean; program?: string; server?: string } = {},
): string {
  const r: Reading = { unknown: false };
  let operands = 0;
  for (const t of readOptions(args as (string | null)[], grammar)) {
    if (t.kind === "end") continue;
    if (t.kind === "operand" || t.kind === "dynamic") {
      if (!opts.destination) continue;
      if (++operands === 2) break;
      const v = args[t.at];
      if (v === null) return "";
      host = destinationHost(v);
      continue;
    }
    if (t.kind === "unknown") return "";
    if (t.kind !== "valued") continue;
    const value = t.glued ?? (t.valueAt === undefined ? null : args[t.valueAt]);
    if (t.name === opts.server) return "";
    if (t.name === opts.program) {
      if (value === null || !/^(?:.*\/)?ssh$/.test(value)) return "";
      continue;
    }
    readOption(t.name, value, r);
  }
  // (Canonicalized, the host may be `HOST.DOMAIN` for each domain: not known, as one may be this
  // machine, `CanonicalDomains 127.0.0.1.nip.io`.)
  if (r.unknown || (r.canonicalize && r.domains)) return "";
  return r.hostName ?? host;
}

/** The host of an ssh destination (`[user@]host`, `ssh://[user@]host[:port]`). */
function destinationHost(v: string): string {
  const uri = /^ssh:\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/]*)/i.exec(v);
  const h = uri ? uri[1] : v.slice(v.lastIndexOf("@") + 1);
  return h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h;
}

/**
 * The words of a command line as a program splits it without a shell (rclone's space-separated
 * list, git's and rsync's simple lines): blanks separate, quotes group; null where a `$`, a
 * backquote or a backslash makes the reading uncertain.
 */
export function commandWords(text: string): string[] | null {
  if (/[$`\\]/.test(text)) return null;
  const out: string[] = [];
  for (const m of text.matchAll(/(?:"[^"]*"|'[^']*'|[^\s"'])+/g)) {
    out.push(m[0].replace(/"([^"]*)"|'([^']*)'/g, "$1$2"));
  }
  return out;
}

/** Programs that run ssh with options of their own first (`sshpass -p x ssh …`, `env X=1 ssh`). */
const SSH_WRAPPERS: Record<string, OptionGrammar> = {
  sshpass: { flags: "ehvV", valued: "dfpP" },
  env: { flags: "0iv", valued: "uCS" },
};

/**
 * The host an ssh command line (its words, null for one not known) reaches when the program that
 * runs it adds `host`: ssh's own options and destination read (see the module's notes); "" for
 * one not known, or a program that is not ssh (`-e 'nc -q0'`).
 */
export function sshCommandHost(words: readonly (string | null)[], host: string): string {
  let i = 0;
  for (;;) {
    const w = words[i];
    if (w === null || w === undefined) return "";
    const name = w.slice(w.lastIndexOf("/") + 1);
    if (/^(?:auto)?ssh$/.test(name)) break;
    const wrapper = SSH_WRAPPERS[name];
    if (!wrapper) return "";
    const rest = words.slice(i + 1);
    const first = readOptions(rest as (string | null)[], wrapper).find((t) =>
      t.kind !== "flag" && t.kind !== "valued" &&
      !(t.kind === "operand" && name === "env" && /^\w+=/.test(rest[t.at] ?? ""))
    );
    if (first === undefined || first.kind !== "operand") return "";
    i += 1 + first.at;
  }
  return optionsHost(words.slice(i + 1), SSH_OPTIONS, host, { destination: true });
}

/**
 * The host a program given as git's `GIT_SSH` reaches (a program, no options): ssh, plink and
 * TortoisePlink connect to the one git names; another program, to one not known ("").
 */
export function sshProgramHost(program: string | null, host: string): string {
  const name = program?.slice(program.lastIndexOf("/") + 1).toLowerCase() ?? "";
  return /^(?:ssh|plink|tortoiseplink|putty)(?:\.exe)?$/.test(name) ? host : "";
}

/**
 * Whether an ssh command line may log in as a user of its own choosing (`-l root`, `-lroot`,
 * `-o User=root`): its login is not known then.
 */
export function namesUser(line: string): boolean {
  return /(?:^|\s)-[a-zA-Z]*l|\buser\s*[=\s]/i.test(line);
}
