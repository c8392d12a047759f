/**
 * Interpreters that evaluate inline code (`python3 -c`, `node -e`, `perl -ne`, `deno eval`, code
 * fed by a heredoc or a pipe): the code is recognised for eval classification, and saving
 * "python3 *" as an approval would allow anything, so it never is.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { EvalShape } from "../types.ts";
import type { NamedFile, Program, Runner } from "./spec.ts";
import { literal, programName, unknownWord } from "./words.ts";
import { stdinCode } from "./eval_shapes.ts";
import { packageProgram, runCommandWords } from "./command_words.ts";
import { readOptions } from "./argv.ts";
import { BUN_RUN_OPTIONS } from "./runner_options.ts";
import { pipSiteSettings } from "./rc_files.ts";
import { perlBackups } from "./backups.ts";
import { pytestFiles, pytestSettings } from "./pytest.ts";
import { denoChanges, denoGlobs, denoRewrites } from "./fixers.ts";
import { bunEnvFiles } from "./dotenv_loads.ts";
import {
  denoFileServer,
  pythonRunsCgi,
  pythonServerUploads,
  pythonServesCwd,
} from "./tree_servers.ts";

/** How an interpreter takes inline code. */
interface Interpreter {
  language: EvalShape["language"];
  /** The options whose value is the code (`-c`, `-e`, `--eval`). */
  flags: string[];
  /** A subcommand whose operand is the code (`deno eval CODE`). */
  subcommand?: string;
  /** Short options whose value is the rest of their cluster (`perl -Mstrict`). */
  valued?: string;
  /** Short options whose value is the next word when they stand alone (`python -W ignore`). */
  spaced?: string;
}

const INTERPRETERS: Record<string, Interpreter> = {
  python: { language: "python", flags: ["-c"], valued: "WXm", spaced: "WX" },
  python2: { language: "python", flags: ["-c"], valued: "WXm", spaced: "WX" },
  python3: { language: "python", flags: ["-c"], valued: "WXm", spaced: "WX" },
  node: {
    language: "javascript",
    flags: ["-e", "--eval", "-p", "--print"],
    valued: "r",
    spaced: "r",
  },
  bun: {
    language: "javascript",
    flags: ["-e", "--eval", "-p", "--print"],
    valued: "r",
    spaced: "r",
  },
  deno: { language: "typescript", flags: [], subcommand: "eval" },
  tsx: { language: "typescript", flags: ["-e", "--eval", "-p", "--print"] },
  "ts-node": { language: "typescript", flags: ["-e", "--eval", "-p", "--print"] },
  ruby: { language: "ruby", flags: ["-e"], valued: "IrEFCxiKTW" },
  perl: { language: "perl", flags: ["-e", "-E"], valued: "MmIixCdD" },
  php: { language: "php", flags: ["-r"] },
  // (lua's `-l MOD` loads a module; osascript's `-l LANG` names the language, `-s` its output.)
  lua: { language: "lua", flags: ["-e"], valued: "l", spaced: "l" },
  osascript: { language: "applescript", flags: ["-e"], valued: "ls", spaced: "ls" },
};

/** Where an eval flag stands in a cluster of short options, or -1 (a valued letter ends it). */
function clusterEval(letters: string, interp: Interpreter): number {
  // (An eval flag that ends the cluster takes the next word, even after another: `node -pe`.)
  const last = letters.length - 1;
  if (
    last > 0 && interp.flags.includes(`-${letters[last]}`) &&
    ![...letters.slice(0, last)].some((c) => interp.valued?.includes(c))
  ) {
    return last;
  }
  for (let i = 0; i < letters.length; i++) {
    if (interp.flags.includes(`-${letters[i]}`)) return i;
    if (interp.valued?.includes(letters[i])) return -1;
  }
  return -1;
}

