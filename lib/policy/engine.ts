/**
 * The decision: a tool call, a config and a context in, one verdict out. Pure and synchronous.
 *
 * @example
 * ```ts ignore
 * const parser = await loadBashParser();
 * const ctx = { cwd: "/p", home: "/h", env: {}, fs: realFs() };
 * decide(config, { tool: "bash", input: { command: "rm -rf build" } }, ctx, { parser }).action;
 * // "ask" under the starter config (its rule "rm *")
 * ```
 *
 * @module
 */
import { analyzeCached } from "./analysis_cache.ts";
import { type ListingChoice, listingsHold, topAnalysis } from "./loop_listings.ts";
import { searchCollector, searchedPrograms, withoutSearched } from "./searched_programs.ts";
import { aliasesSet } from "./git_alias_sets.ts";
import { configuredPrograms } from "./git_configured.ts";
import {
  NO_LINKS,
  ONE_FILE_TOOLS,
  READING_TOOLS,
  type StageShared,
  stageShared,
} from "./stage_shared.ts";
import {
  bashSubject,
  CD_BUILTINS,
  PresetFacts,
  readsOnly,
  stageReadsOnly,
} from "./stage_subject.ts";
import { type BashEnv, commandString, type Stage, type Word } from "../shell/model.ts";
import type { ParserChoice } from "../shell/parser.ts";
import {
  locate,
  type LocationIndex,
  locationIndex,
  type Placement,
  reachable,
} from "./locations.ts";
import { cwdText, notification, reason } from "./messages.ts";
import { findDecider } from "./verdicts.ts";
import { memoFs } from "./fs_facts.ts";
import { dirname, resolve } from "node:path";
import { globLinks, throughLinks, UNKNOWN_PLACE } from "../programs/links.ts";
import { danglingLink, TOO_LARGE, walked } from "./links_seen.ts";
import { procSpelling, realPath } from "../shell/paths.ts";
import { protectedPathTest } from "./protection.ts";
import { protect } from "./protect_target.ts";
import { RESTRICTIVENESS, strictest } from "./action.ts";
import { applySandbox } from "./sandbox_action.ts";
import { evaluatePolicy, pickRule, type RuleResult, type Subject } from "./rules.ts";
import { carriedLines, countsIn } from "./carried_lines.ts";
import { carriedScopes } from "./carried_scope.ts";
import { changedNames, joinedNames, startOf, unknownIn } from "./nested_env.ts";
import { PROCESS_NOTE, stageTargets, type Target } from "./targets.ts";
import { innerTextWords } from "./text_words.ts";
import { toolCommands, toolTargets } from "./tool_targets.ts";
import {
  type DisturbedOptions,
  type GlobScope,
  globScope,
  growingScope,
  stageFileText,
} from "./glob_scope.ts";
import { settingsFiles } from "./found_settings.ts";
import { judgedBeside, linkedPrograms } from "./linked_programs.ts";
import { linkedStreams } from "./linked_streams.ts";
import { unnamedProgram, unnamedPrograms } from "./unnamed_programs.ts";
import { otherRepositories } from "./git_repositories.ts";
import { linksCheckedOut } from "./git_writes.ts";
import { configuredRemotes } from "./configured_remotes.ts";
import { carriesCommand, setsCodeOtherwise } from "../programs/env.ts";
import { unknownWord } from "../programs/words.ts";
import { handlersRunLater } from "../programs/shells.ts";
import {
  evalShape,
  type ExpandOptions,
  innerStages,
  linksMade,
  withLines,
} from "../programs/expand.ts";
import type { MadeLink } from "../programs/spec.ts";
import { homeOf } from "./this_machine.ts";
import type {
  Config,
  Context,
  Rule,
  StageVerdict,
  TargetVerdict,
  ToolCall,
  Verdict,
} from "../types.ts";

/** How a stage asks whether what it finds where it starts is as it is now. */
const STARTED: DisturbedOptions = { started: true },
  AT: DisturbedOptions = { ...STARTED, at: true },
  WRAPPED: DisturbedOptions = { wrapper: true };

/** Options of a decision. */
export interface DecideOptions {
  /** The tree-sitter Bash parser, null (the fallback splitter) or "pending" (see ParserChoice). */
  parser: ParserChoice;
  /** Record every matching rule on each target (for `explain`). @default false */
  explain?: boolean;
}

