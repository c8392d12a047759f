/**
 * What a command tells the expansion of its globs ({@linkcode GlobScope}): the glob options it
 * sets, and where its stages may create, remove or rename files. A glob is expanded against the
 * filesystem as it is now; where another stage of the same command may change what it would
 * match (`touch a.pem && cat *.pem`, `ln -s ~/.ssh k; cat k*\/*`), it is judged by its prefix.
 * The same tells what a file a program reads for what it holds will hold (`patch < fix.diff`,
 * `psql -f schema.sql`): what is there, and what here-documents the command writes into it.
 *
 * @module
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import { isFileTarget, type Stage, type Word } from "../shell/model.ts";
import {
  expandPathname,
  type GlobOptions,
  globOptions,
  hasGlob,
} from "../shell/pathname_expansion.ts";
import { isWithin, processPath, procSpelling, realPath } from "../shell/paths.ts";
import { runTimePattern } from "../shell/run_time_parts.ts";
import { withoutQuotedData } from "../shell/walk_values.ts";
import { programOf } from "../programs/registry.ts";
import { SETTINGS_GLOBS } from "../programs/glob_operands.ts";
import type { GlobWords, ReadFile } from "../programs/spec.ts";
import { hereFile } from "./this_machine.ts";
import type { Context } from "../types.ts";
import { CD_BUILTINS } from "./stage_subject.ts";
import { SHELLS } from "../programs/shells.ts";
import { checkoutAreas } from "./git_writes.ts";
import { indexAreas } from "./git_index_only.ts";
import { removesOnly } from "./removers.ts";
import { libpqReads } from "../programs/libpq.ts";

/**
 * What a command tells the expansion of its globs: the options it sets (`shopt -s dotglob`), and
 * whether another stage of it may create, remove or rename files at or below a directory (then
 * what a glob there matches when its stage runs is not what is there now).
 */
export interface GlobScope {
  options: GlobOptions;
  /**
   * The command may name a directory through a descriptor (`/dev/fd/3`, `/proc/self/fd/3`): it
   * names /dev or /proc somewhere. (Then a directory a redirect opens is reached below it.)
   */
  descriptors: boolean;
  /**
   * `dir`: absolute, as written (it may hold a `..`). `word`: the glob asking, when one does: a
   * word of a stage the command's shell runs was expanded before that stage started, so neither
   * it nor what it runs (`npx eslint src/*.ts`: npx and eslint) changes its matches.
   */
  disturbed(dir: string, stage: Stage | undefined, word?: Word, opts?: DisturbedOptions): boolean;
  /** The stages that may change what is at or below `dir` first (those `disturbed` counts). */
  changers(dir: string, stage: Stage | undefined, opts?: DisturbedOptions): Stage[];
  /**
   * The files the command opens for reading on descriptor `fd` (`3<f`, `<f` for 0, `exec 3<f`, a
   * group's), with the cwds of their stages: a write to `/dev/fd/3` opens them again, for writing
   * (see `reopenedWrites`). Where a copy sets it (`4<&3`), any file the command reads so.
   */
  openOn(fd: number): { target: Word; cwds: (string | null)[] }[];
  /** Whether a stage may write what it names: its program is not one that only reads. */
  mayWrite(stage: Stage): boolean;
  /**
   * What other stages of the command write into `path` (absolute), when that is all that may
   * change its directory: the bodies of here-documents `cat` writes there (`cat > f <<'EOF'`),
   * none when nothing does; null when another stage may change it otherwise.
   */
  written(path: string, stage: Stage): string[] | null;
  /**
   * The same for one file read by `stage` (run by `top`, the stage of the command's shell): a
   * stage that writes elsewhere in its directory (`rm -rf node_modules`) does not count, nor one
   * that may write anywhere but names no place at or above the file (`npm install`, `make`: a
   * program that rewrites files it does not name is judged by its command, README "Known
   * limits"), nor one that runs after the reader.
   */
  fileWritten(
    path: string,
    stage: Stage,
    top?: Stage,
    /** Writers the caller follows itself (git's stages that change its settings). */
    skip?: (writer: Stage) => boolean,
  ): string[] | null;
}

