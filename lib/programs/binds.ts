/**
 * Programs that run a command in a root or namespace of their own where a directory of this
 * machine is bound at another place (`proot -b ~/.ssh:/x cat /x/id_rsa`): the bound directory is
 * read and written as a tree (`NamedFile.below`), what is protected in it reached by the other
 * name. proot's `-b`/`-m`/`--bind`/`--mount HOST[:GUEST]` and its roots (`-r`, `-R`, `-S`);
 * firejail's `--bind=A,B`, `--private=DIR` (the home) and `--chroot=DIR`; systemd-nspawn's
 * `--bind[-ro]=SRC[:DST[:OPTS]]`, `--overlay[-ro]=LOWER:…:DST` and `-D`/`--directory` (its root).
 * (bwrap's binds and `mount --bind` name theirs as words of their own, judged as paths.)
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { prootFiles } from "./binds.ts";
 * prootFiles(["proot", "-b", "/home/me/.ssh:/x", "cat", "/x/k"].map(literal))[0].path;
 * // "/home/me/.ssh"
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { NamedFile } from "./spec.ts";
import { literal } from "./words.ts";

/** A directory bound or mounted elsewhere: read and written as a tree; null: not known. */
export function tree(path: string | null, source: string): NamedFile {
  return { path, source, below: true };
}

/** The value of `--name=VALUE`, `-xVALUE` or `-x VALUE` at `k` (and how many words it took). */
type Valued = { name: string; value: Word | undefined; words: number };

/** An option's name and value as getopt reads it: `--long=v`, `--long v`, `-xv`, `-x v`. */
function valued(argv: Word[], k: number, longs: Set<string>, shorts: string): Valued | null {
  const w = argv[k];
  const text = w.kind === "static" ? w.value : w.prefix;
  const glued = (name: string, rest: string): Valued => ({
    name,
    value: w.kind === "static" ? literal(rest) : w,
    words: 1,
  });
  if (text.startsWith("--")) {
    const eq = text.indexOf("=");
    const name = eq < 0 ? text : text.slice(0, eq);
    if (!longs.has(name)) return null;
    if (eq >= 0) return glued(name, text.slice(eq + 1));
    return { name, value: argv[k + 1], words: 2 };
  }
  if (!/^-[^-]/.test(text) || !shorts.includes(text[1])) return null;
  if (text.length > 2) return glued(text.slice(0, 2), text.slice(2));
  return w.kind === "static" ? { name: text, value: argv[k + 1], words: 2 } : null;
}

/** The directory before the first `sep` of a bind's value (`SRC:DST`), as a tree. */
function bindTree(value: Word | undefined, sep: string, source: string): NamedFile {
  if (value === undefined || value.kind !== "static") return tree(null, source);
  const at = value.value.indexOf(sep);
  return tree(at < 0 ? value.value : value.value.slice(0, at), source);
}

// deno-fmt-ignore
const PROOT_LONG = new Set(["--rootfs", "--bind", "--mount", "--cwd", "--pwd", "--qemu",
  "--kernel-release", "--verbose", "--change-id"]);

/** proot's binds and roots (see the module), before the command it runs. */
export function prootFiles(argv: Word[]): NamedFile[] {
  const out: NamedFile[] = [];
  for (let k = 1; k < argv.length; k++) {
    const w = argv[k];
    const v = valued(argv, k, PROOT_LONG, "rbmwqkviRS");
    if (v === null) {
      if (w.kind === "static" && w.value.startsWith("-") && w.value !== "--") continue;
      break;
    }
    k += v.words - 1;
    const source = `${v.name} ${v.value?.text ?? ""}`;
    if (/^(-[bm]|--bind|--mount)$/.test(v.name)) out.push(bindTree(v.value, ":", source));
    else if (/^(-[rRS]|--rootfs)$/.test(v.name)) out.push(bindTree(v.value, "\0", source));
  }
  return out;
}