const approvalsByPolicy = new WeakMap<Config, Map<string, Rule[]>>();

/** The approval rules that apply inside a policy: those for it and the policy-agnostic ones. */
function approvalsFor(config: Config, policy: string): Rule[] {
  let byPolicy = approvalsByPolicy.get(config);
  if (!byPolicy) approvalsByPolicy.set(config, byPolicy = new Map());
  let list = byPolicy.get(policy);
  if (!list) {
    list = config.approvalRules.filter((r) => r.policy === undefined || r.policy === policy);
    byPolicy.set(policy, list);
  }
  return list;
}

/** The result of one placement (location + policy) for a subject, approvals applied. */
function judgePlacement(
  config: Config,
  placement: Placement,
  subject: Subject,
  explain: boolean,
): RuleResult & { approval?: Rule } {
  if (placement.policy === null) {
    return {
      action: "allow",
      rule: null,
      score: 0,
      note: "no location matches and there is no defaultPolicy",
    };
  }
  const policy = config.policies[placement.policy];
  if (!policy) {
    // Validation rejects unknown policy names; guard anyway and fail closed.
    return {
      action: "deny",
      rule: null,
      score: 0,
      note: `policy "${placement.policy}" does not exist`,
    };
  }
  const result = evaluatePolicy(policy, subject, { explain });
  if (!subject.unknown && result.action !== "allow") {
    const approvals = approvalsFor(config, placement.policy);
    if (approvals.length) {
      const picked = pickRule(approvals, subject);
      if (picked && RESTRICTIVENESS[picked.action] < RESTRICTIVENESS[result.action]) {
        return {
          ...picked,
          approval: picked.rule ?? undefined,
          note: "an approval rule allows it",
        };
      }
    }
  }
  return result;
}

/** How realPath looks a target up: the cwd is expected to exist, other paths may not. */
const CWD = { expected: true };
const OTHER = {};

/** Where a target's path leads: the paths to judge, and how each was reached. */
interface Reached {
  /** The lexical path, the resolved one, and those a glob or a made link reaches. */
  paths: string[];
  resolved?: string;
  linked?: string;
  globbed?: string[];
  placements: Placement[];
  /** Why what it reaches cannot all be seen (a tree too large, names a reader splits). */
  unseen?: string;
}

const NO_PLACEMENTS: Placement[] = [];

