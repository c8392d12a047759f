/**
 * Programs that mount a directory at another place, where its files are reached by other names
 * (`cat /tmp/m/id_rsa` after `sshfs localhost:.ssh /tmp/m`): the directory is read and written as
 * a tree (`NamedFile.below`), what is protected in it reached. sshfs's `[user@]host:[dir]` on a
 * host that may be this machine is that directory here (`NamedFile.on`; relative in the login's
 * home, the home where none is given); unionfs's, unionfs-fuse's and mergerfs's branches
 * (`/a=RW:/b=RO`, `-o dirs=…`, `-o branches=…`) are local directories. (bindfs, `mount --bind`,
 * `bwrap --bind` and `rclone mount` name theirs as operands, judged as paths already.) sshfs's
 * `-o ssh_command=CMD` and the ssh settings it passes on (`-o ProxyCommand=CMD`) run here.
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
 * sshfs's directory there (`NamedFile.on`), read and written as a tree; a word not known, a
 * directory not known.
 */
function sshfsFiles(argv: Word[]): NamedFile[] {
  const [first] = mountOperands(argv, "opF");
  if (first === undefined) return [];
  const text = operandText(first);
  const r = text === null ? null : sshOperand(text);
  if (r === null) {
    return first.kind === "static" ? [] : [{ path: null, source: first.text, below: true }];
  }
  return [remoteFile(r, first.text, r.user, { below: true })];
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
  const at = stage.argv.findIndex((w) => w.value === "-F");
  if (at > 0) run.command(stage.argv[at + 1] ?? unknownWord("-F"), "file", "sshfs -F");
}

/** The mount programs this module knows (see the module). */
export const MOUNT_PROGRAMS: Program[] = [
  { names: ["sshfs"], namedFiles: sshfsFiles, runs: sshfsRuns },
  { names: ["unionfs", "unionfs-fuse", "mergerfs"], namedFiles: branchFiles },
];
