/**
 * Programs that mount a directory at another place, where its files are reached by other names
 * (`cat /tmp/m/id_rsa` after `sshfs localhost:.ssh /tmp/m`): the directory is read and written as
 * a tree (`NamedFile.below`), what is protected in it reached. sshfs's `[user@]host:[dir]` on a
 * host that may be this machine is that directory here (`NamedFile.on`; relative in the login's
 * home, the home where none is given); unionfs's, unionfs-fuse's and mergerfs's branches
 * (`/a=RW:/b=RO`, `-o dirs=…`, `-o branches=…`) are local directories, as an overlay's are
 * (`-o lowerdir=A:B,upperdir=U,workdir=W`: fuse-overlayfs, `mount -t overlay`). `mount` and
 * mount.fuse mount sshfs's source as sshfs does (`-t fuse.sshfs`, `sshfs#host:dir`, the helpers
 * `mount.sshfs` and `mount.fuse.sshfs`), a bind's (`--bind`, `-o bind`) and a FUSE filesystem's
 * (`bindfs#/dir`) as a tree. (bindfs, `bwrap --bind` and `rclone mount` name theirs as operands,
 * judged as paths already; proot's, firejail's and systemd-nspawn's binds: binds.ts.) sshfs's
 * `-o ssh_command=CMD` and the ssh settings it passes on (`-o ProxyCommand=CMD`) run here, and a
 * config it reads (`-F FILE`, `-FFILE`).
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { branchDirs } from "./mounts.ts";
 * branchDirs("/tmp/rw=RW:/home/me/.ssh=RO"); // ["/tmp/rw", "/home/me/.ssh"]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { operandText, remoteFile, sshOperand } from "./remote_operands.ts";
import type { NamedFile, Program, Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";
import { tree } from "./binds.ts";

/** The `-o` values of a mount program (`-o a,b`, `-oa,b`), split at commas; null: not known. */
function mountOptions(argv: Word[]): (string | null)[] {
  const out: (string | null)[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    const v = w.kind === "static" ? w.value : w.prefix;
    if (v === "--") break;
    if (!/^-o/.test(v)) continue;
    const value = v === "-o" ? argv[++i] : w.kind === "static" ? literal(v.slice(2)) : w;
    if (value === undefined) continue;
    if (value.kind !== "static") out.push(null);
    else out.push(...value.value.split(","));
  }
  return out;
}

/** The operands of a mount program: words not options, past `-o VALUE` (and sshfs's `-p PORT`, `-F FILE`). */
function mountOperands(argv: Word[], valued: string): Word[] {
  const out: Word[] = [];
  let ended = false;
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i].kind === "static" ? argv[i].value : argv[i].prefix;
    if (ended || !v.startsWith("-") || v === "-") out.push(argv[i]);
    else if (v === "--") ended = true;
    else if (v.length === 2 && valued.includes(v[1])) i++;
  }
  return out;
}

/** The directories of a branch list (`/a=RW:/b=RO:/c`), each mode (`=RW`, `=NC`, …) left off. */
export function branchDirs(list: string): string[] {
  return list.split(":").filter(Boolean).map((b) => b.replace(/=[A-Za-z,]*$/, ""));
}

/**
 * sshfs's directory there (`NamedFile.on`), read and written as a tree: its first operand with a
 * colon wherever it stands (sshfs's `sshfs_opt_proc`: `sshfs /tmp/m localhost:.ssh`); a word
 * not known before it, a directory not known.
 */
function sshfsFiles(argv: Word[]): NamedFile[] {
  for (const w of mountOperands(argv, "opF")) {
    const text = operandText(w);
    if (text === null) {
      if (w.kind === "static") continue;
      return [{ path: null, source: w.text, below: true }];
    }
    if (!text.includes(":")) continue;
    return [sshfsSource(text, w.text)];
  }
  return [];
}

/** An sshfs source, `[user@]host:[dir]`, as its directory there (a tree). */
function sshfsSource(text: string, source: string): NamedFile {
  const r = sshOperand(text);
  if (r === null) return { path: null, source, below: true };
  return remoteFile(r, source, r.user, { below: true });
}

/** unionfs's and mergerfs's branches: local directories read and written as trees. */
function branchFiles(argv: Word[]): NamedFile[] {
  const out: NamedFile[] = [];
  const tree = (path: string | null, source: string) => out.push({ path, source, below: true });
  for (const o of mountOptions(argv)) {
    if (o === null) tree(null, "-o (a branch not known)");
    else if (/^(dirs|branches)=/.test(o)) {
      for (const d of branchDirs(o.slice(o.indexOf("=") + 1))) tree(d, o);
    }
  }
  const operands = mountOperands(argv, "o");
  // (The last is the mount point; before it, the branches.)
  for (const w of operands.slice(0, -1)) {
    if (w.kind === "dynamic") tree(null, w.text);
    else for (const d of branchDirs(w.value)) tree(d, w.text);
  }
  return out;
}

/**
 * An overlay's directories (`-o lowerdir=A:B,upperdir=U,workdir=W`, fuse-overlayfs's and the
 * kernel's): each read or written as a tree; an option not known, a directory not known.
 */
