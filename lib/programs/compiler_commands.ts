/**
 * The programs a compiler driver's options make it run or load (gcc(1), clang's Options.td): the
 * directories it finds its programs in (`-B DIR`, `--prefix DIR`, clang's `--gcc-toolchain=DIR`,
 * `--gcc-install-dir=DIR`, `-ccc-install-dir DIR`), judged as `COMPILER_PATH` is (commands not
 * known); the linker it runs (`--ld-path=P`, `-fuse-ld=P` where P is a path), the program each of
 * its subprocesses runs through (gcc's `-wrapper PROG,ARGS`) and the plugins its compilers load
 * (`-fplugin=F`, clang's `-fpass-plugin=F`, `-Xclang -load -Xclang F`), each judged as that
 * program run; and a specs file (`-specs=F`), whose specs name the programs gcc runs and the
 * options it gives them: read where it is known, its programs commands not known.
 *
 * @module
 */
import { dirname } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import { staticValue } from "./command_words.ts";
import type { Runner } from "./spec.ts";
import { literal, programName, unknownWord } from "./words.ts";

/** The words of a response file: split at white space, with quotes and backslashes (gcc's rules). */
export function responseWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && i + 1 < text.length) word = (word ?? "") + text[++i];
    else if (quote) c === quote ? (quote = "") : (word = (word ?? "") + c);
    else if (c === "'" || c === '"') [quote, word] = [c, word ?? ""];
    else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? "") + c;
  }
  if (word !== null) words.push(word);
  return words;
}

/**
 * The options that name a directory the driver runs its programs from: gcc's `-B` (`--prefix`,
 * `--prefix=`, and its abbreviations `--pref`, `--prefi`, which gcc takes apart only), clang's
 * `--gcc-toolchain=`, `--gcc-install-dir=` and `-ccc-install-dir` (its `bin` is searched too).
 */
const PROGRAM_DIRS = /^(?:-B|--prefix=|--gcc-toolchain=|--gcc-install-dir=)/;
const PROGRAM_DIRS_APART = /^(?:-B|--pref(?:ix?)?|-ccc-install-dir|-gcc-toolchain)$/;

/** The options that name a specs file: `-specs=F`, `--specs=F`, apart `--specs F` (`--sp F`). */
const SPECS_JOINED = /^--?specs=/;
const SPECS_APART = /^(?:-specs|--sp(?:e(?:cs?)?)?)$/;

/**
 * The options that name a plugin its compilers load (gcc reads `--plugin=F` as `-fplugin=F`):
 * a short name (no `/`, no `.`) is one of gcc's own plugin directory.
 */
const PLUGIN = /^(?:-fplugin=|--plugin=|-fpass-plugin=|--pass-plugin=)([\s\S]+)$/;

/** The linker it runs: clang's `--ld-path=P`, and `-fuse-ld=P` where P is a path. */
const LINKER = /^(?:--ld-path=|-fuse-ld=|--use-ld=)([\s\S]+)$/;

/** How deep response files naming response files are read. */
export const RESPONSE_DEPTH = 3;

/** How `responseExpanded` reads the files a driver's words name. */
export interface ResponseReading {
  /** A file's text; null where it is not known. */
  read: (path: string) => string | null;
  /** Each response or configuration file named (read or not). */
  named?: (path: string) => void;
  /** What stands in place of `word`, whose file's text is not known. */
  unknown: (word: string) => (string | null)[];
}

/**
 * A compiler driver's words with its response files (`@F`) and clang's configuration files
 * (`--config F`, in which `<CFGDIR>` is the file's directory) read in their place, as far as
 * `RESPONSE_DEPTH`; a null word is a word not known.
 */
export function responseExpanded(
  words: (string | null)[],
  how: ResponseReading,
  depth = 0,
): (string | null)[] {
  const out: (string | null)[] = [];
  for (let i = 0; i < words.length; i++) {
    const a = words[i];
    const config = a === "--config" ? words[++i] : a?.startsWith("--config=") ? a.slice(9) : null;
    const at = config ?? (a?.startsWith("@") && a.length > 1 ? a.slice(1) : null);
    if (at === null) {
      if (config === null) out.push(a);
      continue;
    }
    how.named?.(at);
    let text = depth < RESPONSE_DEPTH ? how.read(at) : null;
    if (text !== null && config !== null) text = text.replaceAll("<CFGDIR>", dirname(at));
    if (text === null) out.push(...how.unknown(a!));
    else out.push(...responseExpanded(responseWords(text), how, depth + 1));
  }
  return out;
}

/** A word's value, or the known start of a word not known where that is an option of these. */
function wordValue(w: Word): string | null {
  const v = staticValue(w);
  if (v !== null) return v;
  const start = w.kind === "dynamic" || w.kind === "glob" ? w.prefix : "";
  return /^-(?:B|-prefix|-gcc-|ccc-|specs|-specs|wrapper|-ld-path|fuse-ld=\/|f(?:pass-)?plugin=)/
      .test(start)
    ? `\0${w.text}`
    : null;
}

