/**
 * The C compiler drivers (gcc, g++, cc, c++, clang, clang++) and the tools they run: the linker
 * (ld), the assembler (as) and the preprocessor (cpp). The files a driver's words name, its own
 * options' (`-o F`, `-MF F`, `-include F`, `@F`, `-specs=F`, `-fprofile-use=F`) and those inside
 * the lists it passes on (`-Wl,-o,F`, `-Wl,-Map=F`, `-Wa,-al=F`, `-Wp,-MD,F`, `-Xlinker -o
 * -Xlinker F`), which are read with the grammar of the tool they go to; and gcc's `-wrapper
 * PROG,ARGS`, which runs each of its subprocesses through PROG.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { staticValue } from "./command_words.ts";
import type { NamedFile, NamedFilesGiven, Program } from "./spec.ts";
import type { OptionGrammar } from "./argv.ts";
import { programName } from "./words.ts";
import {
  driverCommands,
  RESPONSE_DEPTH,
  responseExpanded,
  responseWords,
} from "./compiler_commands.ts";
import { linkerScriptNames, mriScriptNames } from "./linker_scripts.ts";

export { responseWords };

/**
 * What an option's value is: a file the tool reads or writes (`file`; `eqfile`: given only after
 * `=`, the word alone takes no value), a directory it writes below by names of its own (`below`),
 * or no file (`text`: a symbol, a library's name, a path only recorded, as `-rpath`'s).
 */
type ValueKind = "file" | "eqfile" | "below" | "text" | "eq";

/**
 * A tool's options that take a value, by name without dashes (one letter: a short option, its
 * value glued or the next word; more: a long one, `--name=V`, `-name=V`, `--name V`; `eq`: text
 * given only after `=`, the word alone takes no value), and whether its other words (operands)
 * are files it reads.
 */
interface ToolGrammar {
  valued: ReadonlyMap<string, ValueKind>;
  operands: boolean;
  /** A word read otherwise (as's `-al=F`): its file, or undefined where it is no such word. */
  special?: (word: string) => string | null | undefined;
  /**
   * Long options may be abbreviated, with one dash or two (getopt_long_only: ld's `--outp=F`,
   * `-Ma=F`): a name that begins valued options' names is read as each of them.
   */
  abbreviated?: boolean;
  /**
   * The options of more than one letter that name a file take it joined too (gcc's
   * `-iquoteDIR`, `-MFfile`), longest first; none where they do not.
   */
  joined?: readonly string[];
  /** The options whose value is a script the tool reads for the files it names (ld's `-T F`). */
  scripts?: ReadonlyMap<string, "linker" | "mri">;
  /** Its operands that are no source go to the linker, which reads a text one as a script. */
  linkerInputs?: boolean;
}

const grammar = (
  kinds: Partial<Record<ValueKind, string>>,
  operands: boolean,
  how: {
    special?: ToolGrammar["special"];
    abbreviated?: boolean;
    joined?: boolean;
    scripts?: ToolGrammar["scripts"];
    linkerInputs?: boolean;
  } = {},
): ToolGrammar => {
  const valued = new Map(
    Object.entries(kinds).flatMap(([kind, names]) =>
      names!.split(" ").map((n) => [n, kind as ValueKind] as const)
    ),
  );
  const joined = how.joined
    ? [...valued].filter(([n, k]) => n.length > 1 && (k === "file" || k === "below"))
      .map(([n]) => n).sort((a, b) => b.length - a.length)
    : undefined;
  return { ...how, valued, operands, joined };
};

/**
 * The files lld's `-plugin-opt=KEY=F` names (its Options.td: aliases of `--lto-obj-path=`,
 * `--lto-cs-profile-file=`, `--opt-remarks-filename`, …, and `dwo_dir=` where it writes `.dwo`s).
 */
const LD_PLUGIN_FILE =
  /^--?plugin-opt=(?:obj-path|cs-profile-path|opt-remarks-filename|sample-profile|stats-file|thinlto-index-only|time-trace|dwo_dir)=([\s\S]+)$/;