/** How `GlobScope.disturbed` asks. */
export interface DisturbedOptions {
  /**
   * A name as the command writes it (`/tmp/out.$$`, a name bash computes as it runs): a stage
   * that writes nothing but this name by its redirects (`cat a > /tmp/out.$$`) makes a file of
   * that name, no other: it changes nothing else that the name may be. (A link the command makes
   * by that name is followed from the name as written.)
   * @default undefined (every writer counts)
   */
  name?: string;
  /**
   * What the stage finds where it starts (the index git reads): a writer of a later stage, in a
   * command whose stages run one after another, does not count.
   * @default false
   */
  started?: boolean;
  /**
   * Only a writer at `dir` or above it counts (what is at `dir` itself, a program a stage runs
   * by its path): one below it or elsewhere does not, nor one that may write anywhere but names
   * no place at or above it (`npm install`, see `fileWritten`).
   * @default false
   */
  at?: boolean;
  /**
   * What a walk finds below `dir` (`find build | xargs rm`'s names, looked for as they are
   * now): a writer that only removes names (`rm`, `rmdir`, `unlink`, `find -delete`, and a
   * `find -exec` or `xargs` that runs nothing else) does not count, for it makes no name appear
   * there (what is there now stays a superset of what the walk finds).
   * @default false
   */
  removals?: boolean;
  /**
   * What a stage finds below `dir` when it reads it (its names, for a path glob there): the
   * stage of the command's shell that runs it (`npx` for `npx vitest run src`), and a stage it
   * runs, do not count, each judged itself for what it writes (a wrapper writes nothing there of
   * its own; what the program it runs writes is its own).
   * @default false
   */
  wrapper?: boolean;
}

/**
 * Whether a stage writes nothing but `name` (absolute), by its redirects (its program writes
 * nothing it names).
 */
function writesOnlyName(stage: Stage, name: string, readsOnly: (s: Stage) => boolean): boolean {
  const written = stage.redirects.filter((r) => r.kind === "write" && isFileTarget(r));
  if (!written.length) return false;
  for (const r of written) {
    if (r.target!.kind !== "static" || stage.cwds.some((c) => c === null)) return false;
    if (stage.cwds.some((c) => resolve(c!, r.target!.value) !== name)) return false;
  }
  const own = writeAreas({ ...stage, redirects: [] }, readsOnly);
  return own !== null && own.length === 0;
}

/**
 * The directory a glob lists from: its components before the first with a glob character, in
 * `cwd`, as written (a `..` in it is walked from where the names before it lead); null when a
 * `..` after them may leave it.
 */
export function globRegion(pattern: string, cwd: string): string | null {
  const parts = pattern.split("/");
  const at = parts.findIndex(hasGlob);
  if (parts.slice(at).some((p) => p === "..")) return null;
  const dir = parts.slice(0, at).join("/").replace(/\\([\s\S])/g, "$1");
  if (dir.startsWith("/")) return dir;
  return dir ? cwd + "/" + dir : cwd;
}

/**
 * What bash makes of a stage's glob words (see `GlobWords`), as a glob word's targets are found:
 * its matches in the stage's one cwd where no other stage may change them.
 */
export function stageGlobWords(stage: Stage, ctx: Context, scope: GlobScope): GlobWords {
  const { options } = scope;
  const words = (w: Word): string[] | null => {
    const cwd = stage.cwds.length === 1 ? stage.cwds[0] : null;
    const region = cwd === null || !w.pattern ? null : globRegion(w.pattern, cwd);
    if (region === null || scope.disturbed(region, stage, w)) return null;
    const found = expandPathname(w.pattern!, cwd!, ctx.fs, options);
    if (found.kind === "matches") return found.words;
    if (found.kind === "fallback") return null;
    return options.nullglob || options.failglob ? [] : [w.value];
  };
  return { words, dotglob: options.dotglob === true };
}

/** Builtins that export a variable to the stages after them (its file is read there). */
const EXPORTS = /^(export|declare|typeset|readonly|local)$/;

/** The largest file a program's facet reads to know what it names (a diff, 1 MiB). */
const READ_LIMIT = 1 << 20;

/**
 * The text of a file a stage reads (`patch < fix.diff`), as it will be when the command runs: what
 * it holds and what here-documents the command writes into it add (`cat > fix.diff <<'EOF'`);
 * null where that cannot be known (several cwds or an unknown one, another stage of the command
 * may write where it lies otherwise, no glob scope to ask, too large).
 */