/** What the driver's words make it run, into `run` (gcc(1) `-B`, `-wrapper`, `-specs`). */
export function driverCommands(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]) || "gcc";
  const words = responseExpanded(stage.argv.slice(1).map(wordValue), {
    read: (path) => run.read(path),
    unknown: () => [null],
  });
  for (let i = 0; i < words.length; i++) {
    const v = words[i];
    if (v === null) continue;
    if (v.startsWith("\0")) {
      run.stage([unknownWord(`(the programs ${v.slice(1)} makes ${name} run)`)], name);
      continue;
    }
    const apart = PROGRAM_DIRS_APART.test(v) || SPECS_APART.test(v) || v === "-wrapper" ||
      v === "-Xclang";
    const value = apart ? words[++i] : undefined;
    if (apart && value === null) {
      run.stage([unknownWord(`(the programs ${v} makes ${name} run)`)], name);
    } else if (PROGRAM_DIRS.test(v) || PROGRAM_DIRS_APART.test(v)) {
      // (Where it finds cc1, as, collect2 and ld: as `COMPILER_PATH` does.)
      const given = value === undefined ? v : `${v} ${value}`;
      run.stage([unknownWord(`(commands ${name} ${given} brings in)`)], `${name} -B`);
    } else if (SPECS_JOINED.test(v) || SPECS_APART.test(v)) {
      specsCommands(value ?? v.slice(v.indexOf("=") + 1), name, run);
    } else if (v === "-wrapper" && value) {
      run.stage(value.split(",").map(literal), `${name} -wrapper`);
    } else if (v === "-Xclang" && value === "-load" && words[i + 1] === "-Xclang") {
      const plugin = words[i + 2];
      i += 2;
      loaded(plugin ?? null, `${name} -Xclang -load`, run);
    } else if (v === "-Xclang" && value) {
      const p = PLUGIN.exec(value);
      if (p) loaded(p[1], `${name} -Xclang`, run);
    } else {
      const p = PLUGIN.exec(v);
      if (p) loaded(p[1], `${name} ${v.slice(0, v.indexOf("=") + 1)}`, run);
      const l = LINKER.exec(v);
      // (A linker's name without a `/` is one of its own: `-fuse-ld=lld` runs `ld.lld`.)
      if (l && (l[1].includes("/") || v.startsWith("--ld-path="))) {
        run.stage(
          [literal(l[1]), literal("(its arguments)")],
          `${name} ${v.slice(0, v.indexOf("="))}`,
        );
      }
    }
  }
}

/** A plugin a compiler loads: its code is run as the program at that path is. */
function loaded(path: string | null, origin: string, run: Runner): void {
  if (path === null) run.stage([unknownWord(`(the plugin ${origin} loads)`)], origin);
  else if (!path.includes("/") && !path.includes(".")) return; // (gcc's own plugin directory)
  else run.stage([literal(path.includes("/") ? path : `./${path}`)], origin);
}

/**
 * The specs gcc builds its commands from that only give options (gcc -dumpspecs): their words are
 * read as the driver's, the linker's or the assembler's options. The others name the programs it
 * runs (`linker`, `invoke_as`, `trad_capable_cpp`, `post_link`, `lto_wrapper`, …) or the
 * directories it finds them and its files in (`md_exec_prefix`, `sysroot_spec`, `multilib`).
 * A spec of a name of its own is one these include (`%(name)`).
 */
const OPTION_SPECS: Record<string, "driver" | "linker" | "assembler"> = {
  self_spec: "driver",
  distro_defaults: "driver",
  cpp: "driver",
  cpp_options: "driver",
  cpp_debug_options: "driver",
  cpp_unique_options: "driver",
  cc1: "driver",
  cc1_options: "driver",
  cc1plus: "driver",
  cc1_cpu: "driver",
  asm: "assembler",
  asm_debug: "assembler",
  asm_debug_option: "assembler",
  asm_final: "assembler",
  asm_options: "assembler",
  link: "linker",
  lib: "linker",
  libgcc: "linker",
  link_gcc_c_sequence: "linker",
  link_ssp: "linker",
  link_gomp: "linker",
  link_libgcc: "linker",
  startfile: "linker",
  endfile: "linker",
};
/** gcc 12's other specs (gcc -dumpspecs): a program, a directory, a command line. */
const PROGRAM_SPECS = new Set(
  ("invoke_as trad_capable_cpp linker linker_plugin_file lto_wrapper lto_gcc post_link " +
    "link_command md_exec_prefix md_startfile_prefix md_startfile_prefix_1 " +
    "startfile_prefix_spec sysroot_spec sysroot_suffix_spec sysroot_hdrs_suffix_spec " +
    "cross_compile version multilib multilib_defaults multilib_extra multilib_matches " +
    "multilib_exclusions multilib_options multilib_reuse").split(" "),
);

