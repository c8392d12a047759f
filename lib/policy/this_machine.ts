/**
 * Which hosts are this machine, and the paths a remote operand names here: `scp
 * localhost:.ssh/id_rsa .` reads `~/.ssh/id_rsa`, as `cat ~/.ssh/id_rsa` does. A host is this
 * machine where it may be, as the resolver would find it: the loopback names (`localhost`,
 * `*.localhost`, `ip6-localhost`, …), any spelling of a loopback or unspecified address that
 * `getaddrinfo` takes (`127.1`, `2130706433`, `0x7f.1`, `0177.0.0.1`, `0`, `[::1]`,
 * `::ffff:127.0.0.1`), a name with one written in it (`127.0.0.1.nip.io`, `app-7f000001.nip.io`,
 * `--1.sslip.io`), the well-known names for 127.0.0.1 (`*.lvh.me`, `*.localtest.me`, …), the
 * machine's own name and addresses (`Context.machine`), the names `/etc/hosts` gives any of
 * those, and the ssh aliases whose `HostName` is one (`ssh_config.ts`).
 *
 * @example
 * ```ts
 * import { thisMachine } from "./this_machine.ts";
 * import { ctxIn } from "../testing.ts";
 * thisMachine("127.1", ctxIn("/p")); // true
 * thisMachine("prod", ctxIn("/p")); // false
 * ```
 *
 * @module
 */
import { hostname, networkInterfaces } from "node:os";
import type { NamedFile } from "../programs/spec.ts";
import type { Context, Machine } from "../types.ts";
import { sshAliases } from "./ssh_config.ts";

/**
 * The home directory of a user as a command finds it (see `Runner.home`): the one running it,
 * unnamed or named by `$USER` (`$LOGNAME`), has `$HOME`; any other user's is not known.
 */
export function homeOf(ctx: Context): (user: string | null) => string | null {
  const me = ctx.env.USER ?? ctx.env.LOGNAME;
  return (user) => (user === null || user === me ? ctx.env.HOME ?? ctx.home : null);
}

/** The names of the loopback interface the usual resolvers know (glibc, systemd, Debian). */
const LOOPBACK_NAMES =
  /^(?:localhost(?:\.localdomain)?|localhost[46](?:\.localdomain[46])?|ip6-(?:localhost|loopback)|_outbound)$/;

/**
 * An IPv4 address as `inet_aton` reads it (what glibc's `getaddrinfo` takes): one to four parts,
 * each decimal, octal (`0…`) or hex (`0x…`), the last filling the bytes left. Null for none.
 */
export function inetAton(text: string): number | null {
  const parts = text.split(".");
  if (parts.length > 4) return null;
  const values: number[] = [];
  for (const p of parts) {
    const v = /^0x[0-9a-f]*$/i.test(p)
      ? parseInt(p.slice(2) || "0", 16)
      : /^0[0-7]*$/.test(p)
      ? parseInt(p, 8)
      : /^[1-9][0-9]*$/.test(p)
      ? parseInt(p, 10)
      : NaN;
    if (Number.isNaN(v)) return null;
    values.push(v);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255) || last >= 2 ** (8 * (4 - values.length))) return null;
  return values.reduce((n, v, i) => n + v * 2 ** (8 * (3 - i)), 0) + last;
}

/** The eight groups of an IPv6 address (a dotted IPv4 tail allowed), or null for none. */
export function ipv6Groups(text: string): number[] | null {
  if (!text.includes(":")) return null;
  let t = text;
  const dotted = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted) {
    const b = dotted[2].split(".").map(Number);
    if (b.some((x) => x > 255)) return null;
    t = dotted[1] + (b[0] * 256 + b[1]).toString(16) + ":" + (b[2] * 256 + b[3]).toString(16);
  }
  const halves = t.split("::");
  if (halves.length > 2) return null;
  const read = (h: string) => (h === "" ? [] : h.split(":"));
  const head = read(halves[0]);
  const tail = halves.length === 2 ? read(halves[1]) : null;
  const words = [...head, ...(tail ?? [])];
  if (words.some((w) => !/^[0-9a-f]{1,4}$/i.test(w))) return null;
  const missing = 8 - words.length;
  if (tail === null ? missing !== 0 : missing < 1) return null;
  const zeros = tail === null ? [] : new Array<string>(missing).fill("0");
  return [...head, ...zeros, ...(tail ?? [])].map((w) => parseInt(w, 16));
}

