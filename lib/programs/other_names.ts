/**
 * The other names a known program is installed under: Homebrew installs the GNU tools on macOS
 * with a `g` in front (`grm`, `gfind`, `gxargs`, `gsed`, `gtimeout`), uutils' packages as `uu-rm`
 * or `uu_rm`. Each is the same program as the one it names: the registry gives its facets, and
 * rules about the program match it too (`rm *` matches `grm -rf x`). GNU coreutils' single binary
 * (`coreutils --coreutils-prog=rm`, uutils' `coreutils rm`) runs its first word as a stage of its
 * own, as busybox does (shells.ts). Compilers and their tools are installed under a version and a
 * target's prefix (`gcc-12`, `x86_64-linux-gnu-gcc`, `arm-none-eabi-ld`).
 *
 * @example
 * ```ts
 * import { canonicalName } from "./other_names.ts";
 * canonicalName("grm"); // "rm"
 * canonicalName("uu-find"); // "find"
 * canonicalName("gdu"); // "gdu" (another program: a disk usage browser)
 * canonicalName("x86_64-linux-gnu-gcc-12"); // "gcc"
 * ```
 *
 * @module
 */

/**
 * The GNU tools Homebrew installs with a `g` prefix (coreutils, findutils, sed, tar, grep, awk,
 * make, which) and uutils installs with `uu-`/`uu_`.
 */
const TOOLS: ReadonlySet<string> = new Set([
  // coreutils
  "b2sum",
  "base32",
  "base64",
  "basename",
  "basenc",
  "cat",
  "chcon",
  "chgrp",
  "chmod",
  "chown",
  "chroot",
  "cksum",
  "comm",
  "cp",
  "csplit",
  "cut",
  "date",
  "dd",
  "df",
  "dir",
  "dircolors",
  "dirname",
  "du",
  "echo",
  "env",
  "expand",
  "expr",
  "factor",
  "false",
  "fmt",
  "fold",
  "groups",
  "head",
  "hostid",
  "id",
  "install",
  "join",
  "kill",
  "link",
  "ln",
  "logname",
  "ls",
  "md5sum",
  "mkdir",
  "mkfifo",
  "mknod",
  "mktemp",
  "mv",
  "nice",
  "nl",
  "nohup",
  "nproc",
  "numfmt",
  "od",
  "paste",
  "pathchk",
  "pinky",
  "pr",
  "printenv",
  "printf",
  "ptx",
  "pwd",
  "readlink",
  "realpath",
  "rm",
  "rmdir",
  "runcon",
  "seq",
  "sha1sum",
  "sha224sum",
  "sha256sum",
  "sha384sum",
  "sha512sum",
  "shred",
  "shuf",
  "sleep",
  "sort",
  "split",
  "stat",
  "stdbuf",
  "stty",
  "sum",
  "sync",
  "tac",
  "tail",
  "tee",
  "test",
  "timeout",
  "touch",
  "tr",
  "true",
  "truncate",
  "tsort",
  "tty",
  "uname",
  "unexpand",
  "uniq",
  "unlink",
  "uptime",
  "users",
  "vdir",
  "wc",
  "who",
  "whoami",
  "yes",
  // findutils, sed, tar, grep, awk, make, which
  "find",
  "xargs",
  "locate",
  "updatedb",
  "sed",
  "tar",
  "grep",
  "egrep",
  "fgrep",
  "awk",
  "make",
  "which",
]);

/**
 * `g` names that are other programs, not a GNU tool's: gdu (a disk usage browser that deletes),
 * god (a process monitor), gid (idutils' search), gtest (googletest's binaries).
 */
const OTHER_PROGRAMS: ReadonlySet<string> = new Set(["gdu", "god", "gid", "gtest"]);

/**
 * The `g` names the registry knows by themselves (their modules judge them by that name; rules
 * about the tool still match them, `canonicalName`).
 */
const OWN_ENTRIES: ReadonlySet<string> = new Set(["gawk", "gsed", "gtar", "gnutar", "gmake"]);

/** Other names that are not a prefix and the tool's (`gnutar`: GNU tar's on older BSDs and macOS). */
const NAMED: ReadonlyMap<string, string> = new Map([["gnutar", "tar"]]);

/**
 * A compiler driver or one of its tools installed under a version (`gcc-12`, `clang++-17`,
 * `cpp-12`) or a target's prefix (`x86_64-linux-gnu-gcc-12`, `arm-none-eabi-ld`,
 * `x86_64-w64-mingw32-g++-posix`, `musl-gcc`): the prefix is the target's words, the version
 * digits alone (`gcc-ar`, `clang-format`, `clang-tidy` are other programs). The short names
 * (`cc`, `as`, `ld`) only after a target of two words or more (`my-cc` is not one).
 */
const TOOLCHAIN =
  /^((?:[\w.+]+-)*?)(gcc|g\+\+|clang|clang\+\+|gfortran|cpp|cc|c\+\+|as|ld(?:\.(?:bfd|gold|lld))?)((?:-\d+(?:\.\d+)*)?(?:-posix|-win32)?)$/;

/** The compiler or tool a versioned or target-prefixed name is (see `TOOLCHAIN`), else null. */
function toolchainName(name: string): string | null {
  const m = TOOLCHAIN.exec(name);
  if (m === null || (m[1] === "" && m[3] === "")) return null;
  const targetWords = m[1].split("-").length - 1;
  const short = m[2] === "cc" || m[2] === "c++" || m[2] === "as" || m[2].startsWith("ld");
  if (short && targetWords < 2) return null;
  if (m[2] === "cpp" && targetWords < 2 && m[3] === "") return null;
  return m[2];
}

/** The registry's name of a program (`grm` -> `rm`; `gsed`, an entry of its own, stays). */
export function registryName(name: string): string {
  if (!mayBeOther(name)) return name;
  return OWN_ENTRIES.has(name) ? name : canonicalName(name);
}

/** The name of the program `name` is another name of (`grm` -> `rm`), else `name` itself. */
export function canonicalName(name: string): string {
  if (!mayBeOther(name)) return name;
  let known = canonical.get(name);
  if (known === undefined) {
    known = otherNameOf(name);
    if (canonical.size >= 1000) canonical.clear();
    canonical.set(name, known);
  }
  return known;
}

/**
 * Whether a name may be another one's: it starts with `g` or `u`, or has a `-` (a compiler's
 * version or target) (asked for every word).
 */
function mayBeOther(name: string): boolean {
  const c = name.charCodeAt(0);
  return ((c === 103 || c === 117) && name.length > 1) || name.includes("-");
}

/** Names asked before, and what they are (a program's name is asked for again and again). */
const canonical = new Map<string, string>();

function otherNameOf(name: string): string {
  const named = NAMED.get(name);
  if (named !== undefined) return named;
  if (name[0] === "g" && !OTHER_PROGRAMS.has(name) && TOOLS.has(name.slice(1))) {
    return name.slice(1);
  }
  if (/^uu[-_]/.test(name) && TOOLS.has(name.slice(3))) return name.slice(3);
  return name.includes("-") ? toolchainName(name) ?? name : name;
}
