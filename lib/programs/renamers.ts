/**
 * Renamers that compute the new names: Perl's `rename` (Debian's `rename`, `prename`,
 * `file-rename`, `perl-rename`), whose first operand (or `-e`/`-E`) is a Perl expression run on
 * each name in `$_`, and util-linux's `rename FROM TO FILE…` (`rename.ul` on Debian), which puts
 * TO for the first FROM in each name (in the last component unless FROM holds a `/`; in the
 * whole path before util-linux 2.29; `-a` every one, `-l` the last). `rename` may be either.
 *
 * What they write is judged where it lands: the exact new path where it can be computed (a
 * static name, util-linux's words, a Perl `s///` or `y///` perl_substitutions.ts reads as Perl
 * does), else names not known in the directory a glob operand lists (`*.txt`), else a name not
 * known anywhere. Perl's expression is code besides (an eval, as `perl -e`'s): code it does not
 * reproduce may do anything, with `-n` or no name to rename too.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { NamedFile, Program } from "./spec.ts";
import { programName, standardInput } from "./words.ts";
import { type Edit, edited, perlEdits } from "./perl_substitutions.ts";
import type { EvalShape } from "../types.ts";

/** util-linux rename's options (all flags). */
const UTIL: OptionGrammar = {
  flags: "vsnaloihV",
  // deno-fmt-ignore
  longFlags: new Set(["--verbose", "--symlink", "--no-act", "--all", "--last", "--no-overwrite",
    "--interactive", "--help", "--version"]),
  abbreviations: true,
};

/**
 * Whether an edit may change a `/` or make one (it then moves a name to another directory): of
 * a path with a directory part (`dir`), one that may match a `/` or look past its match too.
 */
function touchesSlash(edits: Edit[], dir: boolean): boolean {
  return edits.some((e) =>
    "re" in e
      ? (dir && (e.slash || e.look)) ||
        e.parts.some((p) => typeof p === "string" && p.includes("/"))
      : e.from.includes("/") || e.to.includes("/")
  );
}

/**
 * A glob whose every match ends in a literal suffix an edit replaces (`*.txt` with
 * `s/\.txt$/.md/`): the globs of the new names (`*.md`). Unanchored (`s/\.JPG/.jpg/`), the
 * first `.JPG` may come earlier, leaving a name that still ends in it (every one, with `g`: a name
 * ending in the new text). Null for any other edit or glob.
 */