/** The paths a target stands for (lexical, resolved, through links) and their placements. */
function reachedBy(ctx: Context, target: Target, shared: StageShared): Reached {
  const { index } = shared;
  if (target.reach === "anywhere" || target.path === null) {
    return {
      paths: [],
      resolved: undefined,
      linked: undefined,
      globbed: undefined,
      placements: reachable(index, null),
      unseen: undefined,
    };
  }
  // (Every field there from the start: one shape.)
  const out: Reached = {
    paths: [target.path],
    resolved: undefined,
    linked: undefined,
    globbed: undefined,
    placements: NO_PLACEMENTS,
    unseen: undefined,
  };
  const paths = out.paths;
  const real = realPath(target.raw ?? target.path, ctx.fs, target.kind === "cwd" ? CWD : OTHER);
  if (real !== target.path) {
    paths.push(real);
    out.resolved = real;
  }
  if (
    target.write && ctx.fs.readlink &&
    // (Whether the path resolves is known already: the lookup above asked it.)
    ctx.fs.realpath(target.raw ?? target.path) === null && danglingLink(real, ctx.fs)
  ) {
    // A write through a symlink whose target does not exist yet creates that target (a cloned
    // repository may ship `ak -> ~/.ssh/authorized_keys`): judged there too.
    const to = ctx.fs.readlink(real);
    if (to !== null) {
      const created = realPath(resolve(dirname(real), to), ctx.fs);
      if (!paths.includes(created)) paths.push(created);
      out.linked ??= created;
    }
  }
  if (target.pattern) {
    // Through a symlink the glob matches (`cat *` with `lf -> ~/.ssh/id_rsa`).
    const reached = globLinks(target.pattern, ctx.fs);
    if (reached.length) out.globbed = reached;
    for (const r of reached) if (!paths.includes(r)) paths.push(r);
  }
  // A tree read following its links (`grep -R key .`; the cwd only where no place is named), or
  // paths listed below it (`find . | xargs cat`): where the links lead is reached, unless no
  // listed path is a link (`find -type f`). A listed name with a blank is split into words
  // (`a ..` is `a` and `..`), unless each path is passed whole (`-exec … {}`, `xargs -0`).
  const links = shared.followsLinks || (target.listed !== undefined && !target.listed.noLinks);
  const splits = target.listed !== undefined && !target.listed.whole;
  // (A name printed as it is that starts with `-` is an option to what it is handed to: `ls |
  // xargs wc` with a file `--files0-from=.env` makes wc read the names .env holds.)
  const dashes = target.listed?.bare === true;
  if (
    (links || splits || dashes) &&
    (target.kind === "argument" || target.kind === "path" ||
      (target.kind === "cwd" && !(shared.followsLinks && shared.operands))) &&
    ctx.fs.isDirectory?.(real)
  ) {
    // (The whole filesystem is never walked within the bounds: not tried.)
    // (A lister limited by name lists no link of another name; a filter's words `*.ts`, `.*.ts`,
    // `.ts` share one walk, with the loosest.)
    const named = shared.followsLinks ? undefined : target.listed?.names;
    const names = named === undefined ? undefined : "*" + named.replace(/^[.*]+(?=\.)/, "");
    const found = real === "/" ? TOO_LARGE : walked(real, ctx.fs, names);
    if (links) {
      if (found.links.length) out.globbed = [...(out.globbed ?? []), ...found.links];
      for (const r of found.links) if (!paths.includes(r)) paths.push(r);
    }
    if (!found.complete) {
      out.unseen = links
        ? "the tree is too large to see where the symlinks inside it lead"
        : "the tree is too large to see whether names below it would be split into words";
    } else if (splits && found.splits) out.unseen = "names below it would be split into words";
    else if (dashes && found.dashes) out.unseen = "a name below it would be read as an option";
  }
  if (shared.links.length) {
    // Through a symlink the command makes (`ln -s ~ h && cat h/.ssh/id_rsa`).
    for (const p of target.raw ? [target.raw, target.path] : [target.path]) {
      const through = throughLinks(p, shared.links);
      if (through === null) continue;
      if (through === UNKNOWN_PLACE) {
        // (A link whose target is not known, a patch's binary delta: anything may be reached.)
        out.unseen ??= "a symlink the command makes leads to a place not known";
        continue;
      }
      // (Into /proc or /dev: a process's paths, seen from which process is not known here.)
      if (procSpelling(through, ctx.fs) !== undefined) out.unseen ??= PROCESS_NOTE;
      const real = realPath(through, ctx.fs);
      out.linked ??= real;
      for (const q of [resolve(through), real]) if (!paths.includes(q)) paths.push(q);
    }
  }
  if (target.reach === "exact") {
    const placements: Placement[] = [];
    for (const p of paths) placements.push(locate(index, p));
    out.placements = placements;
  } else out.placements = paths.flatMap((p) => reachable(index, p));
  return out;
}

/** Judge one target: every placement it can fall into, lexical and resolved, plus pathProtection. */
function judgeTarget(
  config: Config,
  ctx: Context,
  target: Target,
  subject: Subject,
  explain: boolean,
  shared: StageShared,
): TargetVerdict {
  const { judged } = shared;
  const { paths, resolved, linked, globbed, placements, unseen } = reachedBy(
    ctx,
    target,
    shared,
  );
  // The most restrictive placement (the first of equals) decides.
  let bestAt = 0;
  let bestResult: (RuleResult & { approval?: Rule }) | undefined;
  for (let i = 0; i < placements.length; i++) {
    const placement = placements[i];
    let r: (RuleResult & { approval?: Rule }) | undefined;
    for (const [p, known] of judged) if (p === placement.policy) r = known;
    if (!r) {
      const facts = subject.stage;
      const zoned = facts instanceof PresetFacts && facts.writesIn
        ? { ...subject, stage: facts.inPolicy(placement.policy) }
        : subject;
      r = judgePlacement(config, placement, zoned, explain);
      judged.push([placement.policy, r]);
    }
    if (!bestResult || RESTRICTIVENESS[r.action] > RESTRICTIVENESS[bestResult.action]) {
      bestAt = i;
      bestResult = r;
    }
  }
  const placement = placements[bestAt];
  const r = bestResult!;
  const out: TargetVerdict = {
    path: target.path ?? "",
    kind: target.kind,
    source: target.source,
    location: placement.location,
    policy: placement.policy,
    rule: r.rule,
    score: r.score,
    action: r.action,
  };
  if (resolved) out.resolved = resolved;
  if (linked) out.linked = linked;
  if (globbed) out.links = globbed;
  if (r.approval) out.approval = r.approval;
  if (explain && r.candidates) out.candidates = r.candidates;
  const note = target.note ?? r.note;
  if (note) out.note = note;
  if (target.inContainer) inContainer(out);
  if (unseen && RESTRICTIVENESS[out.action] < RESTRICTIVENESS.ask) {
    // What cannot be seen (where the links of a tree too large lead): the user decides.
    out.action = "ask";
    out.note = unseen;
  }
  // pathProtection: checked on the lexical and the resolved path; nothing overrides it.
  protect(config, ctx, target, shared, target.path === null ? [] : paths, out);
  return out;
}