export function stageFileText(
  stage: Stage,
  path: string,
  ctx: Context,
  globs: GlobScope | undefined,
): string | null {
  const cwd = stage.cwds.length === 1 ? stage.cwds[0] : null;
  if (cwd === null || !globs || !ctx.fs.readText) return null;
  const at = fileOfPath(resolve(cwd, path), cwd, ctx);
  if (at === null || at === "/dev/null") return at === null ? null : "";
  const written = globs.written(at, stage);
  if (written === null) return null;
  const now = ctx.fs.readText(at, READ_LIMIT);
  if (!written.length) return now;
  // (What is there now too: the stage may run before the write, or after one that failed.)
  if (now === null && ctx.fs.exists(at)) return null;
  return [now ?? "", ...written].join("\n");
}

/**
 * The text of a settings file a stage's program reads (absolute, or from its cwds), as it will
 * be when the command runs: "" where there surely is none; null where that cannot be known
 * (`Runner.settings`; `script`: one file's text, as a script's).
 */
export function stageSettingsText(
  stage: Stage,
  path: string,
  ctx: Context,
  globs: GlobScope | undefined,
  top?: Stage,
  script = false,
): string | null {
  if (!globs || !ctx.fs.readText) return null;
  // (From each cwd the stage may run in, as it is lexically and where it really is: the files
  // of all, together.)
  const places = isAbsolute(path)
    ? [path]
    : stage.cwds.includes(null)
    ? null
    : [...new Set(stage.cwds.map((c) => resolve(c!, path)))];
  if (places === null || (script && places.length > 1)) return null;
  const texts: string[] = [];
  for (const place of places) {
    // (A descriptor, `--config <(…)`, `/dev/stdin`: what the command gives it is not known.)
    const at = fileOfPath(place, stage.cwds.length === 1 ? stage.cwds[0] : null, ctx);
    if (at === null) return null;
    if (at === "/dev/null") continue;
    const written = globs.fileWritten(at, stage, top);
    if (written === null || (script && written.length)) return null;
    // (A script that is not there is not known: it may be there by the time it runs.)
    const now = ctx.fs.exists(at) ? ctx.fs.readText(at, READ_LIMIT) : script ? null : "";
    if (now === null) return null;
    texts.push(now, ...written);
  }
  return texts.filter(Boolean).join("\n");
}

/**
 * The file an absolute path of a stage leads to when the stage opens it: the path itself, or the
 * one a path of its own process leads to (`/proc/self/cwd/x`, with `cwd` known); `/dev/null`
 * for an empty file; null for any other in /dev or /proc: an open descriptor (`/dev/fd/63`, a
 * process substitution `<(…)`; `/dev/stdin`, `/proc/self/fd/3`) or a device, whose text the
 * command gives as it runs.
 */
function fileOfPath(path: string, cwd: string | null, ctx: Context): string | null {
  const proc = procSpelling(path, ctx.fs);
  if (proc === undefined) return path;
  if (resolve(proc) === "/dev/null") return "/dev/null";
  const mapped = processPath(proc, cwd);
  return typeof mapped === "string" && procSpelling(mapped, ctx.fs) === undefined ? mapped : null;
}

/**
 * Where a stage may write: the absolute paths at or below which it creates, removes, renames or
 * changes files; null when that may be anywhere (a program not known to write only what it
 * names, code it runs, a name not known).
 */
export function writeAreas(stage: Stage, readsOnly: (s: Stage) => boolean): string[] | null {
  const areas: string[] = [];
  for (const r of stage.redirects) {
    if (r.kind !== "write" || !isFileTarget(r)) continue;
    if (!wordAreas(r.target!, stage.cwds, areas)) return null;
  }
  const name = stage.argv[0];
  if (!name) return areas;
  if (name.kind !== "static") return null;
  const program = programOf(name);
  // (A program that opens no path it is given writes none: `echo`, `shopt`, `sleep`.)
  if (CD_BUILTINS.has(name.value) || program?.noFileOperands || readsOnly(stage)) return areas;
  // (What libpq reads, a variable names: `export PGSSLROOTCERT=$CA; psql`.)
  if (libpqReads(name.value)) return areas;
  if (!program?.writesOnlyNamed) return null;
  // Every operand may be a name it makes (`touch new`, `ln -s T k`), existing or not.
  for (const w of stage.argv.slice(1)) {
    if (w.kind === "static" && w.value.startsWith("-")) {
      const eq = w.value.indexOf("=");
      if (eq !== -1 && !wordAreas({ ...w, value: w.value.slice(eq + 1) }, stage.cwds, areas)) {
        return null;
      }
      continue;
    }
    if (!wordAreas(w, stage.cwds, areas)) return null;
  }
  return areas;
}

