/**
 * Targets: the locations a tool call touches, for pi's tools, any other tool, and bash stages.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import {
  type Around,
  isFileTarget,
  type Listed,
  type Output,
  type Stage,
  type Word,
} from "../shell/model.ts";
import { applyCuts } from "../shell/affixes.ts";
import { runTimePattern } from "../shell/run_time_parts.ts";
import { DOT_DOT, processPath, procSpelling, resolveIn } from "../shell/paths.ts";
import { programOf } from "../programs/registry.ts";
import { lettersKnown } from "../programs/argv.ts";
import { isDataDevice, NULL_DEVICE } from "./devices.ts";
import { embeddedValue, gluedValues } from "./embedded_values.ts";
import { stringArguments } from "./text_words.ts";
import { searchedDirs } from "../programs/env.ts";
import { listingOf } from "../programs/expand.ts";
import { listedLines } from "../programs/words.ts";
import { expandPathname, type GlobOptions } from "../shell/pathname_expansion.ts";
import { ownGlobs } from "./own_globs.ts";
import type { Context, TargetKind } from "../types.ts";
import { globRegion, type GlobScope, stageFileText, stageGlobWords } from "./glob_scope.ts";
import { reopenedFiles } from "./reopened.ts";
import { filesNamed } from "./tree_files.ts";
import { hereFile } from "./this_machine.ts";
import { workTreeTop } from "./git_index.ts";
import { inSearchPath, leadsIntoSearchPath } from "./search_path.ts";
import { fileUrlPath, URL_RE, urlMayBePath } from "./urls.ts";
import { prefixedFiles } from "./git_index.ts";
import { commitFiles } from "./git_writes.ts";

/** A location a call may touch, before policies are looked up. */
export interface Target {
  kind: TargetKind;
  /** Absolute path; for "below" the directory everything under which is reachable. */
  path: string | null;
  /** "exact": this path; "below": anything under `path`; "anywhere": unknown (path null). */
  reach: "exact" | "below" | "anywhere";
  /** The text in the call the target came from. */
  source: string;
  /** Why the target is not exact. */
  note?: string;
  /**
   * The path as a bash command names it, when it has a `..` (`/p/link/../x`): the kernel walks it
   * from where `link` really leads, so its symlinks are followed in this form. `path` is its
   * lexical form.
   */
  raw?: string;
  /** For a glob: the whole pattern, absolute (`/p/*.txt`), to find the symlinks it matches. */
  pattern?: string;
  /** A redirect that writes the target (`>`, `>>`, `<>`); other redirects only read. */
  write?: boolean;
  /** A directory the stage writes below by names of their own (`NamedFile.below`). */
  replaces?: boolean;
  /** Only where no directory is there yet (`NamedFile.fresh`). */
  fresh?: boolean;
  /** With `replaces`: by fixed names of its own (`NamedFile.ownNames`). */
  ownNames?: true;
  /**
   * With `replaces`: the files of a revision not read (`git checkout evil^{/text}`), by names not
   * known: any protected path below `path` may be written, not only names there now.
   */
  unseen?: true;
  /**
   * A file the stage writes in `path` by a name built from parts not known, its source a glob of
   * it (`NamedFile.pattern`): what is protected there that the glob's last component may match.
   */
  built?: true;
  /**
   * With `built`: the name is one `mktemp` makes of its template (`Output.name`, its `X`s
   * written `?`), what a name glob protected there is judged by (made_names.ts).
   */
  made?: string;
  /**
   * Paths a program listed below `path` (`find src | xargs cat`): whichever they are, and where
   * the symlinks among them lead (unless `Listed.noLinks`).
   */
  listed?: Listed;
  /**
   * For listed paths: no stage before this one may add or remove files where they are listed
   * (the tree is as the filesystem shows it now).
   */
  settled?: true;
  /** A path in a container, judged for what is protected alone (`NamedFile.inContainer`). */
  inContainer?: true;
}

/**
 * Whether a path is protected (pathProtection): a bare name that would create one (`tee .env`,
 * `cp x key.pem`) is a path even before it exists.
 */