/** The inline code eval of a stage, if it is one. */
function interpreterEval(stage: Stage, interp: Interpreter): EvalShape | null {
  const name = programName(stage.argv[0]);
  const args = stage.argv.slice(1);
  if (interp.subcommand) {
    if (args[0]?.kind === "static" && args[0].value === interp.subcommand) {
      const code = args.slice(1).find((a) => !(a.kind === "static" && a.value.startsWith("-")));
      return {
        interpreter: name,
        language: interp.language,
        via: interp.subcommand,
        source: code && code.kind === "static" ? code.value : null,
      };
    }
    return null;
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") break;
    const v = a.value;
    // A cluster of short options with an eval flag (`perl -ne`, `python3 -Sc`, `node -pe`,
    // `perl -nex`): its code is the rest of the cluster, or the next word when the flag ends
    // it. (A letter that takes a value ends the options of the cluster: `perl -Mexperimental`.)
    const letters = /^-[A-Za-z0-9]{2,}$/.test(v) ? v.slice(1) : "";
    const at = clusterEval(letters, interp);
    if (at >= 0) {
      const last = at === letters.length - 1;
      const code = last ? args[i + 1] : literal(letters.slice(at + 1));
      return {
        interpreter: name,
        language: interp.language,
        via: `-${letters[at]}`,
        source: code && code.kind === "static" ? code.value : null,
        ...(last && code ? { codeAt: i + 2 } : {}),
      };
    }
    const flag = interp.flags.find((f) =>
      v === f || (f.length === 2 && v.startsWith(f) && !v.startsWith("--")) || v.startsWith(f + "=")
    );
    if (flag) {
      const inline = v === flag
        ? null
        : v.slice(v.startsWith(flag + "=") ? flag.length + 1 : flag.length);
      const code = inline !== null ? literal(inline) : args[i + 1];
      return {
        interpreter: name,
        language: interp.language,
        via: flag,
        source: code && code.kind === "static" ? code.value : null,
        ...(inline === null && code ? { codeAt: i + 2 } : {}),
      };
    }
    if (v === "-m") return null; // a module run, not inline code
    // (`python -W ignore -c CODE`: the option's value is no script.)
    if (v.length === 2 && v[0] === "-" && interp.spaced?.includes(v[1])) i++;
    else if (!v.startsWith("-")) return null; // a script file
    if (v === "-") break;
  }
  // No script: code from a heredoc or here-string, else from a pipe or a descriptor (a file on
  // standard input is a script, read where it lies).
  return stdinCode(stage, interp.language);
}

/**
 * The commands deno and bun run as a shell would: `deno task --eval LINE`, `bun exec LINE` (a
 * line of their own shells, read as bash), and `bun x CMD` (bunx).
 */
function runtimeCommands(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]);
  const args = stage.argv.slice(1);
  const sub = args.findIndex((w) => !w.value.startsWith("-"));
  const verb = args[sub]?.value;
  if (name === "deno" && verb === "task") {
    const at = args.findIndex((w) => w.value === "--eval" || w.value.startsWith("--eval="));
    if (at < 0) return;
    const line = args[at].value.startsWith("--eval=")
      ? literal(args[at].value.slice(7))
      : args.slice(at + 1).find((w) => !w.value.startsWith("-"));
    if (line) run.shell(line, "deno task --eval");
  } else if (name === "bun" && verb === "exec") {
    const line = args[sub + 1];
    if (line) run.shell(line, "bun exec");
  } else if (name === "bun" && verb === "run") {
    bunRunProgram(args.slice(sub + 1), stage, run);
  } else if (name === "bun" && verb === "x") {
    const rest = args.slice(sub + 1);
    const cmd = rest.findIndex((w) => !w.value.startsWith("-"));
    // (Its first word is a package: `bun x prettier@3` runs prettier.)
    if (cmd >= 0) run.stage([packageProgram(rest[cmd], "npm"), ...rest.slice(cmd + 1)], "bun x");
  }
}

/** A word bun runs as a file of its own (a path, a script by its extension): no program. */
const BUN_FILE = /\/|\.(m|c)?[jt]sx?$|\.(json|toml|sh|wasm)$/;

/**
 * `bun run NAME ARGS…`: a package script NAME, a file, a package's bin, else the program NAME
 * on the PATH with ARGS (`bun run rm -rf src` runs rm): the program, where NAME is no path of
 * a file it would run itself. Not for `--filter`/`--workspaces` (the workspaces' scripts) or
 * `-e`/`-p` (code, not NAME).
 */
function bunRunProgram(args: Word[], stage: Stage, run: Runner): void {
  const values = args.map((w) => (w.kind === "static" ? w.value : null));
  for (const t of readOptions(values, BUN_RUN_OPTIONS)) {
    if (/^(-F|--filter|--workspaces|-e|--eval|-p|--print)$/.test(t.name)) return;
    if (t.kind === "operand" && BUN_FILE.test(values[t.at]!)) return;
    if (t.kind === "operand" || t.kind === "end" || t.kind === "dynamic") break;
  }
  runCommandWords(args, { grammar: BUN_RUN_OPTIONS }, stage.cwds, run, "bun run");
}

