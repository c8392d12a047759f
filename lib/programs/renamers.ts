/**
 * Renamers that compute the new names: Perl's `rename` (Debian's `rename`, `prename`,
 * `file-rename`, `perl-rename`), whose first operand (or `-e`/`-E`) is a Perl expression run on
 * each name in `$_`, and util-linux's `rename FROM TO FILE…` (`rename.ul` on Debian), which puts
 * TO for the first FROM in each name (in the last component unless FROM holds a `/`; in the
 * whole path before util-linux 2.29; `-a` every one, `-l` the last). `rename` may be either.
 *
 * What they write is judged where it lands: the exact new path where it can be computed (a
 * static name, util-linux's words, a Perl `s///` or `y///` of plain regex syntax), else names not
 * known in the directory a glob operand lists (`*.txt`), else a name not known anywhere.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { NamedFile, Program } from "./spec.ts";
import { programName, standardInput } from "./words.ts";

/** Perl rename's options (File::Rename): `-e`/`-E` take code, `-u` an optional encoding. */
const PERL: OptionGrammar = {
  flags: "v0nfdhmVu",
  valued: "eE",
  // deno-fmt-ignore
  longFlags: new Set(["--verbose", "--null", "--nono", "--force", "--path", "--fullpath",
    "--filename", "--nopath", "--nofullpath", "--help", "--man", "--version", "--unicode"]),
  abbreviations: true,
};
/** util-linux rename's options (all flags). */
const UTIL: OptionGrammar = {
  flags: "vsnaloihV",
  // deno-fmt-ignore
  longFlags: new Set(["--verbose", "--symlink", "--no-act", "--all", "--last", "--no-overwrite",
    "--interactive", "--help", "--version"]),
  abbreviations: true,
};

/** One Perl statement the renamer reproduces: a regex substitution or a transliteration. */
type Edit = { re: RegExp; to: string } | { from: string; to: string };

