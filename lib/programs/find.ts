/**
 * find: the commands `-exec`/`-execdir`/`-ok`/`-okdir` run on what it finds (each `{}` a path
 * below its starting points), the words of its expression that name no file, the primaries that
 * write or execute (which keep `find` out of `$safe-bash`), and what it does to a directory it is
 * given (it lists it, and with `-delete` or a command it runs it may remove what is below); what it
 * prints into a pipe.
 *
 * @module
 */
import { resolve } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import type { Listing, Program, Runner } from "./spec.ts";
import { eachAlone, listedLines, literal, unknownWord } from "./words.ts";
import { findReach } from "./find_expression.ts";
import { filesFromList } from "./file_lists.ts";

/**
 * The commands `find -exec … ;` (and its kin) run. A `{}` of `-exec`/`-ok` is a path of what
 * find runs it on (the tests every path to it passes filter the names), as xargs's words are;
 * otherwise (`-execdir`'s `./NAME` in each file's directory, `{}` inside other text, a listing
 * not known) it is anything below a starting point.
 */
function findCommands(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const roots: string[] = [];
  let given = 0;
  for (const a of args) {
    if (a.kind !== "static" || /^[-(!]/.test(a.value)) break;
    given++;
    // (An empty starting point names no file: find says so, and goes on with the others.)
    if (a.value !== "") roots.push(a.value);
  }
  // (Given only empty ones, before its expression, find lists nothing: no command runs.)
  if (given && !roots.length && args[given]?.kind === "static") return;
  if (!roots.length) roots.push(".");
  for (let i = 0; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : "";
    if (v !== "-exec" && v !== "-execdir" && v !== "-ok" && v !== "-okdir") continue;
    const listed = v === "-exec" || v === "-ok"
      ? listedLines(stage, (s) => findListing(s, i + 1), { whole: true })
      : null;
    // `-execdir`/`-okdir` run in the directory of each file found, somewhere below a starting
    // point: a relative word there (`cat id_rsa`, `../../.ssh/id_rsa`) may name anything, and
    // `{}` is below a starting point as the stage's cwd names it.
    const inDir = v === "-execdir" || v === "-okdir";
    const cwd = stage.cwds.length === 1 ? stage.cwds[0] : null;
    const below = (r: string) => {
      const root = inDir && cwd !== null ? resolve(cwd, r) : r;
      return root.endsWith("/") ? root : root + "/";
    };
    const cmd: Word[] = [];
    let j = i + 1;
    for (; j < args.length; j++) {
      const x = args[j];
      if (x.kind === "static" && (x.value === ";" || x.value === "+")) break;
      if (x.kind === "static" && x.value === "{}" && listed) cmd.push(...listed);
      else if (x.kind === "static" && x.value.includes("{}")) {
        for (const r of roots) cmd.push(unknownWord(x.value, below(r)));
      } else cmd.push(x);
    }
    // (With `;` each run is given one path: a shell's `"$1"` is each listed word in turn.)
    const each = listed?.length && args[j]?.value === ";" ? eachAlone(cmd, listed) : [cmd];
    for (const c of cmd.length ? each : []) run.stage(c, `find ${v}`, inDir ? [null] : undefined);
    i = j;
  }
}

/** find primaries whose value is a file (`-newer f`, `-fprint out`, `-files0-from list`). */
const FIND_FILE_PRIMARIES =
  /^-(newer|anewer|cnewer|samefile|fprint|fprint0|fprintf|fls|files0-from)/;

/**
 * The words of a find expression that name no file: tests, patterns, numbers, operators and the
 * words of `-exec … ;` (that command is a stage of its own). The starting points stay targets,
 * and so do a file primary's value, any word with a `/`, and every glob or unknown word (one of
 * those can expand into `-delete` or `-exec`).
 */
function findExpressionWords(argv: Word[]): number[] {
  const out: number[] = [];
  let i = 1;
  // Options before the starting points: -H -L -P -O3, -D opts, BSD's -f path; then `--`.
  for (; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") {
      // A glob that begins with a name (`/var/www/*`, `src*`) expands to starting points only;
      // any other word not known may become an option or the expression.
      if (startsPaths(w)) break;
      return out;
    }
    if (/^-([HLP]+|O\d*)$/.test(w.value)) continue;
    if (w.value === "-D") {
      i++;
      continue;
    }
    if (w.value === "--") i++;
    break;
  }
  // The starting points: up to the first word that starts the expression.
  while (i < argv.length && !(argv[i].kind === "static" && /^([-(!),]|$)/.test(argv[i].value))) i++;
  let exec = false;
  for (; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static" || w.value.includes("/")) continue;
    if (exec) {
      if (w.value === ";" || w.value === "+") exec = false;
      out.push(i);
      continue;
    }
    if (FIND_FILE_PRIMARIES.test(w.value)) {
      out.push(i);
      i++; // its value names a file: a target
      continue;
    }
    if (/^-(exec|execdir|ok|okdir)$/.test(w.value)) exec = true;
    out.push(i);
  }
  return out;
}