function overlayFiles(options: (string | null)[]): NamedFile[] {
  const out: NamedFile[] = [];
  for (const o of options) {
    if (o === null) out.push(tree(null, "-o (a directory not known)"));
    else if (/^lowerdir\+?=/.test(o)) {
      // (`\:` is a colon in a directory's name.)
      for (const d of o.slice(o.indexOf("=") + 1).split(/(?<!\\):/)) {
        if (d) out.push(tree(d.replaceAll("\\:", ":"), o));
      }
    } else if (/^(upperdir|workdir|datadir\+?)=/.test(o)) {
      out.push(tree(o.slice(o.indexOf("=") + 1), o));
    }
  }
  return out;
}

/**
 * The filesystem types a mount names: `-t TYPE` (`-tTYPE`, `--types TYPE`; "" where not known),
 * and the `TYPE#` of its source (mount.fuse's `sshfs#host:dir`).
 */
function mountTypes(argv: Word[], source: Word | undefined): string[] {
  const out: string[] = [];
  for (const [k, w] of argv.entries()) {
    const m = k === 0 || w.kind !== "static" ? null : /^(?:-t|--types)(=?)(.*)$/s.exec(w.value);
    if (m === null) continue;
    const value = m[2] === "" && m[1] === "" ? argv[k + 1] : literal(m[2]);
    out.push(value?.kind === "static" ? value.value.toLowerCase() : "");
  }
  const hash = source?.kind === "static" ? source.value.indexOf("#") : -1;
  if (hash > 0) out.push(source!.value.slice(0, hash).toLowerCase());
  return out;
}

/**
 * Whether a mount is sshfs's: a type `sshfs`, `fuse.sshfs` or `fuse3.sshfs` (a list's, `-t
 * nfs,fuse.sshfs`), or one not known with a source that has a colon.
 */
function sshfsMount(argv: Word[], source: Word | undefined): boolean {
  return mountTypes(argv, source).some((t) =>
    t === ""
      ? source?.kind !== "static" || source.value.includes(":")
      : t.split(",").some((x) => /^(fuse3?\.)?sshfs$/.test(x))
  );
}

/**
 * What `mount`, `mount.fuse` and `mount.fuse3` mount from: an sshfs source (`-t fuse.sshfs
 * host:dir`, `sshfs#host:dir`) as sshfs's; a bind's (`--bind`, `--rbind`, `-B`, `-R`, `-o bind`)
 * or a FUSE filesystem's source (`bindfs#/dir`) as a tree; an overlay's directories.
 */
function mountFiles(argv: Word[]): NamedFile[] {
  const operands = mountOperands(argv, "toOLUTN");
  const [source] = operands;
  const options = mountOptions(argv);
  const out = overlayFiles(options);
  if (source === undefined || operands.length < 2) return out;
  const text = source.kind === "static" ? source.value.replace(/^[^#/]*#/, "") : null;
  if (sshfsMount(argv, source)) {
    out.push(text === null ? tree(null, source.text) : sshfsSource(text, source.text));
    return out;
  }
  const fuse = /(^|\/)mount\.fuse3?$/.test(argv[0].value) ||
    mountTypes(argv, source).some((t) => t === "" || t.startsWith("fuse"));
  const bind = argv.some((w) => /^(--r?bind|-[a-zA-Z]*[BR][a-zA-Z]*)$/.test(w.value)) ||
    options.some((o) => o === null || /^r?bind$/.test(o));
  if (fuse || bind) out.push(tree(text, source.text));
  return out;
}

/** What a mount of sshfs's type runs here (`-o ssh_command=CMD`): as sshfs's options. */
function mountRuns(stage: Stage, run: Runner): void {
  const [source] = mountOperands(stage.argv, "toOLUTN");
  if (sshfsMount(stage.argv, source)) sshfsRuns(stage, run);
}

/** The ssh settings sshfs passes on whose value is a command run here, and its own `ssh_command`. */
const SSHFS_COMMANDS = /^(ssh_command|proxycommand|localcommand|knownhostscommand)\s*=\s*(.*)$/is;

/** What sshfs runs here: `-o ssh_command=CMD`, `-o ProxyCommand=CMD`, a config it reads (`-F`). */
function sshfsRuns(stage: Stage, run: Runner): void {
  for (const o of mountOptions(stage.argv)) {
    if (o === null) {
      run.stage([unknownWord("(a command sshfs's options may name)")], "sshfs -o");
      continue;
    }
    const m = SSHFS_COMMANDS.exec(o);
    if (m) run.shell(literal(m[2]), `sshfs -o ${m[1]}`);
  }
  // (`-F FILE` or `-FFILE`, as fuse's option parser takes a template ending in a blank.)
  for (const [k, w] of stage.argv.entries()) {
    if (k === 0 || !(w.kind === "static" ? w.value : w.prefix).startsWith("-F")) continue;
    const value = w.value === "-F"
      ? stage.argv[k + 1]
      : w.kind === "static"
      ? literal(w.value.slice(2))
      : w;
    run.command(value ?? unknownWord("-F"), "file", "sshfs -F");
  }
}

/** The mount programs this module knows (see the module). */
export const MOUNT_PROGRAMS: Program[] = [
  { names: ["sshfs", "mount.sshfs", "mount.fuse.sshfs"], namedFiles: sshfsFiles, runs: sshfsRuns },
  { names: ["unionfs", "unionfs-fuse", "mergerfs"], namedFiles: branchFiles },
  { names: ["fuse-overlayfs"], namedFiles: (argv) => overlayFiles(mountOptions(argv)) },
  { names: ["mount", "mount.fuse", "mount.fuse3"], namedFiles: mountFiles, runs: mountRuns },
];
