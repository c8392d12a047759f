/**
 * What the targets of one stage (or tool call) share while they are judged: the location index,
 * the results by policy, and what the program is known to do with what it names (reads it as a
 * tree, replaces what lies below it, follows the links inside it, says nothing of its files).
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { programNamed } from "../programs/registry.ts";
import type { MadeLink, Program, RepositoryRead } from "../programs/spec.ts";
import type { Context, Rule } from "../types.ts";
import type { LocationIndex } from "./locations.ts";
import type { BelowOptions } from "./protection.ts";
import type { RuleResult } from "./rules.ts";
import { removesOnly } from "./removers.ts";
import type { Target } from "./targets.ts";
import { landingNames } from "./landing_names.ts";

/**
 * What the targets of one stage share: the location index, and the placement results by policy
 * name (every target of a stage has the same subject, and a result depends on the policy only).
 */
export interface StageShared {
  index: LocationIndex;
  /** Symlinks the command makes: paths through them are judged where they lead too. */
  links: MadeLink[];
  /** Whether the program may read a directory operand all the way down (not ls, du, stat). */
  readsTrees: boolean;
  /** Whether the program may delete, move or overwrite what lies below a directory it names. */
  replacesTrees: boolean;
  /**
   * How its reading reaches a repository's object store as files (policy/object_store.ts):
   * `"trees"`, the files it names and the trees it reads whole (a `.git` in them); `"files"`, what
   * it names inside a store alone (`Program.skipsGitDir`: `rg KEY .`, git); null, nothing (it
   * looks at names or sizes, it only removes). Worked out when first asked.
   */
  storeReads: () => StoreReads;
  /** Whether the program follows the symlinks inside a tree it reads (`grep -R`, `find -L`). */
  followsLinks: boolean;
  /** The trees it reads are only those its words name (`Program.treesNamed`): not the cwd. */
  operands: boolean;
  /** Named no place, it reads the files below the cwd (`Program.readsCwd`: `grep -r KEY`). */
  readsCwd: boolean;
  /**
   * What of its repository git shows without naming it (`Program.readsRepository`: `git diff`),
   * read when asked (only where pathProtection has entries).
   */
  repository: () => RepositoryRead | null;
  /** The names a tree it reads is limited to (`grep --include=.env`): name globs count there. */
  treeNames: readonly string[];
  /** Those names limit what it changes below its directory operands too (`Program.namesLimitTrees`). */
  namesLimitTrees: boolean;
  /** Results by policy, as [policy, result] pairs: a stage meets one or two policies. */
  judged: [string | null, RuleResult & { approval?: Rule }][];
  /**
   * Whether the stage or tool may change what it names (not a redirect's target: that says so
   * itself). Asked only where a built-in protection of the gate's files applies.
   */
  writes: () => boolean;
  /** How the protection below a directory sees the stage's targets (not a redirect's). */
  below: BelowOptions;
  /**
   * A bash stage's program says nothing of the files it writes (the registry does not know it,
   * or knows nothing of its files): it may write below a directory it names.
   */
  unknownProgram: boolean;
  /**
   * Whether no other stage of the command may change what lies at or below a path before this
   * one runs (it sees the tree as it is now); with `started`, a later stage of a command whose
   * stages run one after another does not count; with `at` (and `started`), nor one that changes
   * only what is elsewhere, as far as its words and its program say (`black . && black .`: a
   * `.json` file black does not change; see `DisturbedOptions.at`); with `wrapped`, the stage
   * that runs it and the stages it runs do not count (see `DisturbedOptions.wrapper`).
   * @default never
   */
  settled: (path: string, started?: boolean, at?: boolean, wrapped?: boolean) => boolean;
  /**
   * The names that may come to lie below an operand of a stage that copies, moves or removes
   * what its operands name (`landingNames`), worked out when first asked; null where not known.
   */
  landing: () => readonly string[] | null;
  /**
   * The stages of the command that may change what lies at or below a path before this one
   * starts (see `settled`, with `started`); null where that is not known. @default null
   */
  changers: (path: string) => Stage[] | null;
  /**
   * The stage only removes names (`rm`, `rmdir`, `unlink`: `removers.ts`): it makes none
   * appear below what it is given.
   */
  removes: () => boolean;
  /**
   * What the stage's program rewrites below the trees it is given (`Program.rewritesTrees`, a
   * formatter: `deno fmt .`), worked out when first asked; null where it rewrites none.
   */
  rewrites: () => TreeRewrite | null;
}

/** What a formatter rewrites below the trees it is given (see `StageShared.rewrites`). */
export interface TreeRewrite {
  /** It rewrites below the cwd too (it names no place). */
  cwd: boolean;
  /**
   * Whether it may change `file` (absolute) below `dir`, a tree it is given (`changesBelow`),
   * its settings read as they are where no other stage changes them first, else not known.
   */
  changes: (dir: string, file: string) => boolean;
}

/** See `StageShared.storeReads`. */
export type StoreReads = "trees" | "files" | null;

export const NO_LINKS: MadeLink[] = [];

const NO_NAMES: string[] = [];

const NEVER = () => false;

const NO_READ = () => null;

/** `f`, called once when first asked. */
function once<T>(f: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) value = f(), done = true;
    return value;
  };
}

const UNKNOWN = () => null;

