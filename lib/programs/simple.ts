/**
 * Programs whose facts fit on a line: those that never open their operands (`echo`, `sleep`),
 * those that look only at a directory's names or sizes (`du`, `mkdir`; ls: ls.ts), those that change
 * the files below a directory they are given (`rm -r`, `chmod -R`), the build tools
 * that work in another directory (`ninja -C dir`), and the
 * `$safe-bash` checks of small read-only programs (a second operand of `uniq` is an output file;
 * `date -s` sets the clock).
 *
 * @module
 */
import { type LineFilter, passedLines } from "./line_filters.ts";
import type { Stage, Word } from "../shell/model.ts";
import { hasOption, type OptionGrammar } from "./argv.ts";
import type { Program, Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";
import { PATCH_OPTIONS, patchFiles, patchLinks } from "./diffs.ts";
import { filesFromList } from "./file_lists.ts";
import { fileList, files0List } from "./checksums.ts";
import { extractsHere, sevenFollows, sevenNamed } from "./extractors.ts";
import { commandRemoval, sevenDeletes } from "./archive_moves.ts";
import { copyBackups } from "./backups.ts";
import { COPY_GRAMMARS } from "./copy_options.ts";
import { BSDTAR_GRAMMAR } from "./tar.ts";
import { optionCommands } from "./option_commands.ts";
import { xxdReadsOnly } from "./xxd.ts";
import { svnCommands } from "./svn.ts";
import { GO_ENV_FILE, goEnvWrites, goSettings, goSplit } from "./go_env.ts";
import { pluginRuns } from "./plugins.ts";
import {
  dittoDestination,
  outputDirectory,
  protocOutputs,
  storageDestination,
  svnDestination,
} from "./destinations.ts";

/** A row of the table: a program's facets, by name. */
type Facts = Omit<Program, "names">;

/** `-R` with `-L`: a recursion that follows the symlinks inside the tree (ls, chmod, chown). */
export function recursiveDereference(argv: Word[]): boolean {
  return hasOption(argv, {}, ["-R", "--recursive"]) && hasOption(argv, {}, ["-L", "--dereference"]);
}

const STRINGS: Facts = { noFileOperands: true };

/**
 * The grammar of a program none of whose short options takes a value (rm, rmdir, chmod, chown,
 * chgrp, wc; GNU's and BSD's alike): a cluster, `-rf`, glues no value to judge. (The others'
 * grammars here name the letters that take one: `mkdir -m MODE`, `touch -r FILE`, BSD's `-A`,
 * `du -X FILE`, BSD du's `-I MASK`, `df -t TYPE`, `shred -n N`.)
 */
const NO_VALUES: OptionGrammar = {};

/** ps's options that take a value (the value itself may hold an `e`: `-o pid,etime`). */
const PS_VALUED =
  /^(-[A-Za-z]*[CGgOopqstuUk]|--(format|sort|pid|ppid|user|User|group|Group|tty|cols|columns|rows|lines|width|sid|quick-pid|deselect)|[A-Za-z]*[OopUtk])$/;

/**
 * Whether a ps command prints no environment: no BSD-style option cluster (a word without a dash)
 * holds `e`, no dash cluster holds macOS's `-E` before a letter that takes a value (`-AE`,
 * `-wwE`; in `-oE` it is `-o`'s format), and every word is known. A valued option's value is
 * skipped.
 */
function psShowsNoEnvironment(args: (string | null)[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null) return false;
    if (!a.startsWith("-") && /^[A-Za-z]+$/.test(a) && a.includes("e")) return false;
    if (/^-[^-]/.test(a) && /^[^CGgOopqstuUk]*E/.test(a.slice(1))) return false;
    if (PS_VALUED.test(a)) i++;
  }
  return true;
}
/** diff's options that take a value (the rest are flags). */
const DIFF_OPTIONS = { valued: "CUxXIFDS" };
const cpioList = filesFromList({
  stdin: ["--create", "--pass-through"],
  letters: "op",
  fromStdin: true,
});
const sevenList = filesFromList({ at: true });
const LOOKS: Facts = { metadataOnly: true };
const CHANGES_TREES: Facts = { replacesTrees: true };
/** It deletes, moves or changes what it names, and nothing else. */
const CHANGES_NAMED: Facts = { replacesTrees: true, writesOnlyNamed: true };
/** It makes what it names (a file, a directory), and nothing else. */
const MAKES_NAMED: Facts = { metadataOnly: true, writesOnlyNamed: true };
/** `-R` with `-L` follows links; it changes the modes or owners of what it names. */
const CHANGES_MODES: Facts = {
  replacesTrees: true,
  writesOnlyNamed: true,
  followsLinks: recursiveDereference,
  // (It needs its operands: the cwd is none unless named.)
  treesNamed: () => true,
};