function suffixRenamed(glob: string, edits: Edit[]): string[] | null {
  if (!/^[\w./*?-]+$/.test(glob)) return null;
  const escape = (t: string) => t.replace(/[*?[\]\\]/g, "\\$&");
  let out = glob;
  for (const e of edits) {
    if (!("re" in e) || e.text === null) return null;
    const m = /^\\\.((?:[\w-]|\\[.-])*)(\$?)$/.exec(e.perl);
    if (!m) return null;
    const suffix = "." + m[1].replace(/\\/g, "");
    // (The suffix must be the glob's own text: `*.txt`, not `*.t?t`.)
    if (!out.endsWith(suffix) || /[*?]/.test(suffix)) return null;
    const head = out.slice(0, out.length - suffix.length);
    if (m[2] === "") {
      if (edits.length > 1) return null;
      const dir = glob.slice(0, glob.lastIndexOf("/") + 1);
      return e.global
        ? [dir + "*" + escape(e.text)]
        : [head + escape(e.text), dir + "*" + escape(suffix)];
    }
    out = head + escape(e.text);
  }
  return [out];
}

/** A regex of literal text alone (escapes of punctuation allowed), maybe anchored at `^`. */
const LITERAL_RE = /^(\^?)((?:[\w ,=:%+~#!-]|\\[.\-_/])+)$/;

/**
 * A glob whose literal start holds what one literal edit replaces first (`s/^fgh/jkl/` of
 * `fgh*`, `s/0000/000/` of `F0000*`): that start edited, the rest as it was. An edit at `^` of
 * what the glob does not start with (`s/^123_//` of `*.txt`) leaves the glob's literal end where
 * the two cannot overlap: the names are the glob's, or the new start, any name, that end. Null
 * for any other edit or glob.
 */
function prefixRenamed(glob: string, edits: Edit[]): string[] | null {
  const e = edits[0];
  if (edits.length !== 1 || !("re" in e) || e.re.flags !== "" || e.global) return null;
  const m = LITERAL_RE.exec(e.perl);
  const to = e.text;
  if (!m || to === null || !/^[\w./*?-]+$/.test(glob)) return null;
  const lit = m[2].replace(/\\(.)/g, "$1");
  const dir = glob.slice(0, glob.lastIndexOf("/") + 1);
  const name = glob.slice(dir.length);
  const head = name.slice(0, name.search(/[*?]|$/));
  const escape = (t: string) => t.replace(/[*?[\]\\]/g, "\\$&");
  const at = m[1] ? (head.startsWith(lit) ? 0 : -1) : head.indexOf(lit);
  if (at >= 0 && at + lit.length <= head.length) {
    return [
      dir + escape(head.slice(0, at) + to + head.slice(at + lit.length)) + name.slice(head.length),
    ];
  }
  if (!m[1] || name === head) return null;
  const tail = name.slice(name.search(/[^*?]*$/));
  for (let k = 1; k <= Math.min(lit.length, tail.length); k++) {
    if (lit.endsWith(tail.slice(0, k))) return null;
  }
  if (tail === "" || to.includes("/") || !/^[\w.-]*$/.test(to)) return null;
  const out = [glob, dir + escape(to) + "*" + escape(tail)];
  if (to === "") out.push(dir + escape(tail));
  return out;
}

/**
 * The names a glob operand's renamed matches may take: names in the directory it lists (its
 * static prefix up to the last `/`), a dot name too unless each edit starts at a `.` past the
 * first character (`s/\.txt$/.md/` of `*.txt`). Null where a match may leave that directory: an
 * edit that may match a `/`, look past its match, make a `/` or match in the directory's part
 * of the path (Perl edits the whole path).
 */
function globRenamed(w: Word, edits: Edit[], source: string): NamedFile[] | null {
  const slash = w.prefix.lastIndexOf("/");
  const dir = w.prefix.slice(0, slash + 1);
  if (w.text.slice(dir.length).includes("/")) return null;
  if (touchesSlash(edits, dir !== "") || edits.some((e) => "re" in e && e.re.test(dir))) {
    return null;
  }
  if (edits.some((e) => !("re" in e) && [...dir].some((c) => e.from.includes(c)))) return null;
  const escaped = dir.replace(/[*?[\]\\]/g, "\\$&");
  const suffixed = suffixRenamed(w.text, edits) ?? prefixRenamed(w.text, edits);
  if (suffixed !== null) return suffixed.map((path) => ({ path, source, pattern: true }));
  const out: NamedFile[] = [{ path: escaped + "*", source, pattern: true }];
  // (A name not starting with `.` gets one only from an edit that may put one first: not one
  // of literal text starting with `.`, nor one whose replacement starts with another character.)
  const dotless = !w.prefix.slice(dir.length).startsWith(".") &&
    edits.every((e) =>
      "re" in e
        ? /^\\\.(?:[\w-]|\\[.\-_])*\$?$/.test(e.perl) ||
          (typeof e.parts[0] === "string" && e.parts[0] !== ".")
        : !e.to.includes(".")
    );
  if (!dotless) out.push({ path: escaped + ".*", source, pattern: true });
  return out;
}

/** How Perl's rename is called: its code, its files and what its options say. */
interface PerlCall {
  /** The code's words (`-e CODE`, or the first operand). */
  code: Word[];
  files: Word[];
  /** `-n`: it renames nothing (the code still runs). */
  dryRun: boolean;
  /** `-d`: only the last component of each name is edited. */
  basenames: boolean;
  /** `-h`, `-m`, `-V`: it compiles no code and renames nothing. Else what is not known. */
  stop?: "help" | "unknown";
}

/**
 * File::Rename's options (Getopt::Long: a long name after `-` or `--`, `--nopath`/`--no-path`
 * negated, no bundling; older versions and other Perl renamers bundle short ones: `-vn`).
 */
const PERL_FLAGS: Record<string, "dryRun" | "basenames" | "fullpath" | "help" | ""> = {
  v: "",
  verbose: "",
  "0": "",
  null: "",
  f: "",
  force: "",
  n: "dryRun",
  nono: "dryRun",
  d: "basenames",
  filename: "basenames",
  nopath: "basenames",
  "no-path": "basenames",
  nofullpath: "basenames",
  "no-fullpath": "basenames",
  path: "fullpath",
  fullpath: "fullpath",
  h: "help",
  "?": "help",
  help: "help",
  m: "help",
  man: "help",
  V: "help",
  version: "help",
};

/** Perl rename's words read (it stops reading options at the first operand). */
function perlCall(args: Word[]): PerlCall {
  const call: PerlCall = { code: [], files: [], dryRun: false, basenames: false };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") return { ...call, stop: "unknown" };
    const v = a.value;
    if (v === "--") {
      i++;
      break;
    }
    if (v === "-" || !v.startsWith("-")) break;
    const long = /^--?([\w?-]+)(=.*)?$/s.exec(v);
    const flag = long && !long[2] && Object.hasOwn(PERL_FLAGS, long[1])
      ? PERL_FLAGS[long[1]]
      : undefined;
    const letters = /^-[v0nfd]{2,}$/.test(v) ? [...v.slice(1)].map((c) => PERL_FLAGS[c]) : [];
    if (flag !== undefined || letters.length) {
      for (const f of flag !== undefined ? [flag] : letters) {
        if (f === "help") return { ...call, stop: "help" };
        if (f === "dryRun") call.dryRun = true;
        if (f === "basenames" || f === "fullpath") call.basenames = f === "basenames";
      }
    } else if (/^--?[eE]$/.test(v) && args[i + 1]) {
      call.code.push(args[++i]);
    } else if (/^(--[eE]=|-[eE](?!=))/s.test(v)) {
      call.code.push({ ...a, value: v.slice(v.startsWith("--") ? 4 : 2) });
    } else return { ...call, stop: "unknown" }; // (`-u`, another renamer's option: not known)
  }
  call.files = args.slice(i);
  // (Without `-e`/`-E`, the first operand is the expression.)
  if (!call.code.length && call.files.length) call.code.push(call.files.shift()!);
  return call;
}

/** The Perl code a renamer runs, judged as `perl -e` code is. */
function renamerEval(stage: Stage): EvalShape | null {
  const name = programName(stage.argv[0]);
  if (name === "rename.ul") return null;
  const call = perlCall(stage.argv.slice(1));
  if (call.stop === "help" || (!call.code.length && !call.stop)) return null;
  const known = !call.stop && call.code.every((w) => w.kind === "static");
  return {
    interpreter: name,
    language: "perl",
    via: "expression",
    source: known ? call.code.map((w) => w.value).join("\n") : null,
  };
}

/**
 * What Perl's rename writes: each name its expression makes of an operand (or of stdin's). Code
 * it does not reproduce may do anything, even with `-n` or no name to rename (it is compiled
 * first: `BEGIN{…}`, and run on each name before `-n` is looked at).
 */
function perlRenamed(args: Word[], stage?: Stage): NamedFile[] {
  const source = "(the names rename makes)";
  const unknown: NamedFile[] = [{ path: null, source }];
  const call = perlCall(args);
  if (call.stop === "help") return [];
  if (call.stop === "unknown") return unknown;
  const code = call.code.map((w) => (w.kind === "static" ? w.value : null));
  if (!code.length) return [];
  if (code.includes(null)) return unknown;
  // (An expression Perl reads as a number or fails to compile changes no name: `.js`, the
  // util-linux reading's FROM, is a syntax error there.)
  if (code.length === 1 && /^(\.|\d)[\w.]*$/.test(code[0]!)) return [];
  const edits = perlEdits(code.join("\n"));
  if (edits === null) return unknown;
  if (call.dryRun) return [];
  // (No file operand: it renames the names its standard input gives, none where it has none.)
  const files = call.files;
  if (files.length === 0 && stage && standardInput(stage).from === "nothing") return [];
  if (files.length === 0) return unknown;
  const out: NamedFile[] = [];
  for (const w of files) {
    if (w.kind === "static") {
      const cut = call.basenames ? w.value.lastIndexOf("/") + 1 : 0;
      const name = edited(w.value.slice(cut), edits);
      if (name === null) return unknown;
      if (w.value.slice(0, cut) + name !== w.value) {
        out.push({ path: w.value.slice(0, cut) + name, source });
      }
      continue;
    }
    const names = w.kind === "glob" && !call.basenames ? globRenamed(w, edits, source) : null;
    if (names === null) return unknown;
    out.push(...names);
  }
  return out;
}

/** util-linux's rename: FROM put as TO in each name (both readings of where it looks). */
function utilRenamed(args: Word[]): NamedFile[] {
  const source = "(the names rename makes)";
  const unknown: NamedFile[] = [{ path: null, source }];
  // (A glob's match is an option it knows only where it may start with `-` and hold letters and
  // `-` alone: `*` may be `-s`; `x*` and `*.htm` are none.)
  const values = args.map((a) =>
    a.kind === "static"
      ? a.value
      : a.kind === "glob" && /^[^-*?]|[^\w*?-]|_/.test(a.text.replace(/\[[^\]]*\]/g, "?"))
      ? "glob"
      : null
  );
  let mode: "first" | "all" | "last" = "first";
  const operands: Word[] = [];
  // (getopt_long reads its options among the operands too: `rename.ul a b link -s`.)
  for (const t of readOptions(values, UTIL)) {
    if (t.kind === "dynamic") return unknown;
    // (An option it does not have: it stops with its usage, renaming nothing.)
    if (t.kind === "unknown") return [];
    if (t.kind === "flag" && /^(-[hVn]|--(help|version|no-act))$/.test(t.name)) return [];
    // (`-s` rewrites a symlink's target: where later stages lead through it is not known.)
    if (t.kind === "flag" && /^(-s|--symlink)$/.test(t.name)) return unknown;
    if (t.kind === "flag" && /^(-a|--all)$/.test(t.name)) mode = "all";
    if (t.kind === "flag" && /^(-l|--last)$/.test(t.name)) mode = "last";
    if (t.kind === "operand") operands.push(args[t.at]);
  }
  const [from, to] = operands;
  if (!from || !to) return [];
  // (A glob as TO: its first match is TO, the others are files.)
  const files = operands.slice(to.kind === "glob" ? 1 : 2);
  if (from.kind !== "static") return files.length || to.kind !== "static" ? unknown : [];
  const put = (s: string) => {
    if (from.value === "" || to.kind !== "static") return s;
    const at = mode === "last" ? s.lastIndexOf(from.value) : s.indexOf(from.value);
    if (at < 0) return s;
    if (mode === "all") return s.split(from.value).join(to.value);
    return s.slice(0, at) + to.value + s.slice(at + from.value.length);
  };
  const out: NamedFile[] = [];
  for (const w of files) {
    if (w.kind === "static") {
      const cut = w.value.lastIndexOf("/") + 1;
      if (!w.value.includes(from.value)) continue;
      if (to.kind !== "static") return unknown;
      for (const path of new Set([put(w.value), w.value.slice(0, cut) + put(w.value.slice(cut))])) {
        if (path !== w.value) out.push({ path, source });
      }
      continue;
    }
    // (FROM holds a `/` and a glob's matches none past its static directory: nothing to put.)
    const dir = w.prefix.slice(0, w.prefix.lastIndexOf("/") + 1);
    const inName = w.kind === "glob" && !w.text.slice(dir.length).includes("/");
    if (inName && from.value.includes("/") && !dir.includes(from.value)) continue;
    if (!inName || to.kind !== "static" || to.value.includes("/") || dir.includes(from.value)) {
      return unknown;
    }
    out.push(...utilGlobRenamed(w.text, dir, from.value, to.value, mode, source));
  }
  return out;
}

/**
 * The names util-linux's rename makes of a glob's matches in its directory `dir`: where the glob
 * ends in FROM (`*.js`), each ends in TO (or in FROM still, where only an earlier one was put);
 * else any name there, a dot name too unless none can be made (FROM starts with `.`, which a
 * match of a glob not starting with one has nowhere first, or TO does not).
 */
function utilGlobRenamed(
  glob: string,
  dir: string,
  from: string,
  to: string,
  mode: "first" | "all" | "last",
  source: string,
): NamedFile[] {
  const escape = (t: string) => t.replace(/[*?[\]\\]/g, "\\$&");
  const base = glob.slice(dir.length);
  const dotless = !base.startsWith(".") && (from.startsWith(".") || !to.startsWith("."));
  if (dotless && /^[\w./*?-]+$/.test(glob) && !/[*?]/.test(from) && glob.endsWith(from)) {
    const head = glob.slice(0, glob.length - from.length);
    const out = [{ path: head + escape(to), source, pattern: true }];
    if (mode === "first") out.push({ path: glob, source, pattern: true });
    return out;
  }
  const out = [{ path: escape(dir) + "*", source, pattern: true }];
  if (!dotless) out.push({ path: escape(dir) + ".*", source, pattern: true });
  return out;
}

/** What a renamer writes besides its operands, by the name it is called. */
function renamed(argv: Word[], stage?: Stage): NamedFile[] {
  const name = programName(argv[0]);
  const args = argv.slice(1);
  if (name === "rename.ul") return utilRenamed(args);
  if (name !== "rename") return perlRenamed(args, stage);
  // (`rename` is either: both readings count.)
  return [...perlRenamed(args, stage), ...utilRenamed(args)];
}

/** The renamers: they delete and make names, and change what is below a directory they move. */
export const RENAMER_PROGRAMS: Program[] = [
  {
    names: ["rename", "rename.ul", "prename", "file-rename", "perl-rename"],
    replacesTrees: true,
    evaluates: renamerEval,
    namedFiles: renamed,
  },
];