/**
 * A path in a container (`docker cp app:/app/logs .`): no place of this machine, so locations'
 * policies do not count; a rule that names the command does, and what is protected at the path
 * as this machine's (`protect`, after).
 */
function inContainer(out: TargetVerdict): void {
  if (out.rule?.pattern !== undefined && out.action === out.rule.action) return;
  out.action = "allow";
  out.rule = null;
  out.note = "a path in a container: only what is protected there counts";
}

/** Decide a non-bash tool call. */
function decideTool(
  config: Config,
  call: ToolCall,
  ctx: Context,
  explain: boolean,
): StageVerdict[] {
  const subject: Subject = { tool: call.tool };
  const reads = READING_TOOLS.has(call.tool);
  // (pi's grep tool may be limited to files a glob names.)
  const glob = call.tool === "grep" ? call.input?.glob : undefined;
  const shared = stageShared(ctx, locationIndex(config, ctx), call.tool, {
    links: NO_LINKS,
    writes: () => !reads,
    treeNames: typeof glob === "string" && glob !== "" ? [glob] : undefined,
    settled: () => true,
    changers: () => [],
  });
  // A tool other than pi's own may delete, move or overwrite a directory it names (an MCP
  // server's `delete`, `move_file` of `.pi`): what lies below it may be replaced.
  if (!reads && !ONE_FILE_TOOLS.has(call.tool)) {
    shared.replacesTrees = true;
    shared.below = { ...shared.below, trees: true };
  }
  const targets = toolTargets(call, ctx).map((t) =>
    judgeTarget(config, ctx, t, subject, explain, shared)
  );
  let action = strictest(targets.map((t) => t.action));
  // What cannot be seen (a process's file that may be anything, `/proc/self/environ`; an input
  // too large to look through): never allowed unseen.
  const unseen = targets.find((t) => t.note === PROCESS_NOTE || t.kind === "dynamic");
  if (unseen && RESTRICTIVENESS[action] < RESTRICTIVENESS.ask) {
    unseen.action = "ask";
    action = "ask";
  }
  return [{ command: null, cwd: ctx.cwd, targets, action }];
}

/**
 * Whether a bare name that does not exist yet is a path: a protected one, or a symlink another
 * stage writes where its words do not name it (`git checkout BRANCH && cat key`, key ->
 * ~/.ssh/id_rsa in BRANCH's tree; `ln -s` names its links, judged at its own stage).
 */
function pathTest(config: Config, home: string, links: MadeLink[] | undefined, stage: Stage) {
  const guarded = protectedPathTest(config, home);
  const written = links?.filter((l) => l.by !== undefined && l.by !== stage);
  if (!written?.length) return guarded;
  // (Or below one: `cd link && cat id_rsa`.)
  return (path: string) => guarded?.(path) === true || throughLinks(path, written) !== null;
}

/** The links a command makes that a stage's paths are judged through: not those it writes. */
function ownLinks(links: MadeLink[] | undefined, stage: Stage): MadeLink[] {
  if (!links?.length) return NO_LINKS;
  return links.some((l) => l.by === stage) ? links.filter((l) => l.by !== stage) : links;
}