/** firejail's binds, private home and root (`--opt=VALUE` only), before the command it runs. */
export function firejailFiles(argv: Word[]): NamedFile[] {
  const out: NamedFile[] = [];
  for (let k = 1; k < argv.length; k++) {
    const w = argv[k];
    const text = w.kind === "static" ? w.value : w.prefix;
    if (!text.startsWith("-")) break;
    const m = /^--(bind|private|chroot)=/.exec(text);
    if (m === null) continue;
    const value = w.kind === "static" ? w.value.slice(m[0].length) : null;
    if (value === null) out.push(tree(null, w.text));
    else out.push(tree(m[1] === "bind" ? value.replace(/,.*$/s, "") : value, w.text));
  }
  return out;
}

const NSPAWN_LONG = new Set([
  "--bind",
  "--bind-ro",
  "--overlay",
  "--overlay-ro",
  "--directory",
  "--template",
]);

/**
 * systemd-nspawn's binds, overlays and root (see the module): every word that is one, the
 * command's own too (its other options' values are not told apart from them).
 */
export function nspawnFiles(argv: Word[]): NamedFile[] {
  const out: NamedFile[] = [];
  for (let k = 1; k < argv.length; k++) {
    const v = valued(argv, k, NSPAWN_LONG, "D");
    if (v === null) continue;
    k += v.words - 1;
    const source = `${v.name} ${v.value?.text ?? ""}`;
    if (v.name.startsWith("--bind")) {
      // (A leading `+` is relative to the container's root: one of this machine's still.)
      const value = v.value?.kind === "static"
        ? literal(v.value.value.replace(/^[-+]/, ""))
        : v.value;
      out.push(bindTree(value, ":", source));
    } else if (v.name.startsWith("--overlay")) {
      if (v.value?.kind !== "static") out.push(tree(null, source));
      else for (const d of v.value.value.split(":").slice(0, -1)) out.push(tree(d, source));
    } else out.push(bindTree(v.value, "\0", source));
  }
  return out;
}

/**
 * systemd-nspawn's options (systemd-nspawn(1)), read by wrappers.ts: `[OPTIONS] [--] [CMD
 * [ARGS]]` runs CMD in a container rooted at `-D` (or an image), as `chroot ROOT CMD` does, and a
 * shell without one (with `-b`, the root's init, given the words after the options). Options
 * whose value is optional and glued (`--volatile`, `--private-users`) are not known: read both
 * ways.
 */
export const NSPAWN_WRAPPER = {
  shortWithArg: "DuLMSZipE",
  // deno-fmt-ignore
  longWithArg: ["--directory", "--template", "--image", "--image-policy", "--oci-bundle",
    "--root-hash", "--root-hash-sig", "--verity-data", "--pivot-root", "--chdir", "--user",
    "--machine", "--hostname", "--uuid", "--slice", "--property", "--register",
    "--network-interface", "--network-macvlan", "--network-ipvlan", "--network-veth-extra",
    "--network-bridge", "--network-zone", "--network-namespace-path", "--port",
    "--private-users-ownership", "--capability", "--drop-capability", "--ambient-capability",
    "--no-new-privileges", "--system-call-filter", "--rlimit", "--oom-score-adjust",
    "--cpu-affinity", "--kill-signal", "--personality", "--setenv", "--bind", "--bind-ro",
    "--inaccessible", "--tmpfs", "--overlay", "--overlay-ro", "--link-journal", "--resolv-conf",
    "--timezone", "--console", "--settings", "--suppress-sync", "--load-credential",
    "--set-credential", "--bind-user", "--notify-ready", "--selinux-context",
    "--selinux-apifs-context", "--background", "--uid"],
  // deno-fmt-ignore
  longFlags: ["--boot", "--as-pid2", "--ephemeral", "--read-only", "--keep-unit", "--quiet",
    "--private-network", "--network-veth", "--pipe", "--private-users-chown", "--help",
    "--version"],
  setsEnv: ["-E", "--setenv"],
  shell: true,
};