/** ld(1) (GNU ld, gold, lld, mold): its options that name files and those that take text. */
const LD = grammar(
  {
    file: "o output T script dT default-script c mri-script R just-symbols Map version-script " +
      "dynamic-list retain-symbols-file dependency-file plugin error-handling-script out-implib " +
      "output-def section-ordering-file reproduce why-extract print-archive-stats lto-obj-path " +
      "symbol-ordering-file call-graph-ordering-file remap-inputs-file separate-debug-file " +
      "time-trace-file export-dynamic-symbol-list L library-path rpath-link sysroot " +
      "incremental-base print-symbol-order opt-remarks-filename in-implib irpgo-profile " +
      "load-pass-plugin",
    eqfile: "lto-cs-profile-file lto-sample-profile thinlto-index-only time-trace",
    below: "thinlto-cache-dir chroot",
    text: "a A b format e entry f auxiliary F filter G h soname l library m O u undefined " +
      "require-defined y trace-symbol Y z defsym wrap exclude-libs exclude-symbols rpath " +
      "dynamic-linker I hash-style build-id image-base section-start Tbss Tdata Ttext " +
      "Ttext-segment Trodata-segment Tldata-segment plugin-opt package-metadata audit P depaudit " +
      "init fini mllvm heap stack subsystem spare-dynamic-tags thread-count " +
      "exclude-modules-for-implib version-exports-section",
    eq: "build-id threads error-limit icf compress-debug-sections unresolved-symbols " +
      "orphan-handling sort-section split-by-file split-by-reloc hash-style",
  },
  true,
  {
    abbreviated: true,
    special: (w) => LD_PLUGIN_FILE.exec(w)?.[1],
    scripts: new Map([
      ["T", "linker"],
      ["script", "linker"],
      ["dT", "linker"],
      ["default-script", "linker"],
      ["c", "mri"],
      ["mri-script", "mri"],
    ]),
  },
);

/** as(1): `-o F`, `--MD F`, `-I DIR`, and a listing written to a file (`-al=F`, `-adhln=F`). */
const AS = grammar(
  {
    file: "o MD I",
    text: "defsym debug-prefix-map",
    eq: "march mcpu mtune mfpu listing-lhs-width listing-lhs-width2 listing-rhs-width " +
      "listing-cont-lines",
  },
  true,
  { special: (w) => /^--?a[a-z]*=([\s\S]+)$/.exec(w)?.[1], abbreviated: true },
);

/** cpp(1) and cc1 (`-Wp,…`): `-MD F` and `-MMD F` write the dependencies to F. */
const CPP = grammar(
  {
    file: "o MF MD MMD include imacros I iquote isystem idirafter isysroot sysroot iprefix " +
      "iwithprefix iwithprefixbefore imultilib dependency-file include-pch load",
    text: "D U A MT MQ x main-file-name add-plugin plugin target-feature mllvm triple target-cpu",
    eq: "std",
  },
  true,
  { joined: true },
);

/** clang's cc1 (`-Xclang …`): its operands are mostly values of its own options. */
const CC1: ToolGrammar = { ...CPP, operands: false };

/**
 * The compiler driver's own options. `f…=`/`-W…` options are read apart (see `driverFiles`);
 * the lists it passes on (`-Wl,`, `-Xlinker`) go to the tools' grammars.
 */
const DRIVER = grammar(
  {
    file: "o output MF include imacros T specs aux-info include-pch MJ serialize-diagnostics " +
      "ivfsoverlay config I iquote isystem idirafter isysroot sysroot iprefix iwithprefix " +
      "iwithprefixbefore imultilib L B ld-path",
    below: "dumpdir J",
    text: "x MT MQ D U A l u e z dumpbase dumpbase-ext target arch param wrapper " +
      "Xopenmp-target mllvm",
    eq: "std",
  },
  false,
  { joined: true, scripts: new Map([["T", "linker"]]), linkerInputs: true },
);

/** `-f…=VALUE` options whose value names a file or a directory (written below). */
const F_FILES =
  /^-f(?:profile-(?:use|generate|dir|instr-generate|instr-use|sample-use|list|note|remapping-file)|auto-profile|cs-profile-generate|plugin|pass-plugin|sanitize-(?:ignorelist|blacklist|system-ignorelist|coverage-allowlist|coverage-ignorelist|coverage-whitelist|coverage-blacklist)|xray-(?:attr-list|always-instrument|never-instrument)|module-map-file|module-file|modules-cache-path|crash-diagnostics-dir|time-trace|optimization-record-file|opt-info[\w-]*|dump-[\w-]+|randomize-layout-seed-file|use-ld|thinlto-index|embed-offload-object)=([\s\S]+)$/;