/** Decide one bash stage. */
function decideStage(
  config: Config,
  ctx: Context,
  stage: Stage,
  opts: {
    unknown: boolean;
    explain: boolean;
    index: LocationIndex;
    links?: MadeLink[];
    /** The argv position of inline code that is not judged (no decisions block): no place. */
    code?: number;
    globs?: GlobScope;
    /** Words the programs of the stages a wrapper runs take as text (see `innerTextWords`). */
    text?: ReadonlySet<Word>;
  },
): StageVerdict {
  const name = stage.argv[0];
  const unknown = opts.unknown || !name || name.kind !== "static";
  const command = commandString(stage);
  const subject = bashSubject(stage, command, unknown, opts.globs?.options.nullglob);
  const raw = stageTargets(stage, ctx, pathTest(config, ctx.home, opts.links, stage), {
    code: opts.code,
    globs: opts.globs,
    text: opts.text,
  });
  if (unknown) {
    // A command we cannot see may be a shell running anything anywhere.
    raw.push({
      kind: "dynamic",
      path: null,
      reach: "anywhere",
      source: name?.text ?? stage.text,
      note: "the command name is not known before it runs",
    });
  }
  const program = unknown || name.unnamed ? "" : name.value.slice(name.value.lastIndexOf("/") + 1);
  let writes: boolean | undefined;
  const shared = stageShared(ctx, opts.index, program, {
    links: ownLinks(opts.links, stage),
    writes: () => writes ??= !stageReadsOnly(subject, stage),
    stage,
    targets: raw,
    settled: (path, started, at, wrapped) =>
      opts.globs !== undefined &&
      !opts.globs.disturbed(
        path,
        stage,
        undefined,
        wrapped ? WRAPPED : at ? AT : started ? STARTED : undefined,
      ),
    changers: (path) => opts.globs?.changers(path, stage, STARTED) ?? null,
    nullglob: opts.globs?.options.nullglob,
  });
  const written = raw.filter((t) => t.kind === "redirect" && t.write);
  if (written.length) subject.stage = new PresetFacts(stage, writtenPolicies(ctx, written, shared));
  const targets = raw.map((t) => judgeTarget(config, ctx, t, subject, opts.explain, shared));
  if (!unknown && (CD_BUILTINS.has(name.value) || name.value === "")) {
    // cd itself changes nothing but the cwd, and that effect is modelled: later stages are
    // judged where they run. A command of assignments, tests or comments alone runs no program.
    // Only pathProtection applies to their targets; their redirects open files as any stage's
    // do (`cd . > ~/.bashrc` empties it, `pushd . >> f` writes the directory stack into it).
    for (const t of targets) {
      if (t.kind === "redirect") continue;
      if (t.protection) t.action = t.protection.action;
      else {
        t.action = "allow";
        t.rule = null;
        t.note = name.value === ""
          ? "it runs no program (assignments, a test or comments alone)"
          : "cd only moves the cwd; the stages after it are judged there";
      }
    }
  }
  let action = strictest(targets.map((t) => t.action));
  // RULINGS principle 3: what cannot be seen is never allowed; at least ask. A stage that may run
  // in a directory not known (after `cd -`, `popd`, a trap's `cd`) may name anything there.
  const unseen = (t: TargetVerdict) =>
    t.kind === "dynamic" || t.kind === "glob" || (t.kind === "cwd" && t.path === "");
  const blind = unknown || targets.some(unseen);
  if (
    blind && RESTRICTIVENESS[action] < RESTRICTIVENESS.ask && targets.some((t) => t.policy !== null)
  ) {
    const t = targets.find((t) => t.kind === "dynamic" || t.kind === "glob") ??
      targets.find(unseen) ?? targets[0];
    t.action = "ask";
    t.note ??= "the command cannot be fully known before it runs";
    action = "ask";
  }
  const sv: StageVerdict = {
    command,
    text: stage.text,
    origin: stage.origin,
    cwd: cwdText(stage.cwds),
    targets,
    action,
  };
  if (unknown) sv.dynamic = true;
  return sv;
}

/**
 * Whether the places a stage's write redirects may land in include a policy's: every policy when
 * one of them may land anywhere.
 */
function writtenPolicies(
  ctx: Context,
  written: Target[],
  shared: StageShared,
): (policy: string | null) => boolean {
  const policies = new Set<string | null>();
  for (const t of written) {
    if (t.reach === "anywhere" || t.path === null) return () => true;
    for (const p of reachedBy(ctx, t, shared).placements) policies.add(p.policy);
  }
  return (policy) => policies.has(policy);
}