/** A word's paths as areas, in each cwd (into `out`); false when it may name any place. */
function wordAreas(w: Word, cwds: (string | null)[], out: string[]): boolean {
  if (w.kind === "dynamic") return false;
  // A glob may name anything below its prefix; so may a name bash computes as it runs (`$?/k`).
  const timed = w.kind === "static" && /[$`]/.test(w.value) && runTimePattern(w.value) !== null;
  const prefix = timed ? w.value.slice(0, w.value.indexOf("$")) : w.prefix;
  const text = w.kind === "static" && !timed
    ? w.value
    : prefix.endsWith("/")
    ? prefix
    : dirname(prefix || ".");
  if ((w.kind !== "static" || timed) && /(^|\/)\.\.(\/|$)/.test(w.value)) return false;
  for (const c of cwds) {
    if (c === null && !text.startsWith("/")) return false;
    out.push(resolve(c ?? "/", text));
  }
  return true;
}

/**
 * Whether the command's stages run one after another in their order: each of its own shell's is
 * a plain command of its top level, in no pipeline, loop, function, subshell or substitution, and
 * none runs in the background (then a later one starts after an earlier one's words expanded).
 */
function inSequence(
  text: string,
  stages: Stage[],
  tops: ReadonlyMap<Stage, Stage> | undefined,
): boolean {
  if (/(^|[^&>|])&(?![&>])/.test(withoutQuotedData(text))) return false;
  return stages.every((s) => tops?.has(s) || (s.origin === "top" && !s.piped && !s.input));
}

/**
 * Whether writer `w` is `stage` itself, or the stage it is judged in place of (`git push origin`
 * for `git push /srv/x`, its remote's URL), or the same process judged beside it (`beside`: as
 * the program its link reaches, as a program not known): no writer before it.
 */
function sameStage(
  w: Stage,
  stage: Stage | undefined,
  instead: ReadonlyMap<Stage, Stage> | undefined,
  beside?: ReadonlyMap<Stage, Stage>,
): boolean {
  if (w === stage || stage === undefined) return w === stage;
  if (instead?.get(stage) === w) return true;
  return beside !== undefined && (beside.get(w) ?? w) === (beside.get(stage) ?? stage);
}

/**
 * The files the stages' redirects open for reading on descriptor `fd` (on any, where one of them
 * copies a descriptor to `fd`: see `GlobScope.openOn`).
 */
function filesOpenOn(
  stages: Stage[],
  fd: number,
): { target: Word; cwds: (string | null)[]; fd: number }[] {
  const files: { target: Word; cwds: (string | null)[]; fd: number }[] = [];
  let copied = false;
  for (const s of stages) {
    for (const r of s.redirects) {
      const n = /^\d+/.exec(r.op);
      const at = n ? Number(n[0]) : r.op[0] === "<" ? 0 : 1;
      if (r.kind === "dup") copied ||= at === fd;
      else if (r.kind === "read" && isFileTarget(r)) {
        files.push({ target: r.target!, cwds: s.cwds, fd: at });
      }
    }
  }
  return files.filter((f) => copied || f.fd === fd);
}

/**
 * Whether `w` is the shell whose command line holds `word` of `stage` (`bash -c 'cat s*\/key'`):
 * it writes nothing before it runs its line (no redirect of its own), so what the glob matches
 * when the line runs is what its own stages change (each a writer of its own), not it. So is
 * the program whose settings add a glob (`SETTINGS_GLOBS`).
 */
function lineShell(w: Stage, stage: Stage, word: Word): boolean {
  if (w === stage || w.redirects.some((r) => r.kind === "write")) return false;
  // (Or the program whose settings add the glob: it expands it before it writes.)
  if (stage.origin === SETTINGS_GLOBS) return true;
  const name = w.argv[0];
  if (name?.kind !== "static" || !SHELLS.includes(name.value.replace(/^.*\//, ""))) return false;
  return w.argv.some((a, i) => i > 0 && a.kind === "static" && a.value.includes(word.text));
}

/**
 * Whether a writer writes at one of `paths` or above it: one elsewhere in its directory changes
 * it not, nor one that makes only what it names (`mkdir app`) above it.
 */
function writesAt(
  w: { stage: Stage; areas: string[] | null },
  paths: string[],
  ctx: Context,
  reads: WriterReads,
): boolean {
  if (w.areas === null) return namesPlaceAbove(w.stage, paths, ctx, reads);
  const name = w.stage.argv[0];
  const program = name ? programOf(name) : undefined;
  const makes = program?.metadataOnly === true && program.writesOnlyNamed === true;
  return w.areas.some((a) => {
    const real = realPath(a, ctx.fs);
    return paths.some((p) => makes ? p === a || p === real : isWithin(p, a) || isWithin(p, real));
  });
}

/** How the words of a writer that may write anywhere are read (see `namesPlaceAbove`). */
interface WriterReads {
  /**
   * A file a stage reads (its diff, `patch < fix.diff`; its program's settings, absolute), as it
   * will be when it runs: what the stages before it write there count, no later one.
   */
  read(stage: Stage): ReadFile;
  /**
   * Whether a word of the stage is one of the words of a command it runs (`npx prettier --write
   * .`: prettier's), judged as that command's: a stage of its own, a writer of its own.
   */
  carried(stage: Stage, word: Word): boolean;
}

/**
 * The glob scope of a command's stages (`text`: the whole command). Where each stage may write
 * is worked out once, when a glob first asks.
 */
export function globScope(
  text: string,
  stages: Stage[],
  ctx: Context,
  readsOnly: (s: Stage) => boolean,
  /** The stage of the command's own shell each stage a wrapper runs comes from. */
  tops?: ReadonlyMap<Stage, Stage>,
  /**
   * The stage each stage judged beside one is (the same process: the program a link of it
   * reaches, linked_programs.ts; it as a program not known, unnamed_programs.ts).
   */
  beside?: ReadonlyMap<Stage, Stage>,
  /** The stage each stage judged in its place stands for (see `sameStage`). */
  instead?: ReadonlyMap<Stage, Stage>,
): GlobScope {
  let writers: { stage: Stage; areas: string[] | null }[] | undefined;
  let sequential: boolean | undefined;
  const reads = writerReads(ctx, stages, tops, () => scope);
  const writing = () => {
    if (writers) return writers;
    writers = stages.map((s) => ({ stage: s, areas: writeAreas(s, readsOnly) }))
      .filter((w) => w.areas === null || w.areas.length > 0);
    // (Then what a git stage writes from other commits, where it is known: whether another stage
    // may change the repository first is asked of the others as the first pass has them.)
    if (writers.some(checksOut)) writers = knownCheckouts(writers, text, ctx, counting);
    return writers;
  };
  // Whether a writer may change what is in one of dirs (lexically, and where it really is:
  // `conf/..` is the parent of where conf leads).
  const touches = (w: { areas: string[] | null }, dirs: string[]) =>
    w.areas === null || w.areas.some((a) => {
      const real = realPath(a, ctx.fs);
      return dirs.some((d) =>
        isWithin(a, d) || isWithin(d, a) || isWithin(real, d) || isWithin(d, real)
      );
    });
  // Whether a writer may change what is in dir before `stage` runs.
  const counting = (
    dir: string,
    stage: Stage | undefined,
    word: Word | undefined,
    opts: DisturbedOptions,
  ) => {
    const { name, started, at: only, removals, wrapper } = opts;
    const dirs = [resolve(dir), realPath(dir, ctx.fs)];
    // (A writer run by the stage whose word it is, or a later one in sequence, starts after.)
    const top = (s: Stage) => tops?.get(s) ?? s;
    // (A stage judged apart, a line an argument carries, is in no order: not after; nor is a
    // trap's handler, which runs when its signal comes: `trap 'git add -A' EXIT; mv .gitignore x`.)
    const at = stage === undefined || trapHandler(stage) ? -1 : stages.indexOf(top(stage));
    const after = (w: Stage) =>
      (word !== undefined && top(w).argv.includes(word)) ||
      (word !== undefined && stage !== undefined && readsFirst(top(w), top(stage), word)) ||
      ((word !== undefined || started === true) && at >= 0 &&
        (sequential ??= inSequence(text, stages, tops)) && stages.indexOf(top(w)) > at);
    // (git resolves an alias before it does anything: the stage naming it changes nothing
    // before what the alias runs, `git d` with `alias.d=diff`.)
    const alias = stage?.origin === "git alias" ? tops?.get(stage) : undefined;
    // (The shell a line of which the stage is, when it is a stage of this shell.)
    const carrier = (w: Stage, s: Stage, wd: Word) => top(s) === w && lineShell(w, s, wd);
    return (w: { stage: Stage; areas: string[] | null }) =>
      !sameStage(w.stage, stage, instead, beside) && w.stage !== alias && !after(w.stage) &&
      !(wrapper === true && wrapping(w.stage, stage, top)) &&
      !(word !== undefined && stage !== undefined && carrier(w.stage, stage, word)) &&
      (only ? writesAt(w, dirs, ctx, reads) : touches(w, dirs)) &&
      !(name !== undefined && writesOnlyName(w.stage, name, readsOnly)) &&
      !(removals === true && removesOnly(w.stage, stages, tops));
  };
  const scope: GlobScope = {
    options: globOptions(text, stages, ctx.env),
    descriptors: text.includes("dev/") || text.includes("proc"),
    disturbed(dir: string, stage: Stage | undefined, word?: Word, opts = {}): boolean {
      return writing().length > 0 && writers!.some(counting(dir, stage, word, opts));
    },
    changers(dir: string, stage: Stage | undefined, opts = {}): Stage[] {
      if (!writing().length) return [];
      return writers!.filter(counting(dir, stage, undefined, opts)).map((w) => w.stage);
    },
    openOn: (fd: number) => filesOpenOn(stages, fd),
    mayWrite(stage: Stage): boolean {
      return !readsOnly(stage);
    },
    fileWritten(path: string, stage: Stage, top = stage, skip?: (w: Stage) => boolean) {
      if (!writing().length) return [];
      // (The path's real path is looked up only once a writer may be another stage: most
      // commands have none, and a git stage asks of its config files and every hook.)
      let known: string[] | undefined;
      const pathsOf = () => known ??= [path, realPath(path, ctx.fs)];
      const texts: string[] = [];
      // (Where the command's stages run one after another, one after the reader's is too late:
      // `npm test && git push`. An exported variable's file is read by any stage after it.)
      const reader = EXPORTS.test(top.argv[0]?.value ?? "") ? -1 : stages.indexOf(top);
      const ordered = reader >= 0 && (sequential ??= inSequence(text, stages, tops));
      for (const w of writers!) {
        const own = sameStage(w.stage, stage, instead, beside) || w.stage === top;
        if (own || skip?.(w.stage) || runsAfter(w.stage, stage)) continue;
        if (ordered && stages.indexOf(w.stage) > reader) continue;
        if (!writesAt(w, pathsOf(), ctx, reads)) continue;
        const body = heredocInto(w.stage, path);
        if (body === null) return null;
        texts.push(body);
      }
      return texts;
    },
    written(path: string, stage: Stage): string[] | null {
      if (!writing().length) return [];
      const dir = dirname(path);
      const dirs = [resolve(dir), realPath(dir, ctx.fs)];
      const texts: string[] = [];
      for (const w of writers!) {
        if (sameStage(w.stage, stage, instead, beside) || !touches(w, dirs)) continue;
        const body = heredocInto(w.stage, path);
        if (body === null) return null;
        texts.push(body);
      }
      return texts;
    },
  };
  return scope;
}

/** Whether writer `w` runs `stage`, or `stage` runs it (see `DisturbedOptions.wrapper`). */
function wrapping(w: Stage, stage: Stage | undefined, top: (s: Stage) => Stage): boolean {
  return stage !== undefined && (w === top(stage) || top(w) === stage);
}

/**
 * How the command's writers that may write anywhere are read (`WriterReads`): a file as it will
 * be when the stage runs, in the scope `scope` gives; a stage's read asked again while it is being
 * read (two formatters' settings, each the other's writer) is not known.
 */
function writerReads(
  ctx: Context,
  stages: Stage[],
  tops: ReadonlyMap<Stage, Stage> | undefined,
  scope: () => GlobScope,
): WriterReads {
  const reading = new Set<Stage>();
  return {
    read: (stage) => (path) => {
      if (reading.has(stage)) return null;
      reading.add(stage);
      try {
        return stageSettingsText(stage, path, ctx, scope());
      } finally {
        reading.delete(stage);
      }
    },
    carried: (stage, word) => carriedWord(stage, word, stages, tops),
  };
}

/**
 * Whether `word` of `stage` is a word of a command the stage's program runs (`npx prettier
 * --write .`, `sudo -u u gofmt -w .`): another stage from the same stage of the command's shell
 * holds it, and the program runs commands (a wrapper, a package runner).
 */
function carriedWord(
  stage: Stage,
  word: Word,
  stages: Stage[],
  tops: ReadonlyMap<Stage, Stage> | undefined,
): boolean {
  if (!tops?.size || !programOf(stage.argv[0])?.runs) return false;
  const top = tops.get(stage) ?? stage;
  return stages.some((s) => s !== stage && (tops.get(s) ?? s) === top && s.argv.indexOf(word) > 0);
}

/** Whether a writer is a git stage whose writes are not known by its words. */
function checksOut(w: { stage: Stage; areas: string[] | null }): boolean {
  const name = w.stage.argv[0];
  return w.areas === null && name?.kind === "static" && /(^|\/)git$/.test(name.value);
}

/**
 * The writers with each git stage that writes files of other commits given where it writes, where
 * that is known (`checkoutAreas`): `settled` as `counting` asks of the writers as they are.
 */
function knownCheckouts(
  writers: { stage: Stage; areas: string[] | null }[],
  text: string,
  ctx: Context,
  counting: (
    dir: string,
    stage: Stage | undefined,
    word: Word | undefined,
    opts: DisturbedOptions,
  ) => (w: { stage: Stage; areas: string[] | null }) => boolean,
): { stage: Stage; areas: string[] | null }[] {
  // (A command that sets or may set git's environment, or runs code that may: `export GIT_DIR`,
  // `source env.sh`, `eval "$x"`.)
  const moving = /GIT_|\b(source|eval)\b|(^|[\s;&|(])\.\s/;
  const moved = moving.test(text);
  // (The editor git runs moves no index: `git add . && GIT_EDITOR=true git rebase --continue`.)
  // (The `.` builtin as a command's name, not an operand: `git add . && …`; a command's name not
  // known may be any of these.)
  const indexMoved = moved &&
      /GIT_|\b(source|eval)\b|(^|[;&|({`\n]|\b(then|do|else|exec|command|builtin))\s*\.\s/.test(
        text.replace(/\bGIT_(SEQUENCE_)?EDITOR=/g, ""),
      ) || writers.some((w) => w.stage.argv[0] !== undefined && w.stage.argv[0].kind !== "static");
  return writers.map((w) => {
    if (!checksOut(w)) return w;
    const settled = (dir: string) =>
      !writers.some(counting(dir, w.stage, undefined, { started: true }));
    // (One that writes the index alone, where nothing may move it: the index and objects.)
    const index = indexMoved ? null : indexAreas(w.stage, ctx);
    return { stage: w.stage, areas: index ?? checkoutAreas(w.stage, ctx, settled, moved) };
  }).filter((w) => w.areas === null || w.areas.length > 0);
}