/** Regex syntax Perl and JavaScript read alike (no code, no interpolation, no Perl-only forms). */
const PLAIN_RE = /^(?:[\w ,=:%+~#!/-]|\\[\\.\-_/()[\]{}*+?^$|dwsDWSb]|[.*+?()|[\]{}^$]|\(\?:)*$/;
/** A replacement of text and `$1`/`${1}`/`$&` only. */
const PLAIN_TO = /^(?:[\w .,=:%+~#!/-]|\$\d|\$\{\d\}|\$&)*$/;

/** The text of one delimited part of a statement from `at`, and where it ends. */
function delimited(code: string, at: number, d: string): [string, number] | null {
  let out = "";
  for (let i = at; i < code.length; i++) {
    if (code[i] === "\\" && code[i + 1] === d) {
      out += d === "/" ? "\\/" : d;
      i++;
    } else if (code[i] === "\\") {
      out += code.slice(i, i + 2);
      i++;
    } else if (code[i] === d) return [out, i + 1];
    else out += code[i];
  }
  return null;
}

/** A `y/a-z/A-Z/` set as the characters it lists. */
function trSet(set: string): string | null {
  if (!/^[\w.-]*$/.test(set)) return null;
  let out = "";
  for (let i = 0; i < set.length; i++) {
    if (set[i + 1] === "-" && i + 2 < set.length) {
      const [a, b] = [set.charCodeAt(i), set.charCodeAt(i + 2)];
      if (b < a) return null;
      for (let c = a; c <= b; c++) out += String.fromCharCode(c);
      i += 2;
    } else out += set[i];
  }
  return out;
}

/**
 * The statements of a Perl expression the renamer reproduces exactly, or null: `s/RE/TO/` with
 * flags `g` and `i` only, `y/ABC/XYZ/` (or `tr`) without flags, separated by `;`.
 */
export function perlEdits(code: string): Edit[] | null {
  const out: Edit[] = [];
  let i = 0;
  while (i < code.length) {
    const m = /^[\s;]*(s|y|tr)([^\w\s{}()<>[\]])/.exec(code.slice(i));
    if (!m) return /^[\s;]*$/.test(code.slice(i)) && out.length ? out : null;
    const d = m[2];
    const re = delimited(code, i + m[0].length, d);
    const to = re && delimited(code, re[1], d);
    if (!re || !to) return null;
    const flags = /^[a-z]*/.exec(code.slice(to[1]))![0];
    i = to[1] + flags.length;
    if (m[1] === "s") {
      // (`\.` in a replacement is a `.`, `\/` a `/`.)
      const text = to[0].replace(/\\([./_,=:%+~#!-])/g, "$1");
      const plain = PLAIN_TO.test(text);
      if (!/^[gi]*$/.test(flags) || !PLAIN_RE.test(re[0]) || !plain) return null;
      const replacement = text.replace(/\$\{(\d)\}/g, "$$$1");
      try {
        out.push({ re: new RegExp(re[0], flags), to: replacement });
      } catch {
        return null;
      }
    } else {
      const [from, into] = [trSet(re[0]), trSet(to[0])];
      if (flags || from === null || into === null || into.length === 0) return null;
      out.push({ from, to: into.padEnd(from.length, into[into.length - 1]) });
    }
  }
  return out.length ? out : null;
}

/** A name after the edits. */
function edited(name: string, edits: Edit[]): string {
  let out = name;
  for (const e of edits) {
    if ("re" in e) out = out.replace(e.re, e.to);
    else out = [...out].map((c) => (e.from.includes(c) ? e.to[e.from.indexOf(c)] : c)).join("");
  }
  return out;
}

/** Whether an edit may change a `/` or make one (it then moves a name to another directory). */
function touchesSlash(edits: Edit[]): boolean {
  return edits.some((e) =>
    "re" in e
      ? e.to.includes("/") || e.re.test("/") || /\\W|\\S|\\D|\[\^|\\\//.test(e.re.source)
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
    if (!("re" in e) || e.re.ignoreCase || e.to.includes("$")) return null;
    const m = /^\\\.((?:[\w-]|\\[.-])*)(\$?)$/.exec(e.re.source);
    if (!m) return null;
    const suffix = "." + m[1].replace(/\\/g, "");
    // (The suffix must be the glob's own text: `*.txt`, not `*.t?t`.)
    if (!out.endsWith(suffix) || /[*?]/.test(suffix)) return null;
    const head = out.slice(0, out.length - suffix.length);
    if (m[2] === "") {
      if (edits.length > 1) return null;
      const dir = glob.slice(0, glob.lastIndexOf("/") + 1);
      return e.re.global
        ? [dir + "*" + escape(e.to)]
        : [head + escape(e.to), dir + "*" + escape(suffix)];
    }
    out = head + escape(e.to);
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
  if (edits.length !== 1 || !("re" in e) || e.re.flags !== "" || e.to.includes("$")) return null;
  const m = LITERAL_RE.exec(e.re.source);
  if (!m || !/^[\w./*?-]+$/.test(glob) || glob.slice(glob.lastIndexOf("/") + 1).includes("/")) {
    return null;
  }
  const lit = m[2].replace(/\\(.)/g, "$1");
  const dir = glob.slice(0, glob.lastIndexOf("/") + 1);
  const name = glob.slice(dir.length);
  const head = name.slice(0, name.search(/[*?]|$/));
  const escape = (t: string) => t.replace(/[*?[\]\\]/g, "\\$&");
  const at = m[1] ? (head.startsWith(lit) ? 0 : -1) : head.indexOf(lit);
  if (at >= 0 && at + lit.length <= head.length) {
    return [
      dir + escape(head.slice(0, at) + e.to + head.slice(at + lit.length)) +
      name.slice(head.length),
    ];
  }
  if (!m[1] || name === head) return null;
  const tail = name.slice(name.search(/[^*?]*$/));
  for (let k = 1; k <= Math.min(lit.length, tail.length); k++) {
    if (lit.endsWith(tail.slice(0, k))) return null;
  }
  if (tail === "" || e.to.includes("/") || !/^[\w.-]*$/.test(e.to)) return null;
  const out = [glob, dir + escape(e.to) + "*" + escape(tail)];
  if (e.to === "") out.push(dir + escape(tail));
  return out;
}

/**
 * The names a glob operand's renamed matches may take: names in the directory it lists (its
 * static prefix up to the last `/`), a dot name too unless each edit starts at a `.` past the
 * first character (`s/\.txt$/.md/` of `*.txt`). Null where a match may leave that directory.
 */
function globRenamed(w: Word, edits: Edit[], source: string): NamedFile[] | null {
  const slash = w.prefix.lastIndexOf("/");
  const dir = w.prefix.slice(0, slash + 1);
  if (w.text.indexOf("/", dir.length) !== -1 && w.text.slice(dir.length).includes("/")) return null;
  // (An edit that may match in the directory's part of the path may change it.)
  if (touchesSlash(edits) || edits.some((e) => "re" in e && e.re.test(dir))) return null;
  if (edits.some((e) => !("re" in e) && [...dir].some((c) => e.from.includes(c)))) return null;
  const escaped = dir.replace(/[*?[\]\\]/g, "\\$&");
  const suffixed = suffixRenamed(w.text, edits) ?? prefixRenamed(w.text, edits);
  if (suffixed !== null) return suffixed.map((path) => ({ path, source, pattern: true }));
  const out: NamedFile[] = [{ path: escaped + "*", source, pattern: true }];
  const dotless = !w.prefix.slice(dir.length).startsWith(".") &&
    edits.every((e) => "re" in e && e.re.source.startsWith("\\."));
  if (!dotless) out.push({ path: escaped + ".*", source, pattern: true });
  return out;
}

/** What Perl's rename writes: each name its expression makes of an operand (or of stdin's). */
function perlRenamed(args: Word[], stage?: Stage): NamedFile[] {
  const source = "(the names rename makes)";
  const unknown: NamedFile[] = [{ path: null, source }];
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  const code: string[] = [];
  const files: Word[] = [];
  let basenames = false;
  for (const t of readOptions(values, PERL)) {
    if (t.kind === "dynamic") return unknown;
    // (An option it does not have: it stops with its usage, renaming nothing.)
    if (t.kind === "unknown") return [];
    if (t.kind === "valued") {
      const v = t.glued ?? (t.valueAt === undefined ? null : values[t.valueAt]);
      if (v === null) return unknown;
      code.push(v);
    } else if (t.kind === "flag") {
      // (`-u` may take the next word as an encoding; `-h`, `-m`, `-V` rename nothing.)
      if (/^(-[hmVn]|--(help|man|version|nono))$/.test(t.name)) return [];
      if (/^(-u|--unicode)$/.test(t.name)) return unknown;
      if (/^(-d|--filename|--nopath|--nofullpath)$/.test(t.name)) basenames = true;
    } else if (t.kind === "operand" || t.kind === "end") {
      files.push(...args.slice(t.kind === "end" ? t.at + 1 : t.at));
      break;
    }
  }
  // (Without `-e`/`-E`, the first operand is the expression.)
  if (!code.length) {
    const first = files.shift();
    if (first?.kind !== "static") return first ? unknown : [];
    code.push(first.value);
  }
  // (An expression Perl reads as a number or fails to compile changes no name: `.js`, the
  // util-linux reading's FROM, is a syntax error there.)
  if (code.length === 1 && /^(\.|\d)[\w.]*$/.test(code[0])) return [];
  const edits = perlEdits(code.join(";"));
  // (No file operand: it renames the names its standard input gives, none where it has none.)
  if (files.length === 0 && stage && standardInput(stage).from === "nothing") return [];
  if (edits === null || files.length === 0) return unknown;
  const out: NamedFile[] = [];
  for (const w of files) {
    if (w.kind === "static") {
      const cut = basenames ? w.value.lastIndexOf("/") + 1 : 0;
      const path = w.value.slice(0, cut) + edited(w.value.slice(cut), edits);
      if (path !== w.value) out.push({ path, source });
      continue;
    }
    const names = w.kind === "glob" ? globRenamed(w, edits, source) : null;
    if (names === null) return unknown;
    out.push(...names);
  }
  return out;
}

/** util-linux's rename: FROM put as TO in each name (both readings of where it looks). */
function utilRenamed(args: Word[]): NamedFile[] {
  const source = "(the names rename makes)";
  const unknown: NamedFile[] = [{ path: null, source }];
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  let mode: "first" | "all" | "last" = "first";
  let operands: Word[] = [];
  for (const t of readOptions(values, UTIL)) {
    if (t.kind === "dynamic") return unknown;
    // (An option it does not have: it stops with its usage, renaming nothing.)
    if (t.kind === "unknown") return [];
    if (t.kind === "flag" && /^(-[hVn]|--(help|version|no-act))$/.test(t.name)) return [];
    // (`-s` rewrites a symlink's target: where later stages lead through it is not known.)
    if (t.kind === "flag" && /^(-s|--symlink)$/.test(t.name)) return unknown;
    if (t.kind === "flag" && /^(-a|--all)$/.test(t.name)) mode = "all";
    if (t.kind === "flag" && /^(-l|--last)$/.test(t.name)) mode = "last";
    if (t.kind === "operand" || t.kind === "end") {
      operands = args.slice(t.kind === "end" ? t.at + 1 : t.at);
      break;
    }
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
    namedFiles: renamed,
  },
];