/** gcc 15's diagnostics written to a file: `-fdiagnostics-add-output=sarif:file=F` (`set` too). */
const DIAGNOSTICS_OUTPUT = /^-fdiagnostics-(?:add|set)-output=[\w-]*:(?:[^,]*,)*?file=([^,]+)/;

/** Of the `-f…=` options, those naming a directory written below by names of its own. */
const F_BELOW =
  /^-f(?:profile-(?:generate|dir)|cs-profile-generate|modules-cache-path|crash-diagnostics-dir)=/;

/** A word of a tool's arguments: its value, or null where it is not known. */
type Arg = string | null;

/** What reading a tool's words finds, and how (`source`). */
interface Reading {
  files: NamedFile[];
  source: string;
  read?: (path: string) => string | null;
}

/** A file `value` names (`~` is not expanded inside a word: `./~/…`). */
function file(r: Reading, value: string, kind: ValueKind = "file"): void {
  if (kind === "text" || kind === "eq" || value === "" || value === "-") return;
  const path = value.startsWith("~") ? `./${value}` : value;
  r.files.push(
    kind === "below" ? { path, source: r.source, below: true } : { path, source: r.source },
  );
}

/** An option's file (`name`: without dashes), read as a script where it is one (`-T F`). */
function valueFile(r: Reading, g: ToolGrammar, name: string, value: string, kind: ValueKind) {
  file(r, value, kind);
  const script = g.scripts?.get(name);
  if (script && kind !== "text" && kind !== "eq") scriptFiles(r, value, script, 0);
}

/**
 * The files a linker script names, each opened (`OUTPUT(F)` written, `INPUT(F)` read), its
 * `INCLUDE`s read in turn: where its text is not known (another stage writes it first), files
 * not known.
 */
function scriptFiles(r: Reading, path: string, how: "linker" | "mri", depth: number): void {
  const text = depth < RESPONSE_DEPTH && r.read ? r.read(path) : null;
  if (text === null) {
    r.files.push({ path: null, source: `(the files ${r.source}'s script ${path} names)` });
    return;
  }
  const named = how === "mri" ? mriScriptNames(text) : linkerScriptNames(text);
  for (const f of named.files) file(r, f);
  for (const f of named.includes) {
    file(r, f);
    scriptFiles(r, f, how, depth + 1);
  }
}

/**
 * The suffixes of the linker's inputs that are no script: objects, archives, shared libraries;
 * and of the driver's that it compiles (gcc(1) "-x language").
 */
const NOT_SCRIPT =
  /\.(?:o|obj|lo|a|lib|so(?:\.[\d.]+)?|dylib|dll|bc|c|cc|cp|cxx|cpp|CPP|c\+\+|C|i|ii|h|hh|hpp|hxx|H|tcc|m|mi|mm|M|mii|s|S|sx|f|for|ftn|F|FOR|fpp|FPP|FTN|f\d\d|F\d\d|d|di|dd|ads|adb|go|rs|pcm|gch|ll|cu|cl|ispc)$/;

/**
 * An input of the linker (`operand`: named by its words too): ld reads one of a format it does
 * not know as a linker script (`printf 'OUTPUT(…)' > s.ld; ld s.ld x.o`). Read where it is none
 * of an object's or a source's names; one not known, a script's where it has no other name.
 */
function inputFile(r: Reading, path: string, operand: boolean): void {
  if (operand) file(r, path);
  if (NOT_SCRIPT.test(path) || path.startsWith("-")) return;
  const text = r.read ? r.read(path) : null;
  if (text === null) {
    if (/(?:^|\/)[^./]+$|\.(?:ld|lds|x\w*|t|script|lnk)$/.test(path)) {
      r.files.push({ path: null, source: `(the files ${r.source}'s input ${path} may name)` });
    }
    return;
  }
  // (An object or archive of its own name: no script.)
  if (/^(?:\x7fELF|!<arch>|\0|MZ)/.test(text)) return;
  const named = linkerScriptNames(text);
  for (const f of [...named.files, ...named.includes]) file(r, f);
  for (const f of named.includes) scriptFiles(r, f, "linker", 1);
}