/**
 * The glob scope the files a stage reads as it runs are judged in (`psql -f schema.sql`, a
 * project's `.npmrc`): its writers are the command's stages and those the stages expanded so far
 * run (`sh -c 'echo x > .npmrc'; npm test`), made again when more are known.
 */
export function growingScope(
  command: string,
  top: Stage[],
  all: Stage[],
  ctx: Context,
  opts: {
    readsOnly: (s: Stage) => boolean;
    /** The stage of the command's own shell each stage a wrapper runs comes from, so far. */
    tops: () => ReadonlyMap<Stage, Stage> | undefined;
  },
): () => GlobScope {
  let scope: GlobScope | undefined;
  let known = -1;
  return () => {
    if (scope === undefined || known !== all.length) {
      known = all.length;
      // (In the order they run: those expanded so far, then the command's stages after them.)
      const seen = new Set(all);
      const stages = all.length ? [...all, ...top.filter((s) => !seen.has(s))] : top;
      scope = globScope(command, stages, ctx, opts.readsOnly, opts.tops());
    }
    return scope;
  };
}

/**
 * Whether a stage that may write anywhere names one of `paths` or a directory above it: a word
 * (`--prefix .`, `-f dir`, `> f`), a file its program says it writes (`git clone URL` its
 * directory, `tar -x` the cwd, `curl -O` the URL's name), or a word not known.
 */