/** python's modules that serve the cwd (or `--directory`) over HTTP, links followed. */
const SERVER_MODULES = new Set([
  "http.server",
  "SimpleHTTPServer",
  "CGIHTTPServer",
  "RangeHTTPServer",
  "uploadserver",
  "updog",
]);

/**
 * Whether `ruby -run -e httpd [DIR]` serves the cwd: no DIR after `httpd`. un.rb's OptionParser
 * takes each option's value from the next word (`--bind-address 127.0.0.1`, `-p 8000`: a prefix
 * of one) or after `=`; `--do-not-reverse-lookup` takes none; a `--` ends the options.
 */
function rubyServesCwd(argv: Word[]): boolean {
  if (!rubyHttpd(argv)) return false;
  const at = argv.findIndex((w) => w.value === "-ehttpd" || w.value === "httpd");
  // (A `--` first is ruby's own, ending its options: the words after it are un.rb's.)
  const args = argv.slice(argv[at + 1]?.value === "--" ? at + 2 : at + 1);
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.kind !== "static") return false;
    const v = w.value;
    if (v === "--") return args.length === i + 1;
    if (!v.startsWith("-") || v === "-") return false;
    const flag = v.length > 2 && "--do-not-reverse-lookup".startsWith(v) || v === "-d";
    if (!flag && !v.includes("=") && !/^-[^-]./.test(v)) i++;
  }
  return true;
}

/** `ruby -run -e httpd` (`-run -ehttpd`, `-r un -e httpd`): un.rb's web server. */
function rubyHttpd(argv: Word[]): boolean {
  const v = argv.map((w) => w.value);
  const un = v.some((x, i) => x === "-run" || (x === "-r" && v[i + 1] === "un") || x === "-run.rb");
  return un && v.some((x, i) => x === "-ehttpd" || (x === "-e" && v[i + 1] === "httpd"));
}

/** groff and its front ends: `-U` (unsafe mode) runs a document's `.sy` and `.pi` requests. */
export const GROFF: Program = {
  names: ["groff", "nroff", "troff"],
  runs: (stage, run) => {
    if (stage.argv.slice(1).some((w) => w.kind !== "static" || /^-[a-zA-Z]*U/.test(w.value))) {
      run.stage([unknownWord("(the commands an unsafe groff document runs)")], "groff -U");
    }
  },
};

/** The module `python -m MOD` runs (`-mMOD` too), or null. */
function pythonModule(argv: Word[]): string | null {
  return pythonModuleAt(argv)?.module ?? null;
}

/**
 * python's `-m MODULE` and where the module's own words start (`next`); null for none. Its
 * options before: a cluster of letters (`-Im`, `-bEm`, `-Imhttp.server`), `-X OPT`, `-W ARG`
 * (glued or the next word), `--check-hash-based-pycs MODE`; `-c` or a script ends them.
 */
function pythonModuleAt(argv: Word[]): { module: string; next: number } | null {
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i].value;
    if (v === "--check-hash-based-pycs") {
      i++;
      continue;
    }
    if (v === "--" || v === "-" || !v.startsWith("-")) return null;
    if (v.startsWith("--")) continue;
    for (let k = 1; k < v.length; k++) {
      const c = v[k];
      if (c === "m") {
        if (k + 1 < v.length) return { module: v.slice(k + 1), next: i + 1 };
        return argv[i + 1] ? { module: argv[i + 1].value, next: i + 2 } : null;
      }
      if (c === "c") return null;
      if (c === "X" || c === "W" || c === "Q") {
        if (k + 1 === v.length) i++;
        break;
      }
    }
  }
  return null;
}

/**
 * The CGI scripts python's `-m http.server --cgi` (`-m CGIHTTPServer`) runs for whoever asks:
 * those below `cgi-bin/` and `htbin/` of the tree it serves, commands not known here.
 */
function pythonCgi(stage: Stage, run: Runner): void {
  const at = pythonModuleAt(stage.argv);
  if (at !== null && pythonRunsCgi(at.module, stage.argv.slice(at.next))) {
    run.stage([unknownWord("(the CGI scripts the server runs for its clients)")], "http.server");
  }
  // (`-m pytest`: what its settings files give it.)
  if (at?.module === "pytest") pytestSettings(stage.argv.slice(at.next), stage, run);
  // (`-m pip`: the pip.conf files of its environment, as pip's.)
  if (at?.module === "pip") pipSiteSettings(stage, run);
}

/** The modules whose writes `pythonModuleFiles` knows. */
const PYTHON_WRITERS = new Set(["zipfile", "tarfile", "gzip", "venv", "virtualenv", "pytest"]);