/**
 * A tool's words with its response files (`@F`) read in their place, as libiberty's `expandargv`
 * does before ld, as or cpp reads its options: one option's value may be in the next word of
 * another file, or be one itself (`ld @a.rsp @b.rsp` where a.rsp ends with `-o`; `ld -o @f`,
 * `-Wl,-Map,@f`: the first word of f). A file whose text is not known names files not known, and
 * stands for a word not known.
 */
function responsesRead(r: Reading, args: Arg[], depth = 0): Arg[] {
  if (!args.some((a) => a?.startsWith("@") && a.length > 1)) return args;
  const out: Arg[] = [];
  for (const a of args) {
    if (a === null || !a.startsWith("@") || a.length === 1) {
      out.push(a);
      continue;
    }
    const path = a.slice(1);
    file(r, path);
    const text = depth < RESPONSE_DEPTH && r.read ? r.read(path) : null;
    if (text === null) {
      r.files.push({ path: null, source: `(the files ${r.source} names)` });
      out.push(null);
    } else out.push(...responsesRead(r, responseWords(text), depth + 1));
  }
  return out;
}

/** The files a tool's words (`args`, as a pass-through list gives them) name, by its grammar. */
function toolFiles(r: Reading, given: Arg[], g: ToolGrammar): void {
  const args = responsesRead(r, given);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null) continue; // (a word not known: judged as the stage's word it is in)
    if (!a.startsWith("-") || a === "-") {
      if (g.operands || g.linkerInputs) inputFile(r, a, g.operands);
      continue;
    }
    const special = g.special?.(a);
    if (special !== undefined) {
      if (special !== null) file(r, special);
      continue;
    }
    const name = a.replace(/^--?/, "");
    const eq = name.indexOf("=");
    const long = eq > 0 ? g.valued.get(name.slice(0, eq)) : undefined;
    if (long !== undefined && name.slice(0, eq).length > 1) {
      valueFile(r, g, name.slice(0, eq), name.slice(eq + 1), long);
      continue;
    }
    const whole = g.valued.get(name);
    if (whole === "eq" || whole === "eqfile") continue;
    if (whole !== undefined) {
      const value = args[++i];
      if (value) valueFile(r, g, name, value, whole);
      continue;
    }
    if (g.joined && joinedFile(r, a, g)) continue;
    // (An abbreviation read as every option it begins; with one dash, as letters too: ld reads
    // `-outp=F` as `-o utp=F`.)
    if (g.abbreviated && abbreviatedFile(r, name, args[i + 1], g) && a[1] === "-") continue;
    // A short option with its value glued (`-oF`, `-TF`, `-L/dir`) or none.
    const short = a[1] !== "-" ? g.valued.get(a[1]) : undefined;
    if (short !== undefined) valueFile(r, g, a[1], a.slice(2), short);
  }
}

/** A value joined to an option of more letters (`-iquoteDIR`, `-MFfile`): true when one is. */
function joinedFile(r: Reading, a: string, g: ToolGrammar): boolean {
  for (const n of g.joined!) {
    if (a.length > n.length + 1 && a.startsWith(n, 1)) {
      file(r, a.slice(n.length + 1), g.valued.get(n));
      return true;
    }
  }
  return false;
}

/**
 * An abbreviated long option (`outp=F`, `Ma=F`, `scr F`; `name` without its dashes): the files
 * it names read as each valued option it begins (the most a file's: `below`, then `file`), its
 * value after `=` or the next word (left to be read as itself too). True when it begins one.
 */
function abbreviatedFile(r: Reading, name: string, next: Arg | undefined, g: ToolGrammar): boolean {
  const eq = name.indexOf("=");
  const typed = eq < 0 ? name : name.slice(0, eq);
  if (typed === "" || (typed.length < 2 && eq < 0)) return false;
  let kind: ValueKind | undefined;
  for (const [n, k] of g.valued) {
    if (n.length < 2 || !n.startsWith(typed) || (eq < 0 && (k === "eq" || k === "eqfile"))) {
      continue;
    }
    const e = k === "eqfile" ? "file" : k;
    if (kind === undefined || e === "below" || (e === "file" && kind !== "below")) kind = e;
  }
  if (kind === undefined) return false;
  // (A script's options abbreviated: `--scr=F`, `--default-s F`, `--mri F`.)
  const script = [...(g.scripts ?? [])].find(([n]) => n.length > 1 && n.startsWith(typed))?.[0];
  const value = eq >= 0 ? name.slice(eq + 1) : next && !next.startsWith("-") ? next : null;
  if (value !== null) valueFile(r, g, script ?? "", value, kind);
  return true;
}