function namesPlaceAbove(
  stage: Stage,
  paths: string[],
  ctx: Context,
  reads: WriterReads,
): boolean {
  if (stage.cwds.includes(null)) return true;
  const program = stage.argv[0] ? programOf(stage.argv[0]) : undefined;
  // (A patch's names are read from its diff as it will be: `patch -p1 < fix.diff`.)
  const named = program?.namedFiles?.(stage.argv, stage, { read: reads.read(stage) }) ?? [];
  // (A file on another machine is none here: `hereFile`.)
  const here = (named ?? []).map((f) => (f.on ? hereFile(f, ctx) : f));
  // (A file in the home its program names from there: `~/.perfconfig`.)
  const home = (path: string) => (path.startsWith("~/") ? join(ctx.home, path.slice(2)) : path);
  // (A settings file just below a place it writes that it never writes there itself, unless it
  // names that file: `python -m venv .venv`'s pip.conf.)
  const spared = new Set<string>();
  for (const f of here) {
    if (!f?.spares || f.path === null) continue;
    for (const cwd of stage.cwds) {
      for (const n of f.spares) spared.add(join(resolve(cwd!, home(f.path)), n));
    }
  }
  // (A formatter changes only the files of its languages below a directory it is given.)
  const changes = (dir: string, p: string) =>
    p === dir || !program?.changesBelow ||
    program.changesBelow(stage.argv, dir, p, { read: reads.read(stage), home: ctx.home });
  const above = (value: string, operand: boolean) =>
    stage.cwds.some((cwd) =>
      paths.some((p) => {
        const dir = resolve(cwd!, value);
        return isWithin(p, dir) && (p === dir || !spared.has(p)) && (!operand || changes(dir, p));
      })
    );
  const operands = new Set(stage.argv);
  // (Words naming what it only reads: `docker compose -f x.yml up`'s x.yml.)
  const read = program?.readWords ? new Set(program.readWords(stage.argv)) : null;
  const words = [...stage.argv.slice(1), ...stage.redirects.map((r) => r.target)];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === null || read?.has(i + 1) || reads.carried(stage, w)) continue;
    if (w.kind !== "static") return true;
    const value = w.value.slice(w.value.indexOf("=") + 1);
    if (value && !/^[a-z][\w+.-]*:\/\//i.test(value) && above(value, operands.has(w))) {
      return true;
    }
  }
  return here.some((f) =>
    f !== undefined && (f.path === null || (!f.unchanged && above(home(f.path), false)))
  );
}