export type ProtectedPath = (path: string) => boolean;

/** Whether a static bash word names a path (RULINGS "Stages and targets"). */
function pathLike(
  value: string,
  cwds: (string | null)[],
  ctx: Context,
  guarded?: ProtectedPath,
): boolean {
  if (value === "" || value === "-") return false;
  if (value.startsWith("-")) return false;
  if (value.startsWith("/") || value.startsWith("~") || value === "." || value === "..") {
    return true;
  }
  if (value.startsWith("./") || value.startsWith("../")) return true;
  // (A URL has a `/`: a word without one is a name in the cwd or none.)
  if (value.includes("/")) {
    return /^file:\/\//i.test(value) || !URL_RE.test(value) || urlIsPath(value, cwds, ctx);
  }
  return cwds.some((c) => {
    if (c === null) return false;
    const path = resolveIn(c, value);
    if (ctx.fs.exists(path) || (DOT_DOT.test(c) && ctx.fs.exists(c + "/" + value))) return true;
    if (guarded === undefined) return false;
    if (guarded(path)) return true;
    // A new name in a directory the command moved to through a symlink lands where the link
    // leads (`cd keys && tee authorized_keys`, keys -> ~/.ssh). (The session's cwd is pi's.)
    if (c === ctx.cwd) return false;
    const real = ctx.fs.realpath(c);
    return real !== null && real !== c && guarded(resolveIn(real, value));
  });
}

/** `urlMayBePath` in the stage's cwds (one not known: it may). */
function urlIsPath(value: string, cwds: (string | null)[], ctx: Context): boolean {
  return urlMayBePath(value, (n) => cwds.some((c) => c === null || ctx.fs.exists(resolveIn(c, n))));
}

/** The target at `path` (absolute), with the form the kernel walks when it has a `..`. */
function located(
  kind: TargetKind,
  path: string,
  reach: "exact" | "below",
  source: string,
  extra?: { note: string },
): Target {
  const t: Target = { kind, path: resolveIn("/", path), reach, source, ...extra };
  if (DOT_DOT.test(path)) t.raw = path;
  return t;
}

