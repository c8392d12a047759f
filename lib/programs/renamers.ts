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
import type { GlobWords, NamedFile, NamedFilesGiven, Program } from "./spec.ts";
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
 * A glob whose last name ends in literal text, of an edit that puts text at the start or the end
 * of each name (`s/^/old_/`, `s/$/.bak/`): the glob with that text there. Null for another.
 */
function endsRenamed(glob: string, edits: Edit[]): string[] | null {
  const e = edits[0];
  if (edits.length !== 1 || !("re" in e) || e.text === null || !/^[\w./*?-]+$/.test(glob)) {
    return null;
  }
  const cut = glob.lastIndexOf("/") + 1;
  const text = e.text.replace(/[*?[\]\\]/g, "\\$&");
  if (e.perl === "^") return [glob.slice(0, cut) + text + glob.slice(cut)];
  // (`$` is also before a last newline: a name ending in literal text has none.)
  if (e.perl === "$" && /[^*?/]$/.test(glob)) return [glob + text];
  return null;
}

/**
 * A glob of literal text and `*`, `?` (`*.JPG`), of transliterations (`y/A-Z/a-z/`): its literal
 * characters transliterated (`*.jpg`), what a wildcard matched still matched by one (a `y///`
 * set makes no `/` and no glob character). Null for another edit or glob.
 */
function trRenamed(glob: string, edits: Edit[]): string[] | null {
  if (!/^[\w./*?-]+$/.test(glob) || edits.some((e) => "re" in e)) return null;
  const cut = glob.lastIndexOf("/") + 1;
  let name = glob.slice(cut);
  for (const e of edits) {
    if ("re" in e) return null;
    name = [...name].map((c) => (e.from.includes(c) ? e.to[e.from.indexOf(c)] : c)).join("");
  }
  return [glob.slice(0, cut) + name];
}

/**
 * The patterns of the names starting with `.` a name pattern (a last name, its directory before)
 * matches where a `*` or `?` may match that `.`: a name the glob's `*` matched in the middle that
 * an edit brings to the front (`s/^x//` of `x*` makes `.env` of `x.env`), or a match under dotglob.
 */
function dotVariants(pattern: string): string[] {
  const cut = pattern.lastIndexOf("/") + 1;
  const [dir, name] = [pattern.slice(0, cut), pattern.slice(cut)];
  const out: string[] = [];
  // (Each `*` at the front may match the `.` and more, or nothing.)
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === "*") {
      out.push(dir + "." + name.slice(i));
      continue;
    }
    if (c === "?") out.push(dir + "." + name.slice(i + 1));
    else if (c === ".") out.push(dir + name.slice(i));
    else if (c === "[") out.push(dir + ".*");
    break;
  }
  return out;
}

/** Names that may be made, as patterns: with their dot names unless `dotless`. */
function patterns(paths: string[], dotless: boolean, source: string): NamedFile[] {
  const all = dotless ? paths : [...paths, ...paths.flatMap(dotVariants)];
  return [...new Set(all)].map((path) => ({ path, source, pattern: true }));
}

/**
 * The names a glob operand's renamed matches may take: names in the directory it lists (its
 * static prefix up to the last `/`), a dot name too unless each edit starts at a `.` past the
 * first character (`s/\.txt$/.md/` of `*.txt`) or puts another character first, and no match
 * starts with `.` (not under dotglob). Null where a match may leave that directory: an edit that
 * may match a `/`, look past its match, make a `/` or match in the directory's part of the path
 * (Perl edits the whole path).
 */
function globRenamed(w: Word, edits: Edit[], dotglob: boolean, source: string): NamedFile[] | null {
  const slash = w.prefix.lastIndexOf("/");
  const dir = w.prefix.slice(0, slash + 1);
  if (w.text.slice(dir.length).includes("/")) return null;
  if (touchesSlash(edits, dir !== "") || edits.some((e) => "re" in e && dir && e.re.test(dir))) {
    return null;
  }
  if (edits.some((e) => !("re" in e) && [...dir].some((c) => e.from.includes(c)))) return null;
  const escaped = dir.replace(/[*?[\]\\]/g, "\\$&");
  // (A name not starting with `.` gets one only from an edit that may put one first: not one
  // of literal text starting with `.`, nor one whose replacement starts with another character.)
  const dotless = !dotglob && !w.prefix.slice(dir.length).startsWith(".") &&
    edits.every((e) =>
      "re" in e
        ? /^\\\.(?:[\w-]|\\[.\-_])*\$?$/.test(e.perl) ||
          (typeof e.parts[0] === "string" && e.parts[0] !== ".")
        : !e.to.includes(".")
    );
  const known = suffixRenamed(w.text, edits) ?? prefixRenamed(w.text, edits) ??
    endsRenamed(w.text, edits) ?? trRenamed(w.text, edits);
  return patterns(known ?? [escaped + "*"], dotless, source);
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
 * What Perl's rename writes: each name its expression makes of an operand (or of stdin's), and
 * the operands it leaves as they are. Code it does not reproduce may do anything, even with `-n`
 * or no name to rename (it is compiled first: `BEGIN{…}`, and run on each name before `-n` is
 * looked at).
 */
function perlRenamed(args: Word[], dotglob: boolean, stage?: Stage): NamedFile[] {
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
      // (A name the edit leaves as it is, it does not touch.)
      const path = w.value.slice(0, cut) + name;
      out.push(path === w.value ? { path, source, unchanged: true } : { path, source });
      continue;
    }
    const names = w.kind === "glob" && !call.basenames
      ? globRenamed(w, edits, dotglob, source)
      : null;
    if (names === null) return unknown;
    out.push(...names);
  }
  return out;
}

/**
 * A name as util-linux's rename makes it of `s`: TO for FROM, looked for from `start` (the last
 * component's `/`, or 0: the whole path where FROM or TO holds a `/`, or before 2.29); an empty
 * FROM is found right there (`rename '' A x` makes `Ax`, of `d/x` `dA/x`). Null where it finds
 * none.
 */
function utilPut(
  s: string,
  start: number,
  from: string,
  to: string,
  mode: "first" | "all" | "last",
): string | null {
  const at = mode === "last" ? s.lastIndexOf(from) : s.indexOf(from, start);
  if (at < start) return null;
  if (mode === "all") return s.slice(0, at) + s.slice(at).split(from).join(to);
  return s.slice(0, at) + to + s.slice(at + from.length);
}

/**
 * util-linux's rename: FROM put as TO in each name (both readings of where it looks), and the
 * operands it leaves as they are. FROM the same as TO renames nothing.
 */
function utilRenamed(args: Word[], dotglob: boolean): NamedFile[] {
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
  let symlinks = false;
  const operands: Word[] = [];
  // (getopt_long reads its options among the operands too: `rename.ul a b link -s`.)
  for (const t of readOptions(values, UTIL)) {
    if (t.kind === "dynamic") return unknown;
    // (An option it does not have: it stops with its usage, renaming nothing.)
    if (t.kind === "unknown") return [];
    if (t.kind === "flag" && /^(-[hVn]|--(help|version|no-act))$/.test(t.name)) return [];
    if (t.kind === "flag" && /^(-s|--symlink)$/.test(t.name)) symlinks = true;
    if (t.kind === "flag" && /^(-a|--all)$/.test(t.name)) mode = "all";
    if (t.kind === "flag" && /^(-l|--last)$/.test(t.name)) mode = "last";
    if (t.kind === "operand") operands.push(args[t.at]);
  }
  const [from, to] = operands;
  if (!from || !to) return [];
  // (A glob as TO: its first match is TO, the others are files. FROM and TO are no files.)
  const files = operands.slice(to.kind === "glob" ? 1 : 2);
  const kept = (words: Word[]): NamedFile[] =>
    words.flatMap((w) => w.kind === "static" ? [{ path: w.value, source, unchanged: true }] : []);
  if (from.kind === "static" && to.kind === "static" && from.value === to.value) {
    return kept(operands);
  }
  const out: NamedFile[] = kept(operands.slice(0, operands.length - files.length));
  // (`-s` rewrites a symlink's target: where later stages lead through it is not known. An
  // empty FROM with `-a` or `-l` never ends in 2.38; other versions' are not known.)
  if (symlinks || (from.value === "" && mode !== "first")) return files.length ? unknown : out;
  if (from.kind !== "static") return files.length || to.kind !== "static" ? unknown : out;
  for (const w of files) {
    if (w.kind === "static") {
      if (to.kind !== "static") {
        if (w.value.includes(from.value)) return unknown;
        out.push({ path: w.value, source, unchanged: true });
        continue;
      }
      const inName = !from.value.includes("/") && !to.value.includes("/");
      const starts = new Set([0, inName ? Math.max(w.value.lastIndexOf("/"), 0) : 0]);
      const made = [...starts].map((at) => utilPut(w.value, at, from.value, to.value, mode));
      for (const path of new Set(made)) if (path !== null) out.push({ path, source });
      if (made.every((path) => path === null)) {
        out.push({ path: w.value, source, unchanged: true });
      }
      continue;
    }
    // (FROM holds a `/` and a glob's matches none past its static directory: FROM is found only
    // in that directory, or across its last `/` where that ends FROM's part before its own.)
    const dir = w.prefix.slice(0, w.prefix.lastIndexOf("/") + 1);
    const inName = w.kind === "glob" && !w.text.slice(dir.length).includes("/");
    const lead = from.value.slice(0, from.value.lastIndexOf("/") + 1);
    if (inName && lead !== "" && !dir.includes(from.value) && !dir.endsWith(lead)) continue;
    if (
      !inName || to.kind !== "static" || to.value.includes("/") ||
      (dir !== "" && dir.includes(from.value))
    ) {
      return unknown;
    }
    out.push(...utilGlobRenamed(w.text, dir, from.value, to.value, mode, dotglob, source));
  }
  return out;
}

/**
 * The names util-linux's rename makes of a glob's matches in its directory `dir`: where the glob
 * ends in FROM (`*.js`), each ends in TO (or in FROM still, where only an earlier one was put);
 * an empty FROM puts TO first; else any name there. A dot name too unless none can be made: no
 * match starts with `.` (the glob's last name does not, no dotglob) and FROM is not first in one
 * (it starts with `.`, or the glob's literal start rules it out) or TO puts another character
 * first.
 */
function utilGlobRenamed(
  glob: string,
  dir: string,
  from: string,
  to: string,
  mode: "first" | "all" | "last",
  dotglob: boolean,
  source: string,
): NamedFile[] {
  const escape = (t: string) => t.replace(/[*?[\]\\]/g, "\\$&");
  const base = glob.slice(dir.length);
  const head = base.slice(0, base.search(/[*?[\\]|$/));
  const first = !from.startsWith(".") && (head.startsWith(from) || from.startsWith(head));
  const dotless = !dotglob && !base.startsWith(".") && (!first || /^[^.]/.test(to));
  const simple = /^[\w./*?-]+$/.test(glob);
  if (from === "" && simple) return patterns([dir + escape(to) + base], dotless, source);
  if (simple && !/[*?]/.test(from) && from !== "" && glob.endsWith(from)) {
    const out = [glob.slice(0, glob.length - from.length) + escape(to)];
    if (mode === "first") out.push(glob);
    return patterns(out, dotless, source);
  }
  return patterns([escape(dir) + "*"], dotless, source);
}

/** The words of a renamer's operands, each glob's matches where bash's are known now. */
function expanded(args: Word[], globs: GlobWords | undefined): Word[] {
  if (!globs || !args.some((w) => w.kind === "glob")) return args;
  return args.flatMap((w) => {
    const words = w.kind === "glob" ? globs.words(w) : null;
    if (words === null) return [w];
    return words.map((value): Word => ({ value, kind: "static", prefix: value, text: w.text }));
  });
}

/**
 * What a renamer writes besides its operands, by the name it is called, and the operands it
 * leaves as they are. Its globs' matches are renamed as they are now where bash's are known.
 */
function renamed(argv: Word[], stage?: Stage, given?: NamedFilesGiven): NamedFile[] {
  const globs = given?.globs;
  const name = programName(argv[0]);
  const args = expanded(argv.slice(1), globs);
  // (Without being told, a glob's matches may start with `.`.)
  const dotglob = globs?.dotglob ?? true;
  if (name === "rename.ul") return utilRenamed(args, dotglob);
  if (name !== "rename") return perlRenamed(args, dotglob, stage);
  // (`rename` is either: both readings count, and an operand is left as it is where both leave it.)
  const perl = perlRenamed(args, dotglob, stage);
  const util = utilRenamed(args, dotglob);
  const kept = new Set(util.filter((f) => f.unchanged).map((f) => f.path));
  return [
    ...perl.filter((f) => !f.unchanged || kept.has(f.path)),
    ...util.filter((f) => !f.unchanged),
  ];
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