/**
 * What python's archive modules write by names of their own: `-m zipfile|tarfile -e ARCHIVE DIR`
 * extracts below DIR; `-m gzip -d F.gz` writes F, `-m gzip F` writes F.gz; `-m venv DIR` makes
 * (and with `--clear` empties) DIR; `-m pytest --basetemp DIR` removes and refills DIR.
 */
function pythonModuleFiles(argv: Word[]): NamedFile[] {
  const mod = pythonModule(argv);
  if (mod === null) return [];
  if (!PYTHON_WRITERS.has(mod)) {
    const at = pythonModuleAt(argv);
    return at === null ? [] : pythonServerUploads(mod, argv.slice(at.next));
  }
  const at = argv.findIndex((w) => w.value === mod || w.value === `-m${mod}`);
  const args = argv.slice(at + 1);
  const source = `(what python -m ${mod} writes)`;
  const place = (w: Word | undefined) => (w?.kind === "static" ? w.value : null);
  if (mod === "venv" || mod === "virtualenv") {
    // Each environment directory it makes (with `--clear`, it empties it first).
    const out: NamedFile[] = [];
    for (let i = 0; i < args.length; i++) {
      const v = args[i].value;
      if (/^(--prompt|-p|--python|--activators)$/.test(v)) i++;
      else if (!v.startsWith("-") || args[i].kind !== "static") {
        // (It writes no pip.conf there: `.venv/bin/pip` after it reads the one there now.)
        out.push({
          path: place(args[i]),
          source,
          below: true,
          spares: ["pip.conf"],
          ownNames: true,
        });
      }
    }
    return out;
  }
  if (mod === "pytest") return pytestFiles(args, source);
  if (mod === "gzip") {
    const decompress = args.some((w) => w.value === "-d" || w.value === "--decompress");
    return args.filter((w) => !w.value.startsWith("-")).map((w) => ({
      path: w.kind !== "static"
        ? null
        : decompress
        ? w.value.replace(/\.gz$/, "")
        : w.value + ".gz",
      source,
    }));
  }
  const e = args.findIndex((w) => w.value === "-e" || w.value === "--extract");
  if (e < 0) return [];
  const dest = args[e + 2];
  if (!dest) return [{ path: ".", source, below: true }];
  return [{ path: dest.kind === "static" ? dest.value : null, source, below: true }];
}

/** The interpreters (besides shells, in shells.ts). */
export const INTERPRETER_PROGRAMS: Program[] = [
  ...Object.entries(INTERPRETERS).map(([name, interp]): Program => ({
    names: [name],
    evaluates: (stage) => interpreterEval(stage, interp),
    tooBroad: true,
    // perl's `-i.bak` keeps a backup of each file it edits.
    ...(name === "perl" ? { namedFiles: perlBackups } : {}),
    // python's modules run as programs that extract, decompress or serve a tree.
    ...(name.startsWith("python")
      ? {
        namedFiles: pythonModuleFiles,
        followsLinks: (argv: Word[]) => SERVER_MODULES.has(pythonModule(argv) ?? ""),
        readsCwd: (argv: Word[]) => {
          const at = pythonModuleAt(argv);
          return at !== null && pythonServesCwd(at.module, argv.slice(at.next));
        },
        runs: pythonCgi,
      }
      : {}),
    // ruby's `-run -e httpd [DIR]` (un.rb's WEBrick server) serves DIR, else the cwd.
    ...(name === "ruby" ? { followsLinks: rubyHttpd, readsCwd: rubyServesCwd } : {}),
    // php's built-in server (`-S ADDR`) serves its document root (`-t DIR`, else the cwd) with the
    // symlinks in it followed.
    ...(name === "php"
      ? {
        followsLinks: (argv: Word[]) => argv.some((w) => w.value.startsWith("-S")),
        treesNamed: (argv: Word[]) => argv.some((w) => w.value.startsWith("-t")),
        // (Its router script, if any, is handed each request; what it declines is served from the
        // document root: the cwd unless `-t` names one.)
        readsCwd: (argv: Word[]) => argv.some((w) => w.value.startsWith("-S")),
      }
      : {}),
    // deno's `--env-file` alone loads `./.env`; `deno clean` removes its whole cache, where
    // `$DENO_DIR` says (`DENO_DIR=.pi deno clean`), or its own below the home directory.
    ...(name === "deno"
      ? {
        // (`deno fmt` and `deno lint --fix` rewrite their languages' files below a tree.)
        changesBelow: denoChanges,
        rewritesTrees: denoRewrites,
        globOperands: denoGlobs,
        // (`deno run`/`deno serve` of std's file server serves its DIR, else the cwd.)
        followsLinks: (argv: Word[]) => denoFileServer(argv) !== null,
        readsCwd: (argv: Word[]) => denoFileServer(argv) === "cwd",
        namedFiles: (argv: Word[]) => [
          ...(argv.some((w) => w.value === "--env-file")
            ? [{ path: ".env", source: "--env-file" }]
            : []),
          ...(argv.find((w, i) => i > 0 && !w.value.startsWith("-"))?.value === "clean"
            ? [{ path: null, source: "(deno's cache, which deno clean removes: $DENO_DIR)" }]
            : []),
        ],
      }
      : {}),
    ...(name === "deno" || name === "bun" ? { runs: runtimeCommands } : {}),
    // bun loads `.env` and its mode's files wherever it runs (dotenv_loads.ts).
    ...(name === "bun" ? { optionCommands: bunEnvFiles } : {}),
  })),
  // Shells whose language is not bash: their command text is judged as a carried line (a rule
  // that asks about or denies it counts), not read as bash.
  { names: ["pwsh", "powershell"], runsElsewhere: pwshCommand },
  // deno-fmt-ignore
  { names: ["rc", "elvish", "xonsh", "nu", "ysh", "ion", "es"], runsElsewhere: otherShellCommand },
  // csh's and tcsh's `-c` text is read as a bash line (their simple commands, pipes and
  // redirections are bash's); their standard input's commands, by a shell that reads them.
  { names: ["csh", "tcsh"], runsElsewhere: otherShellCommand, runs: cshLine },
];