/**
 * Whether a glob can only expand to starting points: its literal beginning is not one of find's
 * option or expression characters (`-`, `(`, `!`, `)`, `,`), so neither is any name it matches.
 */
function startsPaths(w: Word): boolean {
  return w.kind === "glob" && w.prefix !== "" && !/^[-(!),]/.test(w.prefix);
}

/** Whether find follows symlinks inside the trees it walks: `-L` before its paths, or `-follow`. */
function findFollows(argv: Word[]): boolean {
  let follows = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") break;
    if (/^-[HLP]+$/.test(w.value)) follows = w.value.endsWith("L"); // the last one counts
    else if (!/^-(O\d*|D)$/.test(w.value)) break;
  }
  return follows || argv.some((w) => w.kind === "static" && w.value === "-follow");
}

/** Primaries after which find prints more than the paths it found (or runs what prints). */
const FIND_PRINTS = /^-(exec|execdir|ok|okdir|printf|fprintf|fprint0?|fls|ls)$/;

/**
 * The indexes in argv of find's starting points (after its options) and of its expression, or
 * null where those are not all known (a starting point or option not known before it runs).
 */
function findParts(argv: Word[]): { roots: number; start: number } | null {
  let i = 1;
  for (; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") return null;
    // (BSD's `-E -X -d -s -x` and `-f PATH` too: `find -x data -name x`.)
    if (w.value === "-D" || w.value === "-f") i++;
    else if (!/^-([HLPEXdsx]+|O\d*)$/.test(w.value)) break;
  }
  if (argv[i]?.kind === "static" && argv[i].value === "--") i++;
  const roots = i;
  for (; i < argv.length; i++) {
    const w = argv[i];
    // (An empty word is a starting point, not the expression's start: find says it names no
    // file and goes on.)
    if (w.kind === "static" && /^[-(!),]/.test(w.value)) break;
    if (w.kind === "dynamic") return null;
  }
  return { roots, start: i };
}

/**
 * The values of an expression's words, a word not known inside the command of an `-exec` (or
 * its kin) as `{}` (it names no test): null where one is elsewhere (it may be any primary).
 */
function expressionWords(expression: Word[]): string[] | null {
  const out: string[] = [];
  let runs = false;
  for (const w of expression) {
    if (w.kind !== "static") {
      if (!runs) return null;
      out.push("{}");
      continue;
    }
    if (runs && (w.value === ";" || w.value === "+")) runs = false;
    else if (!runs && /^-(exec|execdir|ok|okdir)$/.test(w.value)) runs = true;
    out.push(w.value);
  }
  return out;
}

/**
 * What find prints: the paths below its starting points (each a static word or a glob), when its
 * expression only prints them (no `-printf`, `-ls`, `-exec`, nothing unknown that could be one);
 * with `at`, the paths its `-exec`/`-ok` at that index of argv runs on. A `-name`/`-iname` test
 * every path printed passes filters the names (see `findReach`); find's `*` matches a leading
 * `.`, which bash's does not, so `*.py` is read as `*.py` and `.*.py`.
 */