/**
 * How the shell text a wrapper runs is analysed (sudo, env, xargs, find -exec, bash -c, eval, ...
 * run stages of their own): in `cwd` (null: not known), each stage's origin below `origin`.
 */
function shellAnalyzer(
  env: BashEnv,
  parser: ParserChoice,
  searchPath: (assignment: Word) => boolean,
  home: ExpandOptions["home"],
  command: string,
): ExpandOptions["analyze"] {
  // (What the whole command may change of the environment its nested texts see: nested_env.ts.)
  let changed: ReadonlySet<string> | undefined;
  const top = () => changed ??= changedNames(command);
  const analyze: ExpandOptions["analyze"] = (text, cwd, origin, from, start) => {
    // (Where it runs is not known: nor is its `$PWD`.)
    const unknown = joinedNames(unknownIn(top, from), cwd === null ? UNKNOWN_PWD : NO_NAMES);
    const at: BashEnv = { ...env, cwd: cwd ?? env.cwd, nested: true, ...startOf(start, unknown) };
    const inner = analyzeCached(text, unknown.size ? { ...at, unknown } : at, parser);
    if (inner.error) return null;
    // (What it changes, the texts its stages run find changed too.)
    const around = joinedNames(from?.unknownVars ?? NO_NAMES, changedNames(text));
    const placed = (s: Stage): Stage => ({
      ...s,
      origin: s.origin === "top" ? origin : `${origin} > ${s.origin}`,
      cwds: cwd === null ? s.cwds.map((c) => (c === env.cwd ? null : c)) : s.cwds,
      ...(around.size ? { unknownVars: around } : {}),
    });
    const stages = inner.stages.map(placed);
    // (What its assignments alone make run: the stages those run, not the assignments.)
    for (const e of inner.environment ?? []) {
      stages.push(...innerStages(placed(e), { analyze, depth: 1, searchPath, home }));
    }
    return stages;
  };
  return analyze;
}

const NO_NAMES: ReadonlySet<string> = new Set();
const UNKNOWN_PWD: ReadonlySet<string> = new Set(["PWD"]);

/** A stage of the whole command (`argv` its words) in the tool's cwd. */
function commandStage(text: string, ctx: Context, argv: Word[]): Stage {
  return { argv, redirects: [], text, origin: "top", cwds: [ctx.cwd] };
}

/** The verdict of a bash call without a command string: a command not known. */
function noCommand(
  config: Config,
  call: ToolCall,
  ctx: Context,
  opts: { explain: boolean; index: ReturnType<typeof locationIndex> },
): { stages: StageVerdict[]; error: string | null } {
  const stage = commandStage(String(call.input?.command ?? ""), ctx, []);
  return {
    stages: [decideStage(config, ctx, stage, { unknown: true, ...opts })],
    error: "the bash call has no command string",
  };
}

/** The largest patch read for the symlinks it makes. */
const PATCH_LIMIT = 4 * 1024 * 1024;

/** A file's text for a stage (from its one cwd) as it is now: a patch's, for the links it makes. */
const stageText = (s: Stage, ctx: Context) => (path: string): string | null => {
  const cwd = s.cwds.length === 1 ? s.cwds[0] : null;
  return cwd === null ? null : ctx.fs.readText?.(resolve(cwd, path), PATCH_LIMIT) ?? null;
};