/** A loopback (127/8) or unspecified (0/8) IPv4 address: a connection there is to this machine. */
function local4(v: number): boolean {
  const first = Math.floor(v / 2 ** 24);
  return first === 127 || first === 0;
}

/** `::`, `::1`, and IPv4-mapped or -compatible forms of a local IPv4 address. */
function local6(g: number[]): boolean {
  if (g.slice(0, 5).some((x) => x !== 0) || (g[5] !== 0 && g[5] !== 0xffff)) return false;
  if (g[5] === 0 && g[6] === 0) return g[7] <= 1;
  return local4(g[6] * 65536 + g[7]);
}

/** The address a host spells (`a:b` for IPv6, a number for IPv4), or null for a name. */
function addressOf(host: string): string | null {
  const v4 = inetAton(host);
  if (v4 !== null) return String(v4);
  const v6 = ipv6Groups(host);
  if (v6 === null) return null;
  // (An IPv4-mapped address is that IPv4 address.)
  if (v6.slice(0, 5).every((x) => x === 0) && v6[5] === 0xffff) {
    return String(v6[6] * 65536 + v6[7]);
  }
  return v6.join(":");
}

/** Whether an address (`addressOf`) is a local one or one of the machine's own. */
function localAddress(address: string, own: ReadonlySet<string>): boolean {
  if (own.has(address)) return true;
  return address.includes(":") ? local6(address.split(":").map(Number)) : local4(Number(address));
}

/** What names this machine besides the loopback spellings (see `knownOf`). */
interface Known {
  /** The machine's own addresses (`addressOf`). */
  own: Set<string>;
  /** The names `/etc/hosts` gives a local address. */
  names: Set<string>;
  /** The `Host` patterns of ssh's configuration whose `HostName` is a local address or name. */
  aliases: RegExp[];
  /** The machine's own name (`plainHost`), "" where not known. */
  name: string;
}

const known = new WeakMap<Context, Known>();

/**
 * The machine's own addresses, the names `/etc/hosts` gives a local one and the ssh aliases of
 * one, per context (read once, when a remote operand is first judged).
 */
