/**
 * Cloners and generators that write below a directory named by what they fetch, not by a word of
 * the command: `hg clone URL [DEST]`, `bzr branch URL [DEST]` (brz, darcs alike) and
 * `glab repo clone REPO [DIR]` write below DEST, else below the source's last name in the cwd;
 * `glab repo clone -g GROUP` every repository of the group below the cwd; `fossil clone` and
 * `cookiecutter TEMPLATE` a directory the project names, below the cwd (or `-o DIR`). Each is a
 * directory written below (`NamedFile.below`), as `git clone` (git_checkouts.ts).
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { clonedDirectories } from "./cloners.ts";
 * clonedDirectories(["hg", "clone", "https://x/extensions"].map(literal));
 * // [{ path: "extensions", source: "(what hg clone writes)", below: true }]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { NamedFile, Program } from "./spec.ts";
import { cloneName } from "./git_checkouts.ts";
import { outputDirectory } from "./destinations.ts";
import { fossilSql } from "./databases.ts";
import { programName } from "./words.ts";
import { hgSettings } from "./hg_settings.ts";
import { darcsHooks } from "./darcs_settings.ts";

/** A program's cloning subcommands and the options of it that take the next word. */
interface Cloner {
  /** The subcommand words that clone (after the program's own options). */
  subcommands: RegExp;
  /** Options taking the next word as their value (a `--long=value` takes none). */
  valued: ReadonlySet<string>;
  /** The first operand is the destination, the source after it (`bzr export DEST SRC`). */
  destFirst?: RegExp;
  /** Options whose presence makes the names the server's (`glab repo clone -g GROUP`). */
  serverNamed?: ReadonlySet<string>;
}

const HG_VALUED = [
  "-u",
  "--updaterev",
  "-r",
  "--rev",
  "-b",
  "--branch",
  "-e",
  "--ssh",
  "--remotecmd",
  "--config",
  "--cwd",
  "-R",
  "--repository",
  "--encoding",
  "--encodingmode",
  "--color",
  "--pager",
];

const CLONERS: Record<string, Cloner> = {
  // (hg takes a unique prefix of a subcommand: `hg clon`.)
  hg: { subcommands: /^clo(ne?)?$/, valued: new Set(HG_VALUED) },
  bzr: {
    subcommands: /^(branch|get|clone|checkout|co|export)$/,
    valued: new Set(["-r", "--revision", "--format", "--lightweight-checkout", "--files-from"]),
    destFirst: /^export$/,
  },
  darcs: {
    subcommands: /^(clone|get)$/,
    valued: new Set(["--tag", "-t", "--to-match", "--to-patch", "--to-hash", "--context"]),
  },
  glab: {
    subcommands: /^clone$/,
    valued: new Set(["-g", "--group", "-v", "--visibility"]),
    serverNamed: new Set(["-g", "--group", "-p", "--preserve-namespace"]),
  },
};
CLONERS.brz = CLONERS.bzr;

/** The operands after `at`, past options and their values (and git's flags after `--`). */
function operands(args: (string | null)[], cloner: Cloner): (string | null)[] {
  const out: (string | null)[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") break;
    if (a !== null && a.startsWith("-") && a !== "-") {
      if (cloner.valued.has(a)) i++;
    } else out.push(a);
  }
  return out;
}

/** The directories a cloner writes below (see the module's notes). */
export function clonedDirectories(argv: Word[]): NamedFile[] {
  const name = programName(argv[0]);
  const cloner = CLONERS[name];
  if (!cloner) return [];
  const args = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  // (The subcommand: the first operand, after the program's own options; glab's is `repo clone`.)
  const words = operands(args, cloner);
  const at = name === "glab" ? (words[0] === "repo" ? 1 : -1) : 0;
  const sub = words[at];
  if (at < 0 || sub === null || sub === undefined || !cloner.subcommands.test(sub)) return [];
  const source = `(what ${name} ${sub} writes)`;
  const below = (path: string | null): NamedFile[] => [{ path, source, below: true }];
  const given = args.slice(args.indexOf(sub) + 1);
  // (Git's flags after `--` may bring in what is not seen: `--template`, `-c`.)
  const dashes = given.indexOf("--");
  if (dashes >= 0 && dashes < given.length - 1) {
    return [{ path: null, source: `${source}: git's flags` }];
  }
  if (given.some((a) => a !== null && cloner.serverNamed?.has(a.split("=")[0]))) return below(".");
  const rest = words.slice(at + 1);
  const [from, to] = cloner.destFirst?.test(sub) ? [rest[1], rest[0]] : rest;
  if (to !== undefined) return below(to);
  if (from === undefined) return [];
  return below(from === null ? null : cloneName(from));
}

/**
 * `fossil clone URL [FILE]`: the repository file, and a checkout in a directory the project names
 * (`--workdir DIR`), below the cwd.
 */
function fossilClone(argv: Word[]): NamedFile[] {
  const args = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  if (!args.some((a) => a === "clone" || a === null)) return [];
  return [{ path: ".", source: "(what fossil clone writes)", below: true }];
}

/** `cookiecutter TEMPLATE`: a directory the template names, below `-o DIR`, else the cwd. */
function cookiecutterOutput(argv: Word[]): NamedFile[] {
  const out = outputDirectory(["-o", "--output-dir"])(argv);
  if (out.length || argv.length < 2) return out;
  if (argv.slice(1).every((w) => w.kind === "static" && /^--?(h|help|V|version)$/.test(w.value))) {
    return [];
  }
  return [{ path: ".", source: "(what cookiecutter generates)", below: true }];
}

/** The cloners and generators. */
export const CLONER_PROGRAMS: Program[] = [
  { names: ["bzr", "brz", "glab"], namedFiles: clonedDirectories },
  // (The hooks darcs runs: darcs_settings.ts.)
  { names: ["darcs"], namedFiles: clonedDirectories, optionCommands: darcsHooks },
  // (What hg runs from its config files: hg_settings.ts.)
  { names: ["hg"], namedFiles: clonedDirectories, optionCommands: hgSettings },
  // (`fossil sql`, the sqlite3 shell: databases.ts.)
  { names: ["fossil"], namedFiles: fossilClone, optionCommands: fossilSql },
  { names: ["cookiecutter"], namedFiles: cookiecutterOutput },
];