/** Decide a bash call. */
function decideBash(
  config: Config,
  call: ToolCall,
  ctx: Context,
  opts: DecideOptions & ListingChoice,
): { stages: StageVerdict[]; error: string | null } {
  const explain = opts.explain ?? false;
  const index = locationIndex(config, ctx);
  const command = typeof call.input?.command === "string" ? call.input.command : null;
  if (command === null) return noCommand(config, call, ctx, { explain, index });
  const env = { cwd: ctx.cwd, home: ctx.home, env: ctx.env, carriesCommand };
  const analysis = topAnalysis(command, env, ctx, opts);
  const searched = searchCollector(ctx.env);
  const searchPath = searched.take;
  const home = homeOf(ctx);
  const analyze = shellAnalyzer(env, opts.parser, searchPath, home, command);
  const all: Stage[] = [];
  // The words the programs wrappers run take as text (none where no stage runs another).
  let text: Set<Word> | undefined;
  // A file a program reads for the commands it holds (`psql -f schema.sql`), as it will be.
  const scoped = growingScope(command, analysis.stages, all, ctx, { readsOnly, tops: () => tops });
  const read = (s: Stage, path: string) => stageFileText(s, path, ctx, scoped());
  const settings = settingsFiles(ctx, scoped, command);
  const expand: ExpandOptions = { analyze, depth: 0, settings, searchPath, home, env: ctx.env };
  // (A `while read` loop's lines from a listing program are paths of its listing.)
  // (The stage of this shell each stage a wrapper runs comes from: their globs are one expansion.)
  let tops: Map<Stage, Stage> | undefined;
  // (The words each stage hands on to one it runs: judged there, not as lines it carries; each
  // stage one runs as itself, `Runner.own`, judged beside it.)
  const [handed, own] = [new Map<Stage, Set<Word>>(), new Map<Stage, Stage>()];
  const expandTop: ExpandOptions = { ...expand, read, handed, beside: own };
  // (The stages a stage runs, each known by the stage of this shell it comes from.)
  const runBy = (inner: Stage[], from: Stage) => {
    if (!inner.length) return inner;
    innerTextWords(inner, text ??= new Set());
    tops ??= new Map();
    for (const x of inner) tops.set(x, tops.get(from) ?? from);
    return inner;
  };
  for (const top of analysis.stages) {
    for (const s of withLines(top)) all.push(s, ...runBy(innerStages(s, expandTop), s));
  }
  // What git runs for an alias another stage sets (`git config alias.d diff && git d`).
  const runsOf = (x: Stage, from: Stage) => runBy(innerStages(x, expandTop), from);
  all.push(...aliasesSet(all, runsOf));
  // Assignments alone (`PAGER='less -R'`): only what they make other programs run is judged.
  for (const e of analysis.environment ?? []) all.push(...innerStages(e, expand));
  if (setsCodeOtherwise(command, all, searched.texts)) {
    // PATH, bash's command tables or another variable that holds code set another way (`read
    // PATH`, `printf -v PS4`): a name may run any program, a trace any command.
    const what = unknownWord("(what a variable the command sets otherwise runs)");
    all.push(commandStage(command, ctx, [what]));
  }
  handlersRunLater(all, ctx, command);
  const links = [...linksMade(all, (s) => stageText(s, ctx)), ...linksCheckedOut(all, ctx)];
  // Names a PATH the command sets finds elsewhere (`export PATH="$PWD/bin:$PATH"`).
  if (searched.dirs.length) {
    const only = (s: Stage) => readsOnly(withoutSearched(s, searched.texts));
    const globs = globScope(command, all, ctx, only, tops);
    all.push(...searchedPrograms(all, searched.dirs, ctx, { globs, links }));
  }
  let beside = own.size ? own : undefined;
  const besides = (pairs: readonly [Stage, Stage][]) => {
    if (pairs.length) judgedBeside(all, pairs, tops ??= new Map(), beside ??= new Map());
  };
  besides(linkedPrograms(all, links, ctx));
  all.push(...linkedStreams(all, links, ctx));
  let before: GlobScope | undefined;
  const scopeBefore = () => before ??= globScope(command, [...all], ctx, readsOnly, tops, beside);
  // Remotes config files name (`git push origin`, `rclone copy x alias:`), judged as given.
  let instead: Map<Stage, Stage> | undefined;
  for (const [s, from] of configuredRemotes(all, ctx, scopeBefore, tops)) {
    const inner = innerStages(s, expandTop);
    all.push(s, ...inner);
    instead ??= new Map();
    for (const x of [s, ...inner]) instead.set(x, from);
  }
  all.push(...otherRepositories(all, ctx, scopeBefore));
  // What git runs from its config files and hooks (`core.fsmonitor`, a hook written first).
  all.push(...configuredPrograms(all, ctx, scopeBefore, runsOf, tops));
  // A program given by path outside PATH is also one not known (`x/grep KEY` may read KEY).
  const now = () => globScope(command, [...all], ctx, readsOnly, tops, beside);
  besides(unnamedPrograms(all, ctx, now));
  // Globs are expanded as bash will expand them, unless another stage may change what they match.
  const globs = globScope(command, all, ctx, readsOnly, tops, beside, instead);
  const again = !listingsHold(analysis, globs, [instead, beside, tops]);
  if (again) return decideBash(config, call, ctx, { ...opts, listing: false });
  const stages = all.map((s) =>
    judgeStage(config, ctx, s, { unknown: false, explain, index, links, globs, text })
  );
  const judge = (x: Stage, g = globs) =>
    decideStage(config, ctx, x, { unknown: false, explain, index, links, globs: g });
  const unnamed = (x: Stage, line: Stage[]) =>
    unnamedProgram(x, ctx, () => globScope(command, [...all, ...line], ctx, readsOnly, tops));
  const scopes = carriedScopes(ctx, { command, all, readsOnly, tops, beside, instead });
  const counts = countsIn(config, ctx.home);
  const carried = { analyze, judge, scopes, handed, home, unnamed, counts };
  stages.push(...carriedLines(config, all, carried));
  if (analysis.error) {
    const whole = commandStage(command, ctx, []);
    const sv = decideStage(config, ctx, whole, { unknown: true, explain, index });
    for (const t of sv.targets) t.note = analysis.error;
    stages.push(sv);
  }
  if (stages.length === 0) stages.push(noProgram(config, ctx, command, { explain, index }));
  return { stages, error: analysis.error };
}