/** Whether a stage is a trap's handler (see lib/programs/shells.ts: `trap`). */
function trapHandler(stage: Stage): boolean {
  return stage.origin === "trap" || stage.origin.startsWith("trap > ");
}

/** Programs that run their commands only after reading input (entr all of it, xargs a line). */
const READS_FIRST = new Set(["entr", "xargs"]);

/**
 * Whether `writer` (a stage of the command's shell) is a program that runs what it runs only
 * after reading its input, which `reader` (whose `word` asks) writes (`ls src/*.ts | entr -r npm test`): the
 * reader's own words were expanded before it wrote a line, so nothing the writer runs changes
 * them (not so the words of what the reader runs in turn: `xargs grep` runs grep again and
 * again, while a later `xargs perl -pi` runs).
 */
function readsFirst(writer: Stage, reader: Stage, word: Word): boolean {
  if (writer.input !== reader || !reader.argv.includes(word)) return false;
  const name = writer.argv[0];
  return name?.kind === "static" && READS_FIRST.has(name.value.replace(/^.*\//, ""));
}

/**
 * Whether `writer` runs after `reader` started: the reader is a substitution in its words
 * (`sudo chown -R x $(npm config get prefix)/lib`), expanded before it runs.
 */
function runsAfter(writer: Stage, reader: Stage): boolean {
  if (reader.origin !== "substitution") return false;
  return writer.argv.some((w) =>
    w.text.includes(`$(${reader.text}`) || w.text.includes(`\`${reader.text}`)
  );
}

/**
 * The text a stage writes into `path` and nowhere else, when it is `cat` given a here-document
 * (`cat > fix.diff <<'EOF'`, the way agents write a file): the document's body; null otherwise.
 */
function heredocInto(stage: Stage, path: string): string | null {
  const [name, ...rest] = stage.argv;
  if (rest.length || name?.kind !== "static" || name.value !== "cat") return null;
  if (stage.cwds.length !== 1 || stage.cwds[0] === null) return null;
  const cwd = stage.cwds[0];
  let body: string | null = null;
  for (const r of stage.redirects) {
    if (r.kind === "heredoc" || r.kind === "herestring") {
      if (body !== null || r.body?.kind !== "static") return null;
      body = r.body.value;
    } else if (
      r.kind !== "write" || r.target?.kind !== "static" || resolve(cwd, r.target.value) !== path
    ) return null;
  }
  return body;
}