// deno-fmt-ignore
const TABLE: Record<string, Facts> = {
  // Every argument is a string, not a path.
  tr: STRINGS, // its operands are character sets; it reads standard input only
  true: STRINGS, false: STRINGS, ":": STRINGS, sleep: STRINGS, seq: STRINGS, expr: STRINGS,
  exit: STRINGS, return: STRINGS, kill: STRINGS, shift: STRINGS, break: STRINGS,
  continue: STRINGS,
  // Its operands are process and job ids (`wait $pid`, `wait %1`); what `-p NAME` evaluates is
  // the walk's (lib/shell/walk_evaluation.ts).
  wait: STRINGS,
  echo: { noFileOperands: true, metadataOnly: true },
  printf: {
    noFileOperands: true,
    metadataOnly: true,
    readOnly: { "": { short: "v" } }, // `printf -v 'a[$(cmd)]'` runs cmd
  },
  basename: { noFileOperands: true, metadataOnly: true },
  dirname: { noFileOperands: true, metadataOnly: true },
  // Its operands are variable names; it reads standard input (or an fd). A name with a subscript
  // (`read 'a[$(cmd)]'`, an array's with -a) runs what the subscript holds.
  read: {
    noFileOperands: true,
    metadataOnly: true,
    readOnly: {
      "": { options: { valued: "adinNptu" }, short: "a", operand: /^[A-Za-z_][A-Za-z0-9_]*$/ },
    },
  },
  // A directory operand's names or sizes, never the files below it (ls: ls.ts).
  du: {
    options: { valued: "BdtXI" },
    metadataOnly: true,
    namedFiles: files0List,
    followsLinks: (argv) => hasOption(argv, { valued: "BdtX" }, ["-L", "--dereference"]),
  },
  df: { ...LOOKS, options: { valued: "Btx" } }, stat: LOOKS, realpath: LOOKS, readlink: LOOKS,
  cd: LOOKS, pushd: LOOKS, popd: LOOKS, // (test, `[`, `[[`: test_expr.ts)
  mkdir: { ...MAKES_NAMED, options: { valued: "m" } },
  touch: { ...MAKES_NAMED, options: { valued: "Adrt" } },
  tree: {
    metadataOnly: true,
    readOnly: { "": { short: "oR", long: ["--output"] } },
    followsLinks: (argv) => hasOption(argv, { valued: "LPIoH" }, ["-l", "--follow"]),
  },
  file: {
    metadataOnly: true,
    readOnly: { "": { short: "C", long: ["--compile"] } },
    namedFiles: fileList,
  },
  // `--files0-from=LIST`: the names it reads.
  wc: { namedFiles: files0List, options: NO_VALUES },
  rmdir: { metadataOnly: true, replacesTrees: true, writesOnlyNamed: true, options: NO_VALUES },
  // They delete, move, copy over or change the files below a directory they name.
  rm: { ...CHANGES_NAMED, options: NO_VALUES }, mv: { ...CHANGES_NAMED, options: COPY_GRAMMARS.mv, namedFiles: copyBackups },
  mmv: CHANGES_NAMED,
  chmod: { ...CHANGES_MODES, options: NO_VALUES }, chown: { ...CHANGES_MODES, options: NO_VALUES },
  chgrp: { ...CHANGES_MODES, options: NO_VALUES },
  setfacl: CHANGES_MODES, chattr: CHANGES_MODES, chcon: CHANGES_MODES,
  shred: { ...CHANGES_NAMED, options: { valued: "ns" } }, trash: CHANGES_TREES,
  "trash-put": CHANGES_TREES, gio: CHANGES_TREES,
  install: { ...CHANGES_TREES, options: COPY_GRAMMARS.install, namedFiles: copyBackups },
  // (Its options' grammar alone: `-pDIR` names the directory it makes its file in.)
  mktemp: { options: COPY_GRAMMARS.mktemp },
  // cpio -o and -p take the files they copy from standard input; 7z's `@LIST` names them.
  // (Extracting with no destination: into the cwd, extractors.ts.)
  cpio: {
    ...CHANGES_TREES,
    options: COPY_GRAMMARS.cpio,
    namedFiles: (argv) => [...cpioList(argv), ...extractsHere("cpio")(argv)],
  },
  bsdcpio: {
    ...CHANGES_TREES,
    options: COPY_GRAMMARS.cpio,
    namedFiles: (argv) => [...cpioList(argv), ...extractsHere("bsdcpio")(argv)],
  },
  // (bsdtar's `-L`, as GNU tar's `-h`: what the links inside the tree lead to is archived.)
  // (`-C DIR`, `--cd DIR`, `--dir DIR`, the old `tar cCf DIR a.tar`: it works there.)
  bsdtar: {
    namedFiles: extractsHere("bsdtar"),
    chdir: { options: ["-C", "--cd", "--directory"], grammar: BSDTAR_GRAMMAR },
    followsLinks: (argv) => hasOption(argv, BSDTAR_GRAMMAR, ["-L", "-h", "--dereference"]),
    treesNamed: () => true,
  },
  // 7-Zip archives what the links in a tree lead to unless told `-snl`.
  "7z": {
    namedFiles: (argv) => [...sevenList(argv), ...extractsHere("7z")(argv)],
    followsLinks: sevenFollows,
    treesNamed: sevenNamed,
    // `7z a -sdel x.7z src`: what it archives is deleted.
    replacesTrees: sevenDeletes,
    optionCommands: commandRemoval(sevenDeletes),
  },
  // Extractors that write the members of an archive below a directory (`dpkg-deb -x a.deb DIR`,
  // `ar x --output DIR`; ar's members have no `/`).
  "dpkg-deb": CHANGES_TREES, ar: CHANGES_TREES,
  // (Without -p, patch takes the base name of what a diff names.)
  patch: {
    options: PATCH_OPTIONS,
    replacesTrees: true,
    chdir: { options: ["-d", "--directory"] },
    namedFiles: patchFiles,
    links: patchLinks,
  },
  // Clients and builders that write below a local directory by names of their own (the one it
  // copies into, the output directory: destinations.ts).
  // (rclone, gsutil: tree_servers.ts.)
  // (The commands its options and settings name: svn.ts.)
  svn: { namedFiles: svnDestination, optionCommands: svnCommands },
  tsc: { namedFiles: outputDirectory(["--outDir", "--declarationDir"]) },
  javac: { namedFiles: outputDirectory(["-d", "-s", "-h"]) },
  protoc: { namedFiles: protocOutputs },
  // (And the site builders, compilers and fetchers that name their output directory.)
  babel: { namedFiles: outputDirectory(["-d", "--out-dir"]) },
  swc: { namedFiles: outputDirectory(["-d", "--out-dir"]) },
  // (vite, which also loads `.env` files: dotenv_loads.ts.)
  mkdocs: { namedFiles: outputDirectory(["-d", "--site-dir"]) },
  hugo: { namedFiles: outputDirectory(["-d", "--destination"]) },
  jekyll: { namedFiles: outputDirectory(["-d", "--destination"]) },
  oras: { namedFiles: outputDirectory(["-o", "--output"]) },
  "huggingface-cli": { namedFiles: outputDirectory(["--local-dir"]) },
  hf: { namedFiles: outputDirectory(["--local-dir"]) },
  // helm writes a chart's files below `--output-dir` (template), `--untardir` or `-d` (pull),
  // and runs `--post-renderer PROG` with each `--post-renderer-args` value as an argument.
  helm: {
    // (`helm pull|package -d DIR`: the chart or its archive lands there.)
    namedFiles: outputDirectory(["--output-dir", "--untardir", "-d", "--destination"]),
    optionCommands: helmRenderer,
  },
  azcopy: { namedFiles: storageDestination },
  ditto: { namedFiles: dittoDestination },
  // (Build tools that work in another directory, make and ninja: package_runners.ts.)
  // (`-C DIR`, before the subcommand or as its first flag; `go test -outputdir DIR` puts the
  // profiles it writes there.)
  go: {
    chdir: { options: ["-C"] },
    // (`go run -exec PROG`, `go test -exec`, `-toolexec`, `-vettool` run a program of the
    // command's choosing.)
    optionCommands: goPrograms,
    // (`go clean -modcache` removes the module cache whole, where `$GOMODCACHE` says; `-o` names
    // the file or the directory go build writes.)
    namedFiles: (argv) => [
      ...outputDirectory(["-outputdir", "--outputdir", "-o", "--o"])(argv),
      ...(argv[1]?.value === "clean" && argv.some((w) => /^--?modcache$/.test(w.value))
        ? [{ path: null, source: "(the module cache go clean -modcache removes: $GOMODCACHE)" }]
        : []),
      // (`go env -w` and `-u` write go's settings file, `$GOENV`.)
      ...(goEnvWrites(argv) ? [{ path: GO_ENV_FILE, source: "go env -w" }] : []),
    ],
  },
  // ps's BSD-style `e` (no dash: `ps e`, `ps axeww`) prints each process's environment, other
  // processes' secrets among them; `-e` (a dash) is every process.
  ps: {
    noFileOperands: true,
    readOnly: { "": { accepts: psShowsNoEnvironment } },
    // (What it prints then is every process's environment file.)
    namedFiles: (argv) =>
      psShowsNoEnvironment(argv.slice(1).map((w) => w.kind === "static" ? w.value : null))
        ? []
        : [{ path: null, source: "(the environments of the processes ps shows)" }],
  },
  // Read-only unless: a second operand (an output file).
  uniq: {
    options: { valued: "fsw", longValued: new Set(["--skip-fields", "--skip-chars", "--check-chars"]) },
    readOnly: { "": { maxOperands: 1 } },
    lists: (stage, listingOf) => passedLines(stage, listingOf, UNIQ),
  },
  // (xxd reads its options a word each: xxd.ts.)
  xxd: { options: { valued: "cglosnR" }, readOnly: { "": { accepts: xxdReadsOnly } } },
  // GNU diff follows the symlinks it meets in a tree it compares (`-r`; not with
  // `--no-dereference`), and prints a file's lines with `-N`.
  diff: {
    options: DIFF_OPTIONS,
    followsLinks: (argv) =>
      hasOption(argv, DIFF_OPTIONS, ["-r", "--recursive"]) &&
      !hasOption(argv, DIFF_OPTIONS, ["--no-dereference"]),
    treesNamed: () => true,
  },
  // sdiff and diff3 run `--diff-program=PROG` to compare (sdiff's `-o FILE` is its output).
  sdiff: {
    options: { valued: "oIw", longValued: new Set(["--output", "--diff-program", "--width"]) },
    optionCommands: optionCommands({ shortWithArg: "oIw", long: { "--diff-program": "program" } }),
  },
  diff3: {
    options: { valued: "L", longValued: new Set(["--label", "--diff-program"]) },
    optionCommands: optionCommands({ shortWithArg: "L", long: { "--diff-program": "program" } }),
  },
  // BSD's base64 writes `-o FILE` (`--output`).
  base64: { options: { valued: "bio" }, readOnly: { "": { short: "o", long: ["--output"] } } },
  // binutils' `@FILE` reads more arguments from FILE: the files they name are not known.
  strings: { namedFiles: responseFiles }, nm: { namedFiles: responseFiles },
  objdump: { namedFiles: responseFiles }, readelf: { namedFiles: responseFiles },
  date: {
    // (`-Ins`: -I takes an optional value, glued.)
    options: { valued: "dfr", gluedOnly: "I", longValued: new Set(["--date", "--file", "--reference"]) },
    readOnly: { "": { short: "s", long: ["--set"], operand: /^\+/ } },
  },
};