/**
 * The values of a tool's words: a glob's matches where bash's are known, else the word as
 * written, which bash passes where nothing matches (`-Wl,-o,F,-z,a?`); an option's glob whose
 * matches are not known may be other options as well (`-Wl,-o,x*`): files not known.
 */
function argValues(r: Reading, words: Word[], given?: NamedFilesGiven): Arg[] {
  const out: Arg[] = [];
  for (const w of words) {
    if (w.kind !== "glob") {
      out.push(staticValue(w));
      continue;
    }
    const matches = given?.globs?.words(w) ?? null;
    if (matches !== null) out.push(...matches);
    else {
      out.push(w.value);
      if (w.value.startsWith("-") || w.value.startsWith("@")) {
        r.files.push({ path: null, source: `(the files ${w.text} may name)` });
      }
    }
  }
  return out;
}

/**
 * The files a compiler driver's words name: its own options' values, the lists it passes to the
 * linker, assembler and preprocessor (`-Wl,…`/`-Xlinker`, `-Wa,…`/`-Xassembler`,
 * `-Wp,…`/`-Xpreprocessor`, clang's `-Xclang`), each read by that tool's grammar (a value may
 * be in the next pass-through: `-Wl,-o -Wl,F`), and the files written beside the `-o` output.
 */
export function driverFiles(
  argv: Word[],
  _stage?: Stage,
  given?: NamedFilesGiven,
): NamedFile[] {
  const r: Reading = { files: [], source: programName(argv[0]), read: given?.read };
  const words = responseExpanded(argValues(r, argv.slice(1), given), {
    read: (path) => r.read?.(path) ?? null,
    named: (path) => file(r, path),
    unknown: (word) => {
      r.files.push({ path: null, source: `(the files ${r.source} ${word} names)` });
      return [];
    },
  });
  const lists: Record<"ld" | "as" | "cpp" | "cc1", Arg[]> = { ld: [], as: [], cpp: [], cc1: [] };
  const own: Arg[] = [];
  const beside: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const v = words[i];
    if (v === null || !v.startsWith("-")) {
      // (The driver gives the linker its pass-through words and inputs in order: an option
      // those leave waiting takes the next input, `-Xlinker -o F`, `-Wl,-o F`, and `-Xlinker
      // @F` whose F (the driver's response file) holds `-o F2`.)
      if (v !== null && lists.ld.length && awaitsValue(lists.ld, LD)) lists.ld.push(v);
      own.push(v);
      continue;
    }
    const pass = /^-W([lap]),/.exec(v);
    if (pass) {
      const to = pass[1] === "l" ? "ld" : pass[1] === "a" ? "as" : "cpp";
      lists[to].push(...v.slice(4).split(","));
    } else if (v.startsWith("--for-linker=")) lists.ld.push(v.slice("--for-linker=".length));
    else if (/^-X(linker|assembler|preprocessor|clang)$|^--for-linker$/.test(v)) {
      const to = v === "-Xassembler"
        ? "as"
        : v === "-Xpreprocessor"
        ? "cpp"
        : v === "-Xclang"
        ? "cc1"
        : "ld";
      lists[to].push(words[++i] ?? null);
    } else if (v === "-MD" || v === "-MMD") beside.push(".d");
    else if (v === "-save-temps=obj") beside.push("[.-]*");
    else if (/^-f[\w-]+=/.test(v)) {
      const sarif = DIAGNOSTICS_OUTPUT.exec(v);
      if (sarif) file(r, sarif[1]);
      const m = F_FILES.exec(v);
      if (m) {
        file(
          r,
          /^[\w.-]+=/.test(m[1]) ? m[1].replace(/^[\w.-]+=/, "") : m[1],
          F_BELOW.test(v) ? "below" : "file",
        );
      }
    } else own.push(v);
  }
  toolFiles(r, own, DRIVER);
  if (beside.length) besideOutput(r, own, beside);
  toolFiles(r, lists.ld, LD);
  toolFiles(r, lists.as, AS);
  toolFiles(r, lists.cpp, CPP);
  toolFiles(r, lists.cc1, CC1);
  return r.files;
}