function findListing(stage: Stage, at?: number): Listing[] | null {
  const parts = findParts(stage.argv);
  if (parts === null) return null;
  const { start } = parts;
  const given = stage.argv.slice(parts.roots, start);
  // (An empty starting point names no file: find says so, and lists the others.)
  const roots = given.filter((w) => w.kind !== "static" || w.value !== "");
  const words = expressionWords(stage.argv.slice(start));
  if (words === null || (at === undefined && words.some((w) => FIND_PRINTS.test(w)))) return null;
  let reach = findReach(words, at === undefined ? undefined : (j) => j + start === at);
  // (An expression not read whole, `-exec cmd {}` without its `;`: a path that reaches the
  // primary passes every test before it, which, read alone, hold for it.)
  if (at !== undefined && reach.names === null) {
    const before = findReach(words.slice(0, at - start), "held");
    if (before.names !== null) reach = before;
  }
  const listings = (given.length ? roots : [literal(".")]).flatMap((under) =>
    reach.names === null
      ? namedBelow(under, undefined)
      : reach.names.flatMap((name) => namedBelow(under, name))
  );
  // Only files or only directories, found without following links (-P, find's default, for the
  // starting points too): none is a symlink, and none lies below one.
  if (
    reach.typed && !findFollows(stage.argv) &&
    !stage.argv.slice(1, parts.roots).some((w) => /^-[HLP]*H/.test(w.value))
  ) {
    for (const l of listings) l.noLinks = true;
  }
  if (findFollows(stage.argv)) { for (const l of listings) l.follows = true; }
  return listings;
}

/**
 * Paths below `under` whose last component a find-style name glob matches (no filter when it is
 * undefined, or one this form cannot say: a leading `?` or `[`). Its `*` matches a leading
 * `.` as well, which a bash name glob does not: both readings are kept.
 */
export function namedBelow(under: Word, name: string | undefined): Listing[] {
  if (name === undefined || /^[?[]/.test(name)) return [{ under }];
  if (!name.startsWith("*")) return [{ under, names: name }];
  // find's `*` matches a leading dot, and nothing at all: `*.env` names `.x.env` and `.env`.
  const rest = name.replace(/^\*+/, "");
  const empty = rest.startsWith(".") && rest.length > 1 ? [{ under, names: rest }] : [];
  return [{ under, names: name }, { under, names: "." + name }, ...empty];
}

/** Primaries that remove what find lists, or run a command on it that may. */
const FIND_REPLACES = /^-delete$/;

/**
 * Whether find may delete what lies below its starting points: `-delete`, or a word not known
 * before it runs (`$X`, `-de*`). (A command it runs on what it finds, `-exec rm {} +`, is a stage
 * of its own, given the paths find lists: judged by what that command does with them.)
 */
function findReplaces(argv: Word[]): boolean {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static" || FIND_REPLACES.test(w.value)) return true;
  }
  return false;
}

/**
 * What `-delete` removes is limited to the names a `-name`/`-iname` test every path to it passes
 * matches (`find . -name .env -delete`, `-name '*.o' -not -path './.git/*' -delete`): the
 * protected names those may be count, and only those. Where none does (`-name x -o -delete`),
 * or a word is not known, any name; with no name test, none (a whole tree, as `rm -r`'s).
 */
function deletedNames(argv: Word[]): string[] {
  if (!argv.some((w) => w.value === "-delete")) return [];
  // (A word not known, `$X`, may be or become any part of the expression.)
  const parts = findParts(argv);
  if (parts === null || argv.some((w) => w.kind !== "static" && !startsPaths(w))) return ["*"];
  if (argv.slice(parts.start).some((w) => w.kind !== "static")) return ["*"];
  const words = argv.slice(parts.start).map((w) => w.value);
  // (With no name test at all, a whole tree: as for `rm -r`, name globs do not count there.)
  const named = words.some((w) => /^-i?name$/.test(w));
  return findReach(words, (at) => words[at] === "-delete").names ?? (named ? ["*"] : []);
}

/** find. */
export const FIND_PROGRAMS: Program[] = [
  {
    names: ["find"],
    runs: findCommands,
    // (`-files0-from LIST`: its starting points are the names LIST, or standard input, holds.)
    namedFiles: filesFromList({ valued: ["-files0-from"] }),
    text: findExpressionWords,
    readOnly: {
      "": {
        // deno-fmt-ignore
        words: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf",
          "-fls"],
      },
    },
    metadataOnly: true,
    // (`-name`, `-newer`: primaries; `-D`'s and `-O`'s values name no file.)
    wholeOptions: true,
    replacesTrees: findReplaces,
    treeNames: deletedNames,
    namesLimitTrees: true,
    followsLinks: findFollows,
    // (Its starting points, before the expression: without one it searches the cwd.)
    treesNamed: (argv) => {
      let i = 1;
      while (i < argv.length && /^-([HLP]|D|O\d*)$/.test(argv[i].value)) {
        i += argv[i].value === "-D" ? 2 : 1;
      }
      const w = argv[i];
      return w !== undefined && w.kind === "static" && !/^[-(!]/.test(w.value);
    },
    lists: (stage) => findListing(stage),
  },
];