const isGlob = (w: Word) => w.kind === "glob";

export function stageShared(
  ctx: Context,
  index: LocationIndex,
  program: string,
  opts: {
    links: MadeLink[];
    writes: () => boolean;
    stage?: Stage;
    treeNames?: string[];
    settled?: (path: string, started?: boolean, at?: boolean, wrapped?: boolean) => boolean;
    /** The stage's targets (for `landing`). */
    targets?: readonly Target[];
    changers?: (path: string) => Stage[] | null;
    /** bash's nullglob is on: a glob that matches nothing is dropped. */
    nullglob?: boolean;
  },
): StageShared {
  const { links, writes, stage = null } = opts;
  const trees = replacesTrees(program, stage);
  const facts = stage === null ? undefined : programNamed(program);
  // (Under nullglob a glob that matches nothing is no word: `rg KEY zz*` may be `rg KEY`.)
  const operands = facts?.treesNamed?.(stage!.argv) === true &&
    (!opts.nullglob || !stage!.argv.some(isGlob) ||
      facts.treesNamed(stage!.argv.filter((w) => !isGlob(w))));
  return {
    index,
    links,
    readsTrees: !metadataOnly(program),
    replacesTrees: trees,
    storeReads: once((): StoreReads => {
      // (pi's read tool opens the one file it names; its other tools list or write.)
      if (stage === null) return program === "read" ? "files" : null;
      if (facts?.metadataOnly || removesOnly(stage)) return null;
      return facts?.skipsGitDir?.(stage.argv) ? "files" : "trees";
    }),
    followsLinks: facts?.followsLinks?.(stage!.argv) === true,
    operands,
    readsCwd: !operands && facts?.readsCwd?.(stage!.argv, stage!) === true,
    repository: facts?.readsRepository ? once(() => facts.readsRepository!(stage!)) : NO_READ,
    treeNames: opts.treeNames ?? facts?.treeNames?.(stage!.argv, stage!, ctx.env) ?? NO_NAMES,
    namesLimitTrees: facts?.namesLimitTrees === true,
    judged: [],
    writes,
    // (Whether the stage writes is asked only where a built-in protection would apply.)
    below: { write: writes, trees, exists: (p: string) => ctx.fs.exists(p) },
    // (An interpreter or shell hands its operands to the code it runs, whatever files of its
    // own it is known to name: `python3 -m pip install -t .pi x`, `perl x.pl .pi`.)
    unknownProgram: stage !== null &&
      (facts?.evaluates !== undefined && facts.codeOption !== true ||
        (!facts?.namedFiles && !facts?.writesOnlyNamed && !facts?.replacesTrees &&
          !facts?.metadataOnly && !facts?.noFileOperands)),
    settled: opts.settled ?? NEVER,
    landing: stage === null || !opts.targets
      ? UNKNOWN
      : once(() => landingNames(stage, opts.targets!, ctx, (p) => opts.settled?.(p) === true)),
    changers: opts.changers ?? UNKNOWN,
    removes: stage === null ? NEVER : once(() => removesOnly(stage)),
    rewrites: facts?.rewritesTrees
      ? once(() => treeRewrite(ctx, stage!, facts, opts.settled ?? NEVER))
      : UNKNOWN,
  };
}

/** The largest settings file a formatter's `changesBelow` is given the text of. */
const SETTINGS_LIMIT = 256 * 1024;

/** What a stage's formatter rewrites below the trees it is given (see `TreeRewrite`). */
function treeRewrite(
  ctx: Context,
  stage: Stage,
  facts: Program,
  settled: (path: string, started?: boolean, at?: boolean) => boolean,
): TreeRewrite | null {
  const how = facts.rewritesTrees!(stage.argv);
  if (how === null) return null;
  const changesBelow = facts.changesBelow;
  // (A settings file as it is now, where no stage before it changes it: "" where there is none.)
  const read = (path: string) =>
    !settled(path, true, true)
      ? null
      : !ctx.fs.exists(path)
      ? ""
      : ctx.fs.readText?.(path, SETTINGS_LIMIT) ?? null;
  return {
    cwd: how === "cwd",
    changes: (dir, file) =>
      !changesBelow || changesBelow(stage.argv, dir, file, { read, home: ctx.home }),
  };
}

/** pi's tools that only read (every other tool, MCP and custom ones too, may write). */
export const READING_TOOLS = new Set(["read", "ls", "grep", "find"]);

/** pi's tools that open one file (its `ls` and `find` are named like the programs). */
export const ONE_FILE_TOOLS = new Set(["read", "write", "edit"]);

/**
 * Whether a program or tool never reads a directory operand as a tree: it looks at its names or
 * sizes (registry: `metadataOnly`), or (pi's read, write and edit) it opens one file.
 */
function metadataOnly(program: string): boolean {
  return ONE_FILE_TOOLS.has(program) || programNamed(program)?.metadataOnly === true;
}

/**
 * Whether a stage's program deletes, moves, copies over or changes the files below a directory
 * it names (`rm -r .pi`, `find .pi -delete`, `git checkout .`; registry: `replacesTrees`).
 */
function replacesTrees(program: string, stage: Stage | null): boolean {
  const replaces = programNamed(program)?.replacesTrees;
  if (typeof replaces === "function") return stage !== null && replaces(stage.argv);
  return replaces === true;
}
