/**
 * Node's file tools that expand the glob patterns among their operands themselves, where bash left
 * them quoted (`Program.globOperands`), globby's (fast-glob's) with `(a|b)` a group of
 * alternatives (`GlobOperands.groups`), minimatch's without: removers (`rimraf 'dist/**'`, `del 'build/*'`, `shx rm -rf
 * 'a/*'`) remove what the glob matches, a copier (`cpy 'src/*.json' dist`) reads it, a linter
 * (`markdownlint --fix '**\/*.md'`, `markdownlint-cli2`) reads and fixes it. How each expands:
 *
 * - rimraf: every operand a glob (v3: unless `-G`/`--no-glob`, the last of it and `-g`/`--glob`
 *   deciding; v4 and later only with `--glob`: the version is not known, so each is taken as a
 *   glob unless turned off); its `*` taken to match a leading `.` (the options its versions pass
 *   are not known here).
 * - del-cli (`del`): globby's patterns, `!` excluding; a `*` taken to match a leading `.`.
 * - cpy-cli (`cpy`): the sources (not the destination, the last operand) are globby's patterns,
 *   a leading `.` matched with `--dot` only; with `--cwd=DIR` both are found from DIR.
 * - markdownlint (markdownlint-cli): its file operands are globs, a leading `.` matched with
 *   `--dot` only; markdownlint-cli2: `#` (and `!`) excludes, a leading `:` is a literal path, a
 *   leading `.` taken to match.
 * - shx: ShellJS globs the operands of the command it runs (`--noglob` turns it off), as bash
 *   would with no `dotglob`: the command is run with those words as glob words.
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { globOperandsOf, globWords } from "./glob_operands.ts";
import type { GlobOperands, Program, Runner } from "./spec.ts";
import type { Stage } from "../shell/model.ts";
import { markdownlintCli2Settings } from "./markdownlint_settings.ts";

/** The static value of a word, or null. */
const value = (w: Word | undefined) => (w?.kind === "static" ? w.value : null);

/** Whether rimraf globs its operands: the last of `-g`/`--glob` and `-G`/`--no-glob` decides. */
function rimrafGlobs(argv: Word[]): GlobOperands | null {
  let glob = true;
  for (const w of argv.slice(1)) {
    const v = value(w);
    if (v === "--") break;
    if (v === "-G" || v === "--no-glob") glob = false;
    else if (v === "-g" || v === "--glob") glob = true;
  }
  return glob ? globOperandsOf(argv, 1, NONE, true) : null;
}

const NONE: ReadonlySet<string> = new Set();

/** del-cli's options that take the next word (none: `--force`, `--dry-run`, `--verbose`). */
function delGlobs(argv: Word[]): GlobOperands | null {
  return globOperandsOf(argv, 1, NONE, true, "escape", true);
}

/** cpy-cli's options that take the next word. */
const CPY_VALUED: ReadonlySet<string> = new Set(["--cwd", "--base", "--rename", "--concurrency"]);

/**
 * cpy's sources: every glob operand but the destination (the last operand); with `--cwd DIR`
 * (`--cwd=DIR`, the last one) every source, found below DIR, and the destination too (cpy
 * resolves it from there: `cpy . '../dist/' --cwd=src` copies into `dist`).
 */
function cpyGlobs(argv: Word[]): GlobOperands | null {
  // (The destination is the last word that is no option, nor an option's value.)
  let last = -1;
  let base: string | null | undefined;
  const operands: number[] = [];
  for (let i = 1; i < argv.length; i++) {
    const v = value(argv[i]);
    const cwd = v === "--cwd" ? argv[i + 1] : argv[i].value.startsWith("--cwd=") ? argv[i] : null;
    if (cwd) {
      const dir = cwd === argv[i] ? { ...cwd, value: cwd.value.slice(6) } : cwd;
      base = dir.kind === "static" ? dir.value : null;
    }
    if (v === null ? argv[i].value.startsWith("-") : v.startsWith("-") && v !== "-") {
      if (v !== null && CPY_VALUED.has(v)) i++;
      continue;
    }
    last = i;
    operands.push(i);
  }
  const found = globOperandsOf(argv, 1, CPY_VALUED, false, "escape", true);
  const dot = found?.dot === true || argv.some((w) => value(w) === "--dot");
  if (base !== undefined && operands.length > 1) {
    return { at: operands.slice(0, -1), dot, groups: true, base, based: operands.slice(-1) };
  }
  if (!found) return null;
  const at = found.at.filter((i) => i !== last);
  return at.length ? { at, dot, groups: true } : null;
}

/** markdownlint-cli's options that take the next word. */
const MARKDOWNLINT_VALUED: ReadonlySet<string> = new Set([
  "-c",
  "--config",
  "-i",
  "--ignore",
  "-o",
  "--output",
  "-p",
  "--ignore-path",
  "-r",
  "--rules",
  "--enable",
  "--disable",
  "--configPointer",
]);

function markdownlintGlobs(argv: Word[]): GlobOperands | null {
  const found = globOperandsOf(argv, 1, MARKDOWNLINT_VALUED, false);
  if (!found) return null;
  return { at: found.at, dot: argv.some((w) => value(w) === "--dot") };
}

/** markdownlint-cli2's options that take the next word. */
const CLI2_VALUED: ReadonlySet<string> = new Set(["--config", "--format"]);

function markdownlintCli2Globs(argv: Word[]): GlobOperands | null {
  const found = globOperandsOf(argv, 1, CLI2_VALUED, true, "escape", true);
  if (!found) return null;
  // (`#pattern` excludes; `:path` is the path as written.)
  const at = found.at.filter((i) => !/^[#:]/.test(argv[i].value));
  return at.length ? { at, dot: true, groups: true } : null;
}

/** shx's own options (before its command). */
const SHX_OPTIONS = /^--(silent|verbose|noglob|negate|help|version)$/;

/**
 * `shx CMD ARGS…`: ShellJS's CMD, judged as that command is, its glob-character operands as the
 * glob words bash would make of them (no `dotglob`), unless `--noglob`.
 */
function shxRuns(stage: Stage, run: Runner): void {
  const argv = stage.argv;
  let at = 1;
  let glob = true;
  for (; at < argv.length; at++) {
    const v = value(argv[at]);
    if (v === null || !SHX_OPTIONS.test(v)) break;
    if (v === "--noglob") glob = false;
  }
  if (at >= argv.length) return;
  const words = argv.slice(at).map((w, i) =>
    i > 0 && glob && w.kind === "static" && /[*?[]/.test(w.value) && !w.value.startsWith("-")
      ? globWords(w)
      : [w]
  );
  // (A brace ShellJS's glob expands: each alternative a word, as bash's would be.)
  run.stage(words.flat(), "shx");
}

/** rimraf, del-cli, cpy-cli, markdownlint, markdownlint-cli2 and shx. */
export const GLOB_TOOL_PROGRAMS: Program[] = [
  {
    names: ["rimraf"],
    globOperands: rimrafGlobs,
    // (Not `writesOnlyNamed`: a quoted word names what its glob matches, not itself.)
    replacesTrees: true,
  },
  {
    names: ["del", "del-cli"],
    globOperands: delGlobs,
    replacesTrees: true,
  },
  { names: ["cpy", "cpy-cli"], globOperands: cpyGlobs },
  { names: ["markdownlint"], globOperands: markdownlintGlobs },
  {
    names: ["markdownlint-cli2"],
    globOperands: markdownlintCli2Globs,
    optionCommands: markdownlintCli2Settings,
  },
  { names: ["shx"], runs: shxRuns },
];