function knownOf(ctx: Context): Known {
  let k = known.get(ctx);
  if (k) return k;
  const machine = ctx.machine?.();
  const own = new Set<string>();
  for (const a of machine?.addresses ?? []) {
    const at = addressOf(plainHost(a));
    if (at !== null) own.add(at);
  }
  const names = new Set<string>();
  for (const line of (ctx.fs.readText?.("/etc/hosts", 1 << 20) ?? "").split("\n")) {
    const [address, ...aliases] = line.replace(/#.*/, "").trim().split(/\s+/);
    const at = address ? addressOf(plainHost(address)) : null;
    if (at !== null && localAddress(at, own)) { for (const n of aliases) names.add(plainHost(n)); }
  }
  const name = machine ? plainHost(machine.hostname) : "";
  // (A `HostName` is this machine as any host is: `dev.localhost`, `127.0.0.1.nip.io`, `app.lvh.me`.)
  const local = (h: string) => localName(plainHost(h), own, names, name);
  const aliases = sshAliases(ctx, ctx.home, local);
  k = { own, names, aliases, name };
  known.set(ctx, k);
  return k;
}

/**
 * Well-known public names whose every subdomain resolves to 127.0.0.1 (for local development):
 * a small fixed list, not every such service (docs/bash-analysis.md).
 */
const LOOPBACK_DOMAINS =
  /(?:^|\.)(?:localtest\.me|lvh\.me|vcap\.me|lacolhost\.com|localhost\.direct|localho\.st|fuf\.me|traefik\.me)$/;

/** Whether a label holds a local IPv6 address written with `-` for `:` (`--1`, `app---1`). */
function dashedLocal6(label: string): boolean {
  if (!label.includes("-") || label.length > 63) return false;
  const starts = [0];
  for (let i = 0; i < label.length; i++) if (label[i] === "-") starts.push(i + 1);
  for (const s of starts) {
    for (const e of [...starts.slice(1).map((x) => x - 1), label.length]) {
      if (e <= s) continue;
      const g = ipv6Groups(label.slice(s, e).replace(/-/g, ":"));
      if (g !== null && local6(g)) return true;
    }
  }
  return false;
}

/** A host as compared: lower case, without brackets, an IPv6 zone (`%lo`) or trailing dots. */
function plainHost(host: string): string {
  let h = host.toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  return h.replace(/%.*$/, "").replace(/\.+$/, "");
}

/** Whether a host as ssh, scp or rsync is given it may be this machine. */
export function thisMachine(host: string, ctx: Context): boolean {
  const h = plainHost(host);
  if (h === "" || LOOPBACK_NAMES.test(h) || h.endsWith(".localhost")) return true;
  const k = knownOf(ctx);
  return localName(h, k.own, k.names, k.name) || k.aliases.some((a) => a.test(h));
}

/**
 * Whether a plain host name (`plainHost`) may be this machine by its spelling or what is known of
 * the machine: its own addresses, the names `/etc/hosts` gives them, its name (ssh's aliases
 * aside: `thisMachine`).
 */
function localName(h: string, own: ReadonlySet<string>, names: ReadonlySet<string>, name: string) {
  if (h === "" || LOOPBACK_NAMES.test(h) || h.endsWith(".localhost")) return true;
  const address = addressOf(h);
  if (address !== null) return localAddress(address, own);
  // A name with a loopback address in it, which wildcard DNS answers with (`127.0.0.1.nip.io`,
  // `app-127-0-0-1.sslip.io`).
  if (/(?:^|[.-])(?:127|0)[.-]\d{1,3}[.-]\d{1,3}[.-]\d{1,3}(?:[.-]|$)/.test(h)) return true;
  // (nip.io's hex form, eight digits for the four bytes: `7f000001.nip.io`, `app-7f000001.nip.io`.)
  if (/(?:^|[.-])(?:7f|00)[0-9a-f]{6}\./.test(h)) return true;
  // (sslip.io's IPv6 form, `-` for `:`: `--1.sslip.io` is `::1`.)
  if (h.includes("-") && h.split(".").some(dashedLocal6)) return true;
  if (LOOPBACK_DOMAINS.test(h)) return true;
  if (names.has(h)) return true;
  if (name === "") return false;
  if (h === name) return true;
  // (Its short name, or a longer name of it the search domains may give: the first labels.)
  const [a, b] = [h.split(".")[0], name.split(".")[0]];
  return a === b && (!h.includes(".") || !name.includes("."));
}

/**
 * A file a program names on another machine (`NamedFile.on`) as a file of this one: its path
 * here, absolute as written, `~`, `~/…` and relative ones in the home of the user it logs in as
 * (not known for another user: a file not known); undefined where the host is another machine.
 */
export function hereFile(file: NamedFile, ctx: Context): NamedFile | undefined {
  const on = file.on!;
  if (!thisMachine(on.host, ctx)) return undefined;
  const home = homeOf(ctx);
  const login = on.user === undefined ? home(null) : on.user === null ? null : home(on.user);
  const path = file.path;
  let here: string | null;
  if (path === null || path.startsWith("/")) here = path;
  else if (path.startsWith("~")) {
    const [, user, rest] = /^~([^/]*)(.*)$/s.exec(path)!;
    const dir = user === "" ? login : home(user);
    here = dir === null ? null : dir + rest;
  } else here = login === null ? null : path === "" || path === "." ? login : `${login}/${path}`;
  const { on: _, ...rest } = file;
  return { ...rest, path: here };
}

/**
 * The machine's name and addresses as they are now, for the extension and the CLI to give each
 * decision's context as `Context.machine` (asked when a remote operand is judged); undefined
 * where they cannot be read.
 */
export function machineNow(): Machine | undefined {
  try {
    const addresses = Object.values(networkInterfaces()).flatMap((list) =>
      (list ?? []).map((i) => i.address)
    );
    return { hostname: hostname(), addresses };
  } catch {
    return undefined;
  }
}