/** The words a specs file gives, by the tool they go to; null where it names a program. */
export function specsWords(
  text: string,
): Record<"driver" | "linker" | "assembler", (string | null)[]> | null {
  type Words = (string | null)[];
  const out = { driver: [] as Words, linker: [] as Words, assembler: [] as Words };
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "" || line.startsWith("#")) continue;
    const rename = /^%rename\s+\S+\s+(\S+)$/.exec(line);
    if (rename) {
      if (PROGRAM_SPECS.has(rename[1])) return null;
      continue;
    }
    // (`%include`, `%include_noerr`: another specs file; `.ext:`/`@lang:`: a compiler's command.)
    const spec = /^\*([\w-]+):$/.exec(line);
    if (!spec || PROGRAM_SPECS.has(spec[1])) return null;
    const body: string[] = [];
    while (i + 1 < lines.length && lines[i + 1].trim() !== "") body.push(lines[++i]);
    // (A line of its own is a command of its own; `|` pipes to one.)
    if (body.length > 1) return null;
    const words = optionWords(body[0] ?? "");
    // (Another specs file from a specs file: not followed.)
    if (words === null || words.some((w) => w !== null && /specs/.test(w))) return null;
    out[OPTION_SPECS[spec[1]] ?? "driver"].push(...words);
  }
  return out;
}

/** A spec function call with no other inside it: `%:getenv(PWD /x)`, `%:if-exists(F)`. */
const SPEC_FUNCTION = /%:([\w-]+)\(([^()]*)\)/g;
/** What stands for a spec function's result while the words are split. */
const COMPUTED = "\u0001";
/** What stands for a spec's text or an option passed on as given (`%(name)`, `%{v}`). */
const PASSED = "\u0003";
/** What stands for `%%` (a `%`) while the words are read. */
const PERCENT = "\u0002";

/**
 * The option words of a spec's text (gcc's do_spec_1): its conditions (`%{!fpie:`,
 * `;shared|static:`) left out and the options it passes on as given (`%{v}`) and the specs it
 * includes (`%(name)`) where they stand alone; `X%s` (a file searched for, else `X` as is) is X,
 * `%O` `.o`, `%%` `%`; `%<S` (an option removed) and `%:remove-outfile(F)` give none and
 * `%:replace-outfile(F G)` gives G, an input of the linker. Any other function (`%:getenv(…)`,
 * `%:if-exists(…)`, `%:version-compare(…)`…) or substitution (`%b`, `%g`, `%*`, `%{S}` in a word)
 * makes its word not known (null). Null for all where a `|` is left (a pipe to a command) or it
 * includes another specs file (`%:include(F)`).
 */
function optionWords(body: string): (string | null)[] | null {
  if (/%:include/.test(body)) return null;
  let s = body.replace(/^\s*\+/, " ");
  const given: string[] = [];
  let before;
  do {
    before = s;
    s = s.replace(SPEC_FUNCTION, (_call, name: string, args: string) => {
      const files = args.trim().split(/\s+/);
      if (!args.includes(COMPUTED) && !args.includes("%")) {
        if (name === "remove-outfile") return " ";
        if (name === "replace-outfile" && files.length === 2) {
          given.push(files[1]);
          return " ";
        }
      }
      return COMPUTED;
    }).replace(/%\([\w-]+\)|%\{[^{}:;]*\}/g, PASSED);
  } while (s !== before);
  s = s.replace(/%\{[^{}:;]*:/g, "").replace(/;[^{}:;]*:/g, " ").replace(/[{};]/g, " ");
  if (s.includes("|")) return null;
  const words = s.split(/\s+/).filter((w) =>
    w.replaceAll(PASSED, "") !== "" && !w.startsWith("%<")
  );
  return [
    ...words.map((w) => {
      const v = w.replace(/%s$/, "").replaceAll("%O", ".o").replaceAll("%%", PERCENT);
      const computed = [COMPUTED, PASSED, "%"].some((c) => v.includes(c));
      return computed ? null : v.replaceAll(PERCENT, "%");
    }),
    ...given,
  ];
}

/**
 * The commands a specs file makes gcc run (`-specs=F`): judged as gcc given the options its
 * specs give; where it names a program or its text is not known, commands not known. A name
 * gcc finds nowhere is one of its own directories' (`nano.specs`), the user's.
 */
function specsCommands(path: string, name: string, run: Runner): void {
  const origin = `${name} -specs=${path}`;
  const text = run.settings(path);
  if (text === "") return;
  const words = text === null ? null : specsWords(text);
  if (words === null) {
    run.stage([unknownWord(`(commands the specs file ${path} names)`)], origin);
    return;
  }
  // (A word the spec computes: a value not known, given to the tool the spec is for.)
  const word = (w: string | null) =>
    w === null ? unknownWord(`(a value the specs file ${path} computes)`) : literal(w);
  const argv = [
    literal(name),
    ...words.driver.map(word),
    ...words.linker.flatMap((w) => [literal("-Xlinker"), word(w)]),
    ...words.assembler.flatMap((w) => [literal("-Xassembler"), word(w)]),
  ];
  if (argv.length > 1) run.stage(argv, origin);
}