/** csh's `-c` text (tcsh's): a bash line. */
function cshLine(stage: Stage, run: Runner): void {
  for (const w of otherShellCommand(stage.argv)) {
    if (w.kind !== "static" || w.value !== "sh") run.shell(w, programName(stage.argv[0]));
  }
}

/** PowerShell's options that take a value (case-insensitive), besides the command ones. */
const PWSH_VALUED =
  /^-(ExecutionPolicy|ex|ep|WorkingDirectory|wd|ConfigurationName|config|OutputFormat|of|InputFormat|inp|if|WindowStyle|w|Version|v|SettingsFile|settings|CustomPipeName)$/i;

/** Whether `word` is `-NAME` or a prefix of it at least `least` letters long (`-Comm`). */
function pwshOption(word: string, name: string, least: number): boolean {
  const w = word.slice(1).toLowerCase();
  return word.startsWith("-") && w.length >= least && name.toLowerCase().startsWith(w);
}

/**
 * What `pwsh` runs: `-Command` (`-c`) takes the rest of its words as the command; `-EncodedCommand`
 * (`-e`, `-ec`) is base64 no one reads here; `-File` (or a first operand) is a script, read where it
 * lies.
 */
function pwshCommand(argv: Word[]): Word[] {
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") return [unknownWord(args.slice(i).map((w) => w.text).join(" "))];
    const v = a.value;
    if (pwshOption(v, "Command", 1)) {
      const rest = args.slice(i + 1);
      return rest.length
        ? [literal(rest.map((w) => w.kind === "static" ? w.value : w.text).join(" "))]
        : [];
    }
    if (pwshOption(v, "EncodedCommand", 1) || /^-ec$/i.test(v)) {
      return [unknownWord(`(an encoded command ${args[i + 1]?.text ?? ""})`)];
    }
    if (pwshOption(v, "File", 1) || !v.startsWith("-")) return [];
    if (PWSH_VALUED.test(v)) i++;
  }
  return [];
}

/**
 * What `csh -c TEXT` (tcsh, rc, elvish, xonsh, nu) runs: the word after `-c` (in a cluster too).
 * With neither that nor a script, the commands of its standard input: a line `sh`, which reads
 * them (`tcsh <<<'rm -rf x'`; their simple commands are bash's).
 */
function otherShellCommand(argv: Word[]): Word[] {
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i].kind === "static" ? argv[i].value : "";
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(v) || v === "--commands") {
      const text = argv[i + 1];
      return text ? [text.kind === "static" ? text : unknownWord(text.text)] : [];
    }
    // (A script: read where it lies, as `bash script.sh` is.)
    if (!v.startsWith("-") || v === "-") return v === "-" ? [literal("sh")] : [];
  }
  return [literal("sh")];
}

/** `python3.12` and the like: python3's facets. */
export function versionedPython(name: string): string | null {
  return name.startsWith("python3.") && /^python3\.\d+$/.test(name) ? "python3" : null;
}