/**
 * The verdict of one stage of the command, with the inline code it evaluates (judged by the
 * decisions block alone; without one it is no place).
 */
function judgeStage(
  config: Config,
  ctx: Context,
  s: Stage,
  opts: Parameters<typeof decideStage>[3],
): StageVerdict {
  const shape = evalShape(s);
  const code = config.decisions ? undefined : shape?.codeAt;
  // (What a wrapper's program takes as text, a program not known may open.)
  const text = s.argv[0]?.unnamed ? undefined : opts.text;
  const sv = decideStage(config, ctx, s, { ...opts, code, text });
  if (shape) {
    const { codeAt: _, ...shown } = shape;
    sv.eval = shown;
  }
  return sv;
}

/** The verdict of a command of assignments or comments alone: judged where it runs. */
function noProgram(
  config: Config,
  ctx: Context,
  command: string,
  opts: { explain: boolean; index: ReturnType<typeof locationIndex> },
): StageVerdict {
  const empty = commandStage(command, ctx, [{ value: "", kind: "static", prefix: "", text: "" }]);
  return decideStage(config, ctx, empty, { unknown: false, ...opts });
}

/** Decide one tool call under a loaded config. */
export function decide(
  config: Config,
  call: ToolCall,
  context: Context,
  opts: DecideOptions,
): Verdict {
  const ctx: Context = { ...context, fs: memoFs(context.fs) };
  const bash = call.tool === "bash";
  const { stages, error } = bash
    ? decideBash(config, call, ctx, opts)
    : { stages: decideTool(config, call, ctx, opts.explain ?? false), error: null };
  if (!bash) {
    // A shell command another tool runs (pi's `powershell`, an MCP server's `start_process`):
    // judged as a carried line, where a rule asks about or denies it or a protected path in it
    // is reached.
    const counts = countsIn(config, ctx.home);
    for (const text of toolCommands(call.input)) {
      const carried = decideBash(config, { tool: "bash", input: { command: text } }, ctx, opts);
      stages.push(...carried.stages.filter((s) => s.targets.some(counts)));
    }
  }
  applySandbox(config, ctx.cwd, call.tool, stages);
  const action = strictest(stages.map((s) => s.action));
  const policies: string[] = [];
  for (const s of stages) {
    for (const t of s.targets) {
      if (t.policy && !policies.includes(t.policy)) policies.push(t.policy);
    }
  }
  // (An allowed call has no reason and no notification: none is looked for.)
  const decider = action === "allow" ? null : findDecider(call.tool, stages, action);
  const verdict: Verdict = {
    action,
    tool: call.tool,
    policies,
    reason: decider ? reason(decider, action) : null,
    notification: decider ? notification(decider, action) : null,
    stages,
  };
  if (action === "nudge" && decider?.target.rule?.message) {
    const r = decider.target.rule;
    verdict.nudge = {
      message: r.message!,
      key: r.pattern !== undefined ? `${r.tool}:${r.pattern}` : r.tool,
    };
  }
  if (error) verdict.parseError = error;
  return verdict;
}