/** The post-renderer helm runs (`--post-renderer PROG`), with its arguments. */
function helmRenderer(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  let program: Word | undefined;
  const more: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    const eq = v.indexOf("=");
    const name = eq > 0 ? v.slice(0, eq) : v;
    if (name !== "--post-renderer" && name !== "--post-renderer-args") continue;
    const value = eq > 0
      ? (args[i].kind === "static" ? literal(v.slice(eq + 1)) : unknownWord(args[i].text))
      : args[++i];
    if (!value) continue;
    if (name === "--post-renderer") program = value;
    else more.push(value);
  }
  if (program) run.stage([program, ...more], "helm --post-renderer");
  // (`helm NAME`, a plugin: plugins.ts.)
  pluginRuns(stage, run);
}

/** go's flags whose value is a program it runs (`-exec`, `-toolexec`, `-vettool`). */
const GO_PROGRAM_FLAG = /^--?(exec|toolexec|vettool)(=|$)/;

/**
 * The programs go's flags name (`GOFLAGS`, set any way, is the environment's: expand.ts), and its
 * settings (`CC=…`, `go env -w`: go_env.ts).
 */
function goPrograms(stage: Stage, run: Runner): void {
  goSettings(stage, run);
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    const m = GO_PROGRAM_FLAG.exec(v);
    if (!m) continue;
    const value = m[2] === "="
      ? (args[i].kind === "static" ? literal(v.slice(m[0].length)) : unknownWord(args[i].text))
      : args[++i];
    // (Its value split as go splits it: `-exec "prog '-a b'"`.)
    const words = value?.kind === "static" ? goSplit(value.value).map(literal) : [value];
    if (value && words.length) {
      run.stage([...words, literal("(the program go built)")], `go -${m[1]}`);
    }
  }
}

/** binutils' response files (`strings @args`): each is read, and the files it names are not known. */
function responseFiles(argv: Word[]): { path: string | null; source: string }[] {
  return argv.slice(1).flatMap((w) =>
    w.value.startsWith("@") && w.value.length > 1
      ? [{ path: w.kind === "static" ? w.value.slice(1) : null, source: w.text }, {
        path: null,
        source: `(the files ${w.text} names)`,
      }]
      : []
  );
}

/** uniq: without `-c` (a count before each line) or a file. */
const UNIQ: LineFilter = {
  grammar: {
    flags: "diuD",
    valued: "fsw",
    longFlags: new Set(["--repeated", "--unique", "--ignore-case", "--all-repeated"]),
    longValued: new Set(["--skip-fields", "--skip-chars", "--check-chars"]),
  },
};

/** The programs of the table. */
export const SIMPLE_PROGRAMS: Program[] = Object.entries(TABLE).map(([name, facts]) => ({
  names: [name],
  ...facts,
}));
