/**
 * Archivers and viewers that run a helper their options name: `zip -TT cmd` /
 * `--unzip-command cmd` (the command that tests the archive), `man -P pager`, `man -H browser` /
 * `--html=browser`. (`man -H` alone runs `$BROWSER`, an environment variable.) And the forms of
 * unzip that only read: listing, testing, printing to standard output.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { hasOption, readOptions } from "./argv.ts";
import { optionCommands } from "./option_commands.ts";
import type { NamedFile, Program, Runner } from "./spec.ts";
import { filesFromList } from "./file_lists.ts";
import { extractsHere, has } from "./extractors.ts";
import { literal, unknownWord } from "./words.ts";
import { zipMoves, zipRemoval } from "./archive_moves.ts";

/** A value glued to an option word (static part), or the word itself when it is not static. */
function glued(w: Word, value: string): Word {
  return w.kind === "static" ? literal(value) : { ...w, kind: "dynamic", value };
}

/** zip's `-TT cmd`, `-TTcmd`, `--unzip-command[=]cmd` (abbreviated too): shell text it runs. */
function zipCommands(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (a.kind === "static" && v === "--") break;
    const tt = /^-TT=?([\s\S]*)$/.exec(v);
    const long = /^--unz[a-z-]*/.exec(v);
    if (tt) {
      const value = tt[1] ? glued(a, tt[1]) : args[++i];
      if (value) run.shell(value, "zip -TT");
    } else if (long && "--unzip-command".startsWith(long[0])) {
      const eq = v.indexOf("=");
      const value = eq > 0 ? glued(a, v.slice(eq + 1)) : args[++i];
      if (value) run.shell(value, "zip --unzip-command");
    } else if (a.kind !== "static" && /^-(T|-u)/.test(v)) {
      run.stage([unknownWord(`(a zip option ${a.text})`)], "zip option");
    }
  }
}

/** man's pager (`-P`, `--pager`) and its browser (`-Hbrowser`, `--html=browser`). */
const manPager = optionCommands({
  shortWithArg: "CMPSemprLRE",
  short: { P: "shell" },
  long: { "--pager": "shell" },
});

function manCommands(stage: Stage, run: Runner): void {
  manPager(stage, run);
  for (const a of stage.argv.slice(1)) {
    const v = a.kind === "static" ? a.value : a.prefix;
    if (a.kind === "static" && v === "--") break;
    const m = /^-[a-zA-Z]*H([\s\S]+)$|^--html=([\s\S]+)$/.exec(v);
    if (m && !/^-[a-zA-Z]*[CMPSemprLRE][a-zA-Z]*H/.test(v)) {
      run.shell(glued(a, m[1] ?? m[2]), "man --html");
    } else if (a.kind !== "static" && /^-(-h|[a-zA-Z]*H)/.test(v)) {
      run.stage([unknownWord(`(a browser in ${a.text})`)], "man --html");
    }
  }
}

/** unzip's options that only read: list (-l, -v, -Z), test (-t), comment (-z), print (-p, -c), quiet. */
const UNZIP_READS = "lvZtzpcq";
/** Of those, the ones that stop unzip extracting into the cwd. */
const UNZIP_MODES = "lvZtzpc";

/**
 * Whether unzip's arguments only read the archive (`unzip -l a.zip`, `unzip -p a.zip f | head`):
 * every option one that reads, one of them a mode that does not extract.
 */
export function unzipReadsOnly(args: (string | null)[]): boolean {
  // `-Z` first is zipinfo's mode: every option after it is zipinfo's, and zipinfo only lists.
  if (/^-Z/.test(args[0] ?? "")) return true;
  let mode = false;
  for (const t of readOptions(args, { flags: UNZIP_READS })) {
    if (t.kind === "dynamic" || t.kind === "unknown") return false;
    if (t.kind !== "flag") continue;
    if (t.name.startsWith("--") || !UNZIP_READS.includes(t.name[1])) return false;
    if (UNZIP_MODES.includes(t.name[1])) mode = true;
  }
  return mode;
}

const unzipHere = extractsHere("unzip", {
  // (`-j` still writes every member, by its base name, into the destination.)
  extracts: (args) => !unzipReadsOnly(args),
  destination: (args) => {
    const at = args.findIndex((a) => a !== null && /^-[a-zA-Z]*d/.test(a));
    if (at < 0) return null;
    const a = args[at]!;
    return a.endsWith("d") ? args[at + 1] ?? null : a.slice(a.indexOf("d") + 1);
  },
  // (`-:` keeps `..` in a member's path.)
  anywhere: (args) => has(args, /^-[a-zA-Z^]*:/, /^$/),
  // (The members after the archive, up to `-x` and the options after them.)
  members: (args) => {
    const words = args.slice(0, args.indexOf("-x") < 0 ? args.length : args.indexOf("-x"));
    const ops = words.filter((a, i) =>
      a !== null && !a.startsWith("-") && !/^-[a-zA-Z]*d$/.test(words[i - 1] ?? "")
    ) as string[];
    const junked = has(args, /^-[a-zA-Z]*j/, /^$/);
    return ops.slice(1).map((m) => (junked ? m.slice(m.lastIndexOf("/") + 1) : m));
  },
});

/**
 * What unzip extracts; with `-j`, every member lands by its base name right in the destination:
 * any name there (a glob of one level), not below it.
 */
function unzipFiles(argv: Word[]): NamedFile[] {
  const junked = argv.some((w, i) => i > 0 && /^-[a-zA-Z]*j/.test(w.value));
  return unzipHere(argv).map((f) =>
    junked && f.below && f.path !== null
      ? {
        path: f.path === "." ? "*" : `${f.path.replace(/\/+$/, "")}/*`,
        source: f.source,
        pattern: true,
      }
      : f
  );
}

/** zip's options that take a value. */
const ZIP_OPTIONS = { valued: "bntPZOs" };

/** zip, man and unzip. */
export const ARCHIVER_PROGRAMS: Program[] = [
  // `zip x.zip -@ < LIST`: the files it archives are named on standard input.
  {
    names: ["zip"],
    optionCommands: (stage, run) => {
      zipCommands(stage, run);
      zipRemoval(stage, run);
    },
    namedFiles: filesFromList({ stdin: ["-@", "--names-stdin"] }),
    // `zip -r` stores what the links in the tree lead to, unless `-y` stores the links.
    followsLinks: (argv) =>
      hasOption(argv, ZIP_OPTIONS, ["-r", "-R", "--recurse-paths", "--recurse-patterns"]) &&
      !hasOption(argv, ZIP_OPTIONS, ["-y", "--symlinks"]),
    treesNamed: () => true,
    // `zip -rm a.zip src`: what it archives is deleted.
    replacesTrees: zipMoves,
  },
  { names: ["man"], optionCommands: manCommands },
  {
    // (bsdunzip: libarchive's.)
    names: ["unzip", "bsdunzip"],
    readOnly: { "": { accepts: unzipReadsOnly } },
    // What it extracts lands below `-d dir`, else the cwd (extractors.ts).
    namedFiles: unzipFiles,
  },
];