/** A static path-like value as targets (into `out`): absolute, under home, or relative to each cwd. */
function staticTargets(
  value: string,
  w: Word,
  cwds: (string | null)[],
  kind: TargetKind,
  ctx: Context,
  out: Target[],
): void {
  if (/^file:\/\//i.test(value)) value = fileUrlPath(value);
  // The null device holds nothing and keeps nothing: no place (`pytest -c /dev/null`).
  if (value === NULL_DEVICE) return;
  if (processTargets(value, w, cwds, kind, ctx, out)) return;
  // /proc or /dev spelled otherwise (`//proc/self/cwd/x`, `../../../proc/…`): judged as them.
  if (
    (value.includes("proc") || value.includes("dev")) && !value.startsWith("/proc/") &&
    !value.startsWith("/dev/") && /(proc|dev)(\/|$)/.test(value)
  ) {
    const plain: (string | null)[] = [];
    for (const c of cwds) {
      const abs = value.startsWith("/")
        ? value
        : value === "~" || value.startsWith("~/")
        ? ctx.home + value.slice(1)
        : c === null
        ? null
        : c + "/" + value;
      const spelled = abs === null ? undefined : procSpelling(abs, ctx.fs);
      if (spelled === undefined || !processTargets(spelled, w, [c], kind, ctx, out)) plain.push(c);
    }
    if (!plain.length) return;
    cwds = plain;
  }
  if (value.startsWith("/")) {
    out.push(located(kind, value, "exact", w.text));
    return;
  }
  // A `~` still in a word was quoted or given to an option (`'~/k'`, `--file=~/k`): bash left it,
  // so the program opens `./~/k` (a directory `~` there may be a link); one that expands it
  // itself opens the home's.
  if (value === "~" || value.startsWith("~/")) {
    out.push(located(kind, ctx.home + value.slice(1), "exact", w.text));
  }
  for (const c of cwds) {
    if (c === null) {
      out.push({
        kind: "dynamic",
        path: null,
        reach: "anywhere",
        source: w.text,
        note: "relative to an unknown directory",
      });
    } else if (
      // (From the cwd of a process: `cd /proc/self && cat cwd/x`, `env -C /dev/fd/3 cat x`.)
      !((c.startsWith("/proc/") || c.startsWith("/dev/")) &&
        processTargets(c + "/" + value, w, [c], kind, ctx, out))
    ) out.push(located(kind, c + "/" + value, "exact", w.text));
  }
}

/** How a stage's words become targets. */
interface WordOptions {
  /** A path whatever it looks like (a redirect's). */
  force: boolean;
  guarded?: ProtectedPath;
  out: Target[];
  /** Glob words are expanded (else judged by their prefix). */
  globs?: GlobScope;
  stage?: Stage;
  /** The stage's word a value glued to an option comes from (`-o$$`: `$$`). */
  of?: Word;
  /** The options its glob words are expanded with (a program's own: `own_globs.ts`). */
  options?: GlobOptions;
}

/** A listing's names are disturbed by no stage that only removes (`xargs rm` itself). */
const REMOVALS = { removals: true };

/** The targets of a word (into `out`). */
function wordTargets(
  w: Word,
  cwds: (string | null)[],
  kind: TargetKind,
  ctx: Context,
  opts: WordOptions,
): void {
  const { force, guarded, out } = opts;
  if (w.output) return outputTargets(w, w.output, kind, ctx, out);
  if (w.kind === "static") {
    const read = w.value[0] === "-" && w.value.includes("/") &&
      lettersKnown(programOf(opts.stage?.argv[0])?.options, w.value);
    const embedded = force ? null : embeddedValue(w.value, read);
    // (A device's bytes read or written are no place: `< /dev/urandom`, `dd if=/dev/zero`.)
    if (
      (force || pathLike(w.value, cwds, ctx, guarded)) &&
      !(kind === "redirect" && isDataDevice(w.value))
    ) staticTargets(w.value, w, cwds, kind, ctx, out);
    if (embedded !== null && !isDataDevice(embedded) && pathLike(embedded, cwds, ctx, guarded)) {
      staticTargets(embedded, w, cwds, kind, ctx, out);
    }
    if (/[$`]/.test(w.value)) runTimeTargets(w, embedded, cwds, kind, ctx, opts);
    return;
  }
  if (w.listed) {
    for (const t of listedTargets(w, cwds, ctx)) {
      if (t.path !== null && opts.globs && !opts.globs.disturbed(t.path, opts.stage, w, REMOVALS)) {
        t.settled = true;
      }
      out.push(t);
    }
    return;
  }
  if (w.pattern !== undefined && opts.globs && !/^\/(proc|dev)\//.test(w.value)) {
    for (const c of cwds) expandedTargets(w, c, kind, ctx, opts);
    return;
  }
  if (w.around && opts.globs && aroundTargets(w, w.around, cwds, kind, ctx, opts)) return;
  for (const t of unknownTargets(w, cwds, ctx)) out.push(t);
}

/**
 * The targets of what a substitution prints (`Word.output`): a new name mktemp makes in its
 * directory, by a name of its template (what is protected there that the name may match), or
 * below it (`"$(mktemp -d)/out"`); the path `PATH` finds a program at, in each of its directories
 * (not known where one is relative, or where bash splits or globs it unquoted).
 */
function outputTargets(w: Word, o: Output, kind: TargetKind, ctx: Context, out: Target[]): void {
  if (o.program === "mktemp") {
    const source = `${o.dir.replace(/\/$/, "")}/${o.name}${o.rest}`;
    const t = located(kind, o.dir, "below", source, { note: "a new name mktemp makes there" });
    out.push(o.rest === "" ? { ...t, built: true, made: o.name } : t);
    return;
  }
  const dirs = ctx.env.PATH?.split(":") ?? [];
  const paths = dirs.map((d) => `${d.replace(/\/$/, "")}/${o.name}`);
  if (!paths.length || paths.some((p) => !p.startsWith("/") || (o.split && /[\s*?[\]]/.test(p)))) {
    for (const t of unknownTargets(w, [null], ctx)) out.push(t);
    return;
  }
  for (const p of paths) out.push(located(kind, p, "exact", w.text));
}

/**
 * The names a static word with parts bash computes as it runs may be (`cat $?` reads `0`, `x.$$`
 * is `x.4242`: `runTimePattern`), each one there now, found as a glob of them finds its matches;
 * not known where another stage may change what is there. (The word as written is judged too,
 * and without the parts that may print nothing: `.pi/$(date -d x +%s)` may be `.pi/`.)
 */
function runTimeTargets(
  w: Word,
  embedded: string | null,
  cwds: (string | null)[],
  kind: TargetKind,
  ctx: Context,
  opts: WordOptions,
): void {
  for (const value of embedded === null ? [w.value] : [w.value, embedded]) {
    // (`-j$(nproc)`: an option, no name.)
    if (!opts.force && value.startsWith("-")) continue;
    const parts = runTimePattern(value);
    if (parts === null) continue;
    const { bare } = parts;
    if (bare && pathLike(bare, cwds, ctx, opts.guarded)) {
      staticTargets(bare, w, cwds, kind, ctx, opts.out);
    }
    let { pattern } = parts;
    if (pattern === "~" || pattern.startsWith("~/")) pattern = ctx.home + pattern.slice(1);
    const at = value.indexOf("$");
    const glob: Word = { value, kind: "glob", prefix: value.slice(0, at), text: w.text, pattern };
    for (const c of cwds) {
      const region = c === null ? null : globRegion(pattern, c);
      const name = { name: resolve(c ?? "/", value) };
      const found = region === null || !opts.globs ||
          opts.globs.disturbed(region, opts.stage, opts.of ?? w, name)
        ? null
        // (A part may print a leading dot, `$(date +.)pi` is `.pi`: dot names count.)
        : expandPathname(pattern, c!, ctx.fs, {
          ...opts.globs.options,
          extglob: true,
          dotglob: true,
        });
      // (No such name there: the word as written was judged.)
      if (found?.kind === "none") continue;
      if (found?.kind !== "matches" || found.words.some((m) => m.startsWith("-"))) {
        for (const t of unknownTargets(glob, [c], ctx)) opts.out.push(t);
        continue;
      }
      // (What follows the names a number may be, through each: `$?/authorized_keys`.)
      for (const m of found.words.map((m) => m + parts.rest)) {
        const match: Word = { value: m, kind: "static", prefix: m, text: w.text };
        staticTargets(m, match, [c], kind, ctx, opts.out);
      }
    }
  }
}

/**
 * The targets of a word built from each match of a loop's glob (`"$f.bak"`, `"${f%.ts}.js"`:
 * `Word.around`), where the glob's matches are known as its `expandedTargets` would know them:
 * each word a path in the stage's cwds. False (nothing added) where they are not.
 */
function aroundTargets(
  w: Word,
  around: Around,
  cwds: (string | null)[],
  kind: TargetKind,
  ctx: Context,
  opts: WordOptions,
): boolean {
  const scope = opts.globs!;
  if (/^\/(proc|dev)\//.test(around.pattern)) return false;
  const region = globRegion(around.pattern, around.at);
  if (region === null || scope.disturbed(region, opts.stage, w)) return false;
  const found = expandPathname(around.pattern, around.at, ctx.fs, scope.options);
  if (found.kind !== "matches") return false;
  const words: string[] = [];
  for (const m of found.words) {
    const kept = around.cut ? applyCuts(m, around.cut) : m;
    if (kept === null) return false;
    words.push(around.before + kept + around.after);
  }
  if (words.some((v) => v === "" || v.startsWith("-"))) return false;
  for (const v of words) {
    staticTargets(
      v,
      { value: v, kind: "static", prefix: v, text: w.text },
      cwds,
      kind,
      ctx,
      opts.out,
    );
  }
  return true;
}

/**
 * The targets of a glob word in one cwd (into `out`), as bash will expand it (RULINGS "What can
 * be seen"): each match a path; no match the word as written (nothing under nullglob, failglob);
 * by its prefix when it cannot be expanded exactly, when another stage may change what it
 * matches, or when a match would read as an option (`-rf`).
 */
function expandedTargets(
  w: Word,
  c: string | null,
  kind: TargetKind,
  ctx: Context,
  opts: WordOptions,
): void {
  const scope = opts.globs!;
  const region = c === null ? null : globRegion(w.pattern!, c);
  // (A program's own glob asks as the stage's word it comes from: `npx prettier '*.md'`.)
  if (c !== null && region !== null && !scope.disturbed(region, opts.stage, opts.of ?? w)) {
    const options = opts.options ?? scope.options;
    const found = expandPathname(w.pattern!, c, ctx.fs, options);
    if (found.kind === "matches" && !found.words.some((m) => m.startsWith("-"))) {
      for (const m of found.words) {
        const match: Word = { value: m, kind: "static", prefix: m, text: w.text };
        staticTargets(m, match, [c], kind, ctx, opts.out);
        const embedded = opts.force ? null : embeddedValue(m);
        if (embedded !== null && pathLike(embedded, [c], ctx, opts.guarded)) {
          staticTargets(embedded, match, [c], kind, ctx, opts.out);
        }
      }
      return;
    }
    if (found.kind === "none") {
      if (options.nullglob || options.failglob) return;
      const literal: Word = { value: w.value, kind: "static", prefix: w.value, text: w.text };
      wordTargets(literal, [c], kind, ctx, opts);
      return;
    }
  }
  for (const t of unknownTargets(w, [c], ctx)) opts.out.push(t);
}

/**
 * The paths a program listed (see `Word.listed`): below the directory of the word's prefix, in
 * each cwd. A process's own paths (`/proc/self/…`) are another's for the program reading them:
 * not known.
 */
function listedTargets(w: Word, cwds: (string | null)[], ctx: Context): Target[] {
  const dir = w.prefix.endsWith("/") ? w.prefix : dirname(w.prefix);
  const unknown: Target = {
    kind: "dynamic",
    path: null,
    reach: "anywhere",
    source: w.text,
    note: "the value is not known before it runs",
  };
  const at = (path: string): Target => {
    if (/^\/(proc|dev)(\/|$)/.test(resolve(path))) return unknown;
    return { ...located("argument", path, "below", w.text), listed: w.listed };
  };
  if (dir === "~" || dir.startsWith("~/")) return [at(ctx.home + dir.slice(1))];
  if (dir.startsWith("/")) return [at(dir)];
  return cwds.map((c) => (c === null ? unknown : at(c + "/" + dir)));
}

/** What a path of the process running the command reaches, per cwd (see `processPath`). */
export const PROCESS_NOTE = "a path of the process that runs the command (an open file, another " +
  "process, its environment or memory)";

/**
 * The targets of a path of the process that runs the command (`/proc/self/cwd/…`, `/dev/fd/3`),
 * into `out`: true when the path is one, false when it is to be judged as it is written.
 */
function processTargets(
  value: string,
  w: Word,
  cwds: (string | null)[],
  kind: TargetKind,
  ctx: Context,
  out: Target[],
): boolean {
  if (!value.startsWith("/proc/") && !value.startsWith("/dev/")) return false;
  const mapped = cwds.map((c) => processPath(value, c));
  if (mapped.every((m) => m === undefined)) return false;
  for (const m of mapped) {
    if (m === undefined) continue;
    if (m === null) {
      out.push({
        kind: "dynamic",
        path: null,
        reach: "anywhere",
        source: w.text,
        note: PROCESS_NOTE,
      });
    } else if (!/[$`*?[{]/.test(m)) out.push(located(kind, m, "exact", w.text));
    else {
      // A glob or an unknown part after the mapped prefix: reachable below that prefix.
      const prefix = m.slice(0, m.search(/[$`*?[{]/));
      const word: Word = {
        value: m,
        kind: m.includes("$") ? "dynamic" : "glob",
        prefix,
        text: w.text,
      };
      for (const t of unknownTargets(word, [null], ctx)) out.push(t);
    }
  }
  return true;
}

/** Globs and unknown values: reachable below their known prefix (RULINGS principle 3). */
function unknownTargets(w: Word, cwds: (string | null)[], ctx: Context): Target[] {
  const value = embeddedValue(w.value) ?? w.value;
  if (value.startsWith("/proc/") || value.startsWith("/dev/")) {
    const out: Target[] = [];
    if (processTargets(value, w, cwds, w.kind === "glob" ? "glob" : "dynamic", ctx, out)) {
      return out;
    }
  }
  const kind: TargetKind = w.kind === "glob" ? "glob" : "dynamic";
  const note = w.kind === "glob"
    ? "a glob can match anything below its prefix"
    : "the value is not known before it runs";
  const anywhere: Target = { kind, path: null, reach: "anywhere", source: w.text, note };
  const embedded = embeddedValue(w.prefix);
  let prefix = embedded ??
    (w.prefix.startsWith("-") || /^[\w.-]+=$/.test(w.prefix) ? "" : w.prefix);
  // A URL is no local path, as the static word is none; `file://` names the path after it.
  if (w.kind === "dynamic" && URL_RE.test(prefix) && !urlIsPath(w.value, cwds, ctx)) {
    if (!/^file:/i.test(prefix)) return [];
    prefix = prefix.replace(/^file:\/\/(localhost(?=\/))?/i, "");
    if (!prefix.startsWith("/") || prefix.includes("%")) return [anywhere];
  }
  // `..` after the prefix climbs out of it.
  if (/(^|\/)\.\.(\/|$)/.test(w.value.slice(w.value.indexOf(prefix) + prefix.length))) {
    return [anywhere];
  }
  if (prefix === "" && w.kind === "dynamic") return [anywhere];
  const dir = prefix === "" ? "." : prefix.endsWith("/") ? prefix : dirname(prefix);
  const home = dir === "~" || dir.startsWith("~/");
  const below = (path: string, pattern: string) => {
    const t = located(kind, path, "below", w.text, { note });
    if (kind === "glob") t.pattern = pattern;
    return t;
  };
  // The glob as a path (after an option or a `key=` it is glued to).
  const glob = prefix ? w.value.slice(w.value.indexOf(prefix)) : w.value.replace(/^[^=]*=/, "");
  if (home) return [below(ctx.home + dir.slice(1), ctx.home + glob.slice(1))];
  if (dir.startsWith("/")) return [below(dir, glob)];
  return cwds.map((c) => (c === null ? anywhere : below(c + "/" + dir, c + "/" + glob)));
}

/**
 * The files a stage's arguments name inside a word (`git show HEAD:.env`), in each cwd, into
 * `out` (the targets of its words so far: those of an operand it leaves as it is are taken out).
 */
function namedFiles(stage: Stage, ctx: Context, globs: GlobScope | undefined, out: Target[]) {
  const named = programOf(stage.argv[0])?.namedFiles;
  if (!named) return;
  const [operands, unchanged] = [out.length, new Set<string | null>()];
  const read = (path: string) => stageFileText(stage, path, ctx, globs);
  const files = named(stage.argv, stage, {
    read,
    globs: globs && stageGlobWords(stage, ctx, globs),
    env: ctx.env,
    filesNamed: (dir, names, above) => filesNamed(stage, ctx, globs, dir, names, above),
  });
  for (const file of files) {
    // (A file on another machine is none here; on this one, a path here: `hereFile`.)
    const here = file.on ? hereFile(file, ctx) : file;
    if (here === undefined) continue;
    const { path, source, fromInput, below, pattern, unchanged: kept } = here;
    if ((here.indexed && path !== null) || here.commits) {
      // (The copies `git checkout-index -a --prefix=…` writes, each by a path of the index; the
      // files `git checkout BRANCH` writes from the commits.)
      const settled = (dir: string) => globs !== undefined && !globs.disturbed(dir, stage);
      const files = here.commits
        ? commitFiles(
          here.commits,
          stage.cwds,
          ctx,
          (dir) =>
            globs !== undefined && !globs.disturbed(dir, stage, undefined, { started: true }),
          globs && ((dir) => globs.changers(dir, stage, { started: true })),
        )
        : prefixedFiles(path!, stage.cwds, ctx.fs, settled);
      for (const f of files) {
        out.push(
          f.path === null ? { ...f, kind: "dynamic", reach: "anywhere", source } : {
            ...f,
            kind: "argument",
            reach: "exact",
            source,
          },
        );
      }
      continue;
    }
    if (kept) {
      for (const c of stage.cwds) if (c !== null && path !== null) unchanged.add(resolve(c, path));
      continue;
    }
    // Names read from standard input that a listing program writes (`find src | tar -czf x -T
    // -`): paths below the places it lists, as xargs's words are.
    const lines = fromInput && stage.input ? listedLines(stage.input, listingOf) : null;
    if (lines) {
      for (const w of lines) for (const t of listedTargets(w, stage.cwds, ctx)) out.push(t);
      continue;
    }
    if (path === null) {
      out.push({
        kind: "dynamic",
        path: null,
        reach: "anywhere",
        source,
        note: "a file not known",
      });
      continue;
    }
    // (A file in the home directory: `~/.aws/credentials` that `aws configure get` reads.)
    const home = path.startsWith("~/");
    // (A name built from parts not known, a glob of them in its directory: what is protected
    // there that the glob's last component may match is reached.)
    if (pattern && !home) {
      for (const c of stage.cwds) {
        if (c === null) out.push({ kind: "dynamic", path: null, reach: "anywhere", source });
        else {out.push({
            ...located("argument", dirname(resolve(c, path)), "below", path),
            built: true,
          });}
      }
      continue;
    }
    for (const c of home ? [ctx.home] : stage.cwds) {
      if (c === null) continue;
      // (From the work tree's top: git's `:/secrets` run in `src`.)
      const at = home
        ? c + path.slice(1)
        : resolve(here.top ? workTreeTop(c, ctx.fs) ?? c : c, path);
      const t: Target = { kind: "argument", path: at, reach: "exact", source };
      if (below) t.replaces = true;
      if (below && here.fresh) t.fresh = true;
      if (below && here.ownNames) t.ownNames = true;
      if (here.inContainer) t.inContainer = true;
      out.push(t);
    }
  }
  // (An operand it leaves as it is, named so: its targets are not judged as changed.)
  const moved = (t: Target) =>
    t.kind !== "argument" || t.raw !== undefined || !unchanged.has(t.path);
  if (unchanged.size) out.splice(0, operands, ...out.slice(0, operands).filter(moved));
}

/**
 * The targets of a bash stage: the directories it runs in, its path arguments and redirects.
 * `code`: the argv position of inline code that is not judged, no place; `globs`: glob words are
 * expanded in this scope (else judged by their prefix).
 */
export function stageTargets(
  stage: Stage,
  ctx: Context,
  guarded?: ProtectedPath,
  opts: { code?: number; globs?: GlobScope; text?: ReadonlySet<Word> } = {},
): Target[] {
  const { code, globs, text } = opts;
  const out: Target[] = [];
  for (const c of stage.cwds) {
    out.push(
      c === null
        ? {
          kind: "cwd",
          path: null,
          reach: "anywhere",
          source: "cwd",
          note: "the directory is not known after cd",
        }
        : located("cwd", c, "exact", "cwd"),
    );
  }
  const strings = stringArguments(stage.argv);
  const argv = stage.argv;
  const asWords: WordOptions = { force: false, guarded, out, globs, stage };
  // (Quoted globs its program expands itself: `prettier --write '**/*.json'`.)
  const own = ownGlobs(stage);
  const asOwn = own && { ...asWords, options: own.options };
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i];
    if (i === 0 && !(w.kind === "static" && w.value.includes("/"))) continue;
    if (i === 0 && (inSearchPath(w.value, ctx) || leadsIntoSearchPath(w.value, stage.cwds, ctx))) {
      continue;
    }
    if (i > 0 && (strings.has(i) || i === code || text?.has(w) === true)) continue;
    // (A process substitution is a pipe, not a file.)
    if ((w.text[0] === "<" || w.text[0] === ">") && w.text[1] === "(") continue;
    const globbed = own?.words.get(i);
    if (globbed) {
      for (const g of globbed) wordTargets(g, stage.cwds, "argument", ctx, { ...asOwn!, of: w });
    } else wordTargets(w, stage.cwds, "argument", ctx, asWords);
  }
  for (const { at, value } of gluedValues(argv)) {
    if (strings.has(at) || at === code || text?.has(argv[at]) === true) continue;
    const w = argv[at];
    wordTargets({ ...w, value, prefix: value }, stage.cwds, "argument", ctx, { ...asWords, of: w });
  }
  namedFiles(stage, ctx, globs, out);
  // (bash expands no glob or brace in an assignment: `DEBUG=app:*` gives the program the text
  // `DEBUG='app:*'` gives it, judged as that text.)
  const asAssignments: WordOptions = { force: false, guarded, out };
  for (const w of stage.assignments ?? []) {
    // (IFS holds separators: `IFS=/ read -r a b` names no place.)
    if (w.kind === "static" && w.value.startsWith("IFS=")) continue;
    // (A PATH whose directories are known names no place: what it finds is judged where it lies.)
    if (w.value.startsWith("PATH") && searchedDirs(w, ctx.env.PATH) !== null) continue;
    const text = w.kind === "glob"
      ? { value: w.value, kind: "static" as const, prefix: w.value, text: w.text }
      : w;
    wordTargets(text, stage.cwds, "argument", ctx, asAssignments);
  }
  // (`cat < f > /dev/stdin` writes f: see reopened.ts.)
  if (globs?.descriptors) {
    for (const o of reopenedFiles(stage, globs)) {
      const from = out.length;
      wordTargets(o.target, o.cwds, "redirect", ctx, { force: true, out, globs, stage });
      for (let i = from; i < out.length; i++) out[i].write = true;
    }
  }
  for (const r of stage.redirects) {
    if (!isFileTarget(r)) continue;
    const from = out.length;
    wordTargets(r.target!, stage.cwds, "redirect", ctx, { force: true, out, globs, stage });
    if (r.kind === "write") { for (let i = from; i < out.length; i++) out[i].write = true; }
    else if (globs === undefined || globs.descriptors) {
      // A directory opened on a descriptor (`3<keys`) is reached below through it
      // (`cd /dev/fd/3`, `grep -r x /dev/fd/3`).
      for (let i = from; i < out.length; i++) {
        const t = out[i];
        if (t.reach === "exact" && t.path !== null && ctx.fs.isDirectory?.(t.path)) {
          out[i] = { ...t, reach: "below" };
        }
      }
    }
  }
  return dedupe(out);
}

/**
 * The targets without repeats of the same kind, reach and path (first one kept). Paths below a
 * place count apart where their words differ: the word's last component limits the names reached
 * (`(paths find lists)/*env` and `/.*env`, of which only the second reaches `.env`).
 */
function dedupe(targets: Target[]): Target[] {
  if (targets.length < 16) {
    // A stage has a handful of targets: comparing beats building keys.
    return targets.filter((t, i) => {
      for (let j = 0; j < i; j++) {
        const u = targets[j];
        if (
          u.path === t.path && u.kind === t.kind && u.reach === t.reach && u.raw === t.raw &&
          u.write === t.write && u.replaces === t.replaces && u.fresh === t.fresh &&
          u.unseen === t.unseen && u.ownNames === t.ownNames &&
          (t.reach !== "below" || u.source === t.source)
        ) {
          return false;
        }
      }
      return true;
    });
  }
  const seen = new Set<string>();
  return targets.filter((t) => {
    const k =
      `${t.kind}\0${t.reach}\0${t.path}\0${t.raw}\0${t.write}\0${t.replaces}\0${t.fresh}\0${t.unseen}` +
      `\0${t.ownNames}` +
      (t.reach === "below" ? `\0${t.source}` : "");
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