/** Whether a tool's words end with an option waiting for its value (ld's `-o`, `--outp`). */
function awaitsValue(args: Arg[], g: ToolGrammar): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null || !a.startsWith("-") || a === "-" || a.includes("=")) continue;
    const name = a.replace(/^--?/, "");
    const separate = (k: ValueKind) => k !== "eq" && k !== "eqfile";
    const kind = g.valued.get(name);
    const takes = kind !== undefined ? separate(kind) : g.abbreviated === true && name.length > 1 &&
      [...g.valued].some(([n, k]) => n.length > 1 && n.startsWith(name) && separate(k));
    if (!takes) continue;
    if (i + 1 === args.length) return true;
    i++;
  }
  return false;
}

/**
 * The files written beside the `-o` output `dir/x.o`: `-MD`/`-MMD` its dependencies `dir/x.d`,
 * `-save-temps=obj` its intermediate files `dir/x.i`, `dir/x.s` (`dir/x-a.i` of several inputs).
 */
function besideOutput(r: Reading, own: Arg[], suffixes: string[]): void {
  for (let i = 0; i < own.length; i++) {
    const a = own[i];
    const out = a === "-o" || a === "--output"
      ? own[i + 1]
      : a?.startsWith("--output=")
      ? a.slice(9)
      : a?.startsWith("-o")
      ? a.slice(2)
      : null;
    if (!out) continue;
    const stem = out.replace(/(?<=[^/])\.[^./]*$/, "");
    for (const s of suffixes) {
      const path = stem.startsWith("~") ? `./${stem}${s}` : stem + s;
      r.files.push(
        s === ".d" ? { path, source: r.source } : { path, source: r.source, pattern: true },
      );
    }
  }
}

/** The files the linker's, assembler's or preprocessor's own words name. */
function toolNamedFiles(g: ToolGrammar) {
  return (argv: Word[], _stage?: Stage, given?: NamedFilesGiven): NamedFile[] => {
    const r: Reading = { files: [], source: programName(argv[0]), read: given?.read };
    toolFiles(r, argValues(r, argv.slice(1), given), g);
    return r.files;
  };
}

/** `zig cc` and `zig c++` are clang's driver. */
function zigFiles(argv: Word[], stage?: Stage, given?: NamedFilesGiven): NamedFile[] {
  const sub = staticValue(argv[1]);
  return sub === "cc" || sub === "c++" ? driverFiles(argv.slice(1), stage, given) : [];
}

/**
 * The letters that take a file glued (`-obuild/x`, `-Iinclude/`, `-Llib/`, gfortran's `-Jmods`
 * where it writes its modules), for the generic
 * reading of a stage's words (targets.ts): a driver's options are whole words, never clusters,
 * so no other letter of a word takes a value glued (`flags: ""`: the first letter alone is read).
 */
const DRIVER_LETTERS: OptionGrammar = { flags: "", valued: "oILBTFJ" };

/** ld's short options that take a file (`-obuild/x`, `-Llib/`, `-Tx.ld`, `-Rf`, `-cf`). */
const LD_LETTERS: OptionGrammar = { flags: "", valued: "oLTRc" };

/** The compiler drivers and the tools they run. */
export const COMPILER_PROGRAMS: Program[] = [
  {
    names: [
      "gcc",
      "g++",
      "cc",
      "c++",
      "clang",
      "clang++",
      "c89",
      "c99",
      "gfortran",
      "emcc",
      "em++",
    ],
    options: DRIVER_LETTERS,
    optionCommands: driverCommands,
    namedFiles: driverFiles,
  },
  {
    names: ["ld", "ld.bfd", "ld.gold", "ld.lld", "ld.mold", "mold", "gold"],
    options: LD_LETTERS,
    namedFiles: toolNamedFiles(LD),
  },
  {
    names: ["zig"],
    namedFiles: zigFiles,
    optionCommands: (stage, run) => {
      const sub = staticValue(stage.argv[1]);
      if (sub === "cc" || sub === "c++") {
        driverCommands({ ...stage, argv: stage.argv.slice(1) }, run);
      }
    },
  },
  { names: ["as"], namedFiles: toolNamedFiles(AS) },
  { names: ["cpp"], namedFiles: toolNamedFiles(CPP) },
];
