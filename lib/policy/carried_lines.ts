/**
 * Command lines carried by arguments: given to a program not known to take them as text or to run
 * them (`runner 'rm -rf x'`, `hooks.x=rm x`, `cmake -E env rm -rf src`), each is judged as a
 * command that may run, and counts where a rule asks or denies it, or a protected path in it is
 * reached (judged by the default action alone, any text would ask under a strict policy).
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type ExpandOptions, innerStages, type SettingsFiles } from "../programs/expand.ts";
import { commandLineArguments } from "../programs/line_arguments.ts";
import { inheritInput, programName } from "../programs/words.ts";
import { programOf } from "../programs/registry.ts";
import { SHELLS } from "../programs/shells.ts";
import type { Config, StageVerdict, TargetVerdict } from "../types.ts";
import { RESTRICTIVENESS } from "./action.ts";
import { protectionFor } from "./protection.ts";
import { ruleHeads } from "./rules.ts";
import type { GlobScope } from "./glob_scope.ts";
import type { LineScopes } from "./carried_scope.ts";

/**
 * Settings files where there are none to find (what runs in a container, on another machine); a
 * script there is not known.
 */
const NO_SETTINGS: SettingsFiles = {
  file: (_stage, _path, _top, script) => script ? null : "",
  project: () => [],
  named: () => [],
};

/** How `carriedLines` judges the lines it finds. */
export interface CarriedOptions {
  analyze: ExpandOptions["analyze"];
  /** A stage's verdict, its globs expanded in `globs` (the command's scope where not given). */
  judge: (stage: Stage, globs?: GlobScope) => StageVerdict;
  /** How the globs of the lines carried are expanded (see carried_scope.ts). */
  scopes?: LineScopes;
  /** The words each stage hands on to a stage it runs (`ExpandOptions.handed`). */
  handed?: ExpandOptions["handed"];
  /** The home directory of a user (`ExpandOptions.home`). */
  home?: ExpandOptions["home"];
  /**
   * A stage as a program not known as well, where it is one (see unnamed_programs.ts), with
   * the stages of its line (one of them may replace the program first).
   */
  unnamed?: (stage: Stage, line: Stage[]) => Stage | null;
  /** Whether a target counts (`countsIn`): `counts` where not given. */
  counts?: (t: TargetVerdict) => boolean;
}

/** `CarriedOptions`, with how a line's stages inherit the carrier's input. */
interface LineOptions extends CarriedOptions {
  inherit: (c: Stage) => Stage;
}

/** The lines the arguments of `stages` carry that count, each judged by `judge`. */
export function carriedLines(
  config: Config,
  stages: Stage[],
  opts: CarriedOptions,
): StageVerdict[] {
  const out: StageVerdict[] = [];
  const heads = ruleHeads(config);
  const counted = opts.counts ?? counts;
  // (A line's own stages may carry lines in turn, `ranger --cmd='shell rm -rf x'`: one level.)
  const queue = stages.map((s): [Stage, number] => [s, 0]);
  for (let q = 0; q < queue.length; q++) {
    const [s, depth] = queue[q];
    // (A shell a line starts reads the stage's standard input as commands: `ssh host sh
    // <<<'rm -rf x'`. Another program's input there is its data, as it was before.)
    let inherit: ((c: Stage) => Stage) | undefined;
    let home: ReturnType<typeof inHome> | undefined;
    const shaped = new Set<Word>();
    for (const w of commandLineArguments(s, heads, opts.handed?.get(s), shaped)) {
      inherit ??= shellsInherit(inheritInput(s));
      if (home === undefined) home = inHome(s, opts.home);
      const origin = `argument of ${s.argv[0].value}`;
      // (A remote login's line starts in its home: judged in this user's home, or where not known,
      // and in the cwd, as the policy there judges a line run elsewhere.)
      const cwds = home?.lines.has(w.value) ? [...s.cwds, home.dir] : s.cwds;
      for (const cwd of cwds) {
        const judged = lineOf(s, w, cwd, origin, { ...opts, inherit: inherit! });
        // (A line of another shape, `{ cmd; }`, `"cmd" x`, is one where it names a command.)
        if (!judged || (shaped.has(w) && !judged.lines.some((c) => namesCommand(c)))) continue;
        for (const [x, twin] of judged.line) {
          for (const y of twin ? [x, twin] : [x]) {
            const sv = opts.judge(y, readsAsSql(y) ? undefined : judged.globs);
            if (sv.targets.some(counted)) out.push(sv);
            if (depth === 0) queue.push([y, 1]);
          }
        }
      }
    }
  }
  return out;
}

/**
 * The stages of a line `s` carries by its word `w` in `cwd` (`lines`: its own; `line`: with
 * those they run, each with its twin as a program not known), and the glob scope they are judged
 * in (see carried_scope.ts); null where none is known.
 */
function lineOf(
  s: Stage,
  w: Word,
  cwd: string | null,
  origin: string,
  opts: LineOptions,
): { lines: Stage[]; line: [Stage, Stage | null][]; globs?: GlobScope } | null {
  // (What runs elsewhere finds no settings file of this machine; one that may run here
  // counts only where a rule names it, as its own words do.)
  const expand = {
    analyze: opts.analyze,
    depth: 1,
    settings: NO_SETTINGS,
    handed: opts.handed,
    home: opts.home,
  };
  // (A `for` loop's lists are listed, as the command's own are: loop_listings.ts.)
  let listing = w.kind === "static" && cwd !== null ? opts.scopes?.listing(w.value) : undefined;
  for (;;) {
    // (A line not known, `pwsh -EncodedCommand …`: a command not known.)
    const lines = w.kind === "static"
      ? opts.analyze(w.value, cwd, origin, s, listing?.start)?.map(opts.inherit)
      : [{ argv: [w], redirects: [], text: w.text, origin, cwds: [cwd] }];
    if (!lines?.length) return null;
    const line = lines.flatMap((c) => [c, ...innerStages(c, expand)])
      .map((x): [Stage, Stage | null] => [x, opts.unnamed?.(x, lines) ?? null]);
    // (Its globs expand as the command's do: `myrunner 'cat .en?'` reads .env.)
    const all = line.flatMap(([x, twin]) => (twin ? [x, twin] : [x]));
    const globs = opts.scopes?.scope(s, w, all);
    if (!listing?.listed.length || opts.scopes!.listingHolds(listing, globs!, lines[0])) {
      return { lines, line, globs };
    }
    listing = undefined;
  }
}

/** The words an SQL statement starts with, which no program is named (`SELECT * FROM t`). */
const SQL = /^(?:select|insert|update|delete|with|create|drop|alter|explain|pragma|values)$/i;

/**
 * Whether a line's stage reads as an SQL statement (`sqlite3 db 'SELECT * FROM t'`,
 * `mytool --query 'SELECT * FROM t'`): its globs are guesses, as before; no command's.
 */
function readsAsSql(x: Stage): boolean {
  const name = x.argv[0];
  return name?.kind === "static" && SQL.test(name.value) && x.argv.length > 1;
}

/**
 * A program's name (maybe by path) as a command line's first word has it: not a word of JSON's,
 * jq's or awk's (`"a":`, `{a:`, `{print`), which the shell reads as a command too.
 */
const PROGRAM_NAME = /^(?:[\w.+-]*\/)*[A-Za-z_][\w.+-]*$/;

/** Whether a stage's program has a program's name (`cat`, `/bin/rm`). */
function namesCommand(c: Stage): boolean {
  const name = c.argv[0];
  return name?.kind === "static" && PROGRAM_NAME.test(name.value);
}

/**
 * The lines a stage runs elsewhere that start in the home directory there (`Program.runsInHome`),
 * and that directory as judged here (this user's home; null where not known); null for none.
 */
function inHome(
  s: Stage,
  home: ExpandOptions["home"],
): { lines: Set<string>; dir: string | null } | null {
  const program = s.argv[0]?.kind === "static" ? programOf(s.argv[0]) : undefined;
  if (!program?.runsInHome || !program.runsElsewhere) return null;
  const lines = new Set(program.runsElsewhere(s.argv).map((w) => w.value));
  return { lines, dir: home?.(null) ?? null };
}

/** A line's stages as they run: a shell it starts reads the stage's standard input (`own`). */
function shellsInherit(own: (c: Stage) => Stage): (c: Stage) => Stage {
  return (c) => (SHELLS.includes(programName(c.argv[0])) ? own(c) : c);
}

/** A target a rule asks about or denies, or a protected path it names (not a glob's guess). */
export function counts(t: TargetVerdict): boolean {
  const byRule = t.rule?.pattern !== undefined && t.action === t.rule.action;
  const named = t.protection !== undefined && t.kind !== "glob" && t.kind !== "dynamic";
  return (byRule || named) && RESTRICTIVENESS[t.action] >= RESTRICTIVENESS.ask;
}

/**
 * `counts`, and a glob whose literal directory lies where every path is protected (`secrets/k*`
 * under `secrets/**`): it reaches only protected paths, whatever it matches. (A value not known,
 * `secrets/$X`, may climb out with a `..`: still a guess.)
 */
export function countsIn(config: Config, home: string): (t: TargetVerdict) => boolean {
  return (t) => counts(t) || surelyProtected(config, home, t);
}

/** A name no protection glob names by itself: what a `*` of one matches, and only that. */
const ANY_NAME = "\u0001";

/** Whether a glob's target reaches only paths protected (at `ask` or stricter) below its directory. */
function surelyProtected(config: Config, home: string, t: TargetVerdict): boolean {
  if (t.kind !== "glob" || t.protection === undefined || !t.path) return false;
  if (RESTRICTIVENESS[t.action] < RESTRICTIVENESS.ask) return false;
  // (Built in, the gate's own files are protected from what may change them: asked so.)
  const write = t.protection.builtin === true;
  return [t.path, t.resolved].every((dir) => {
    if (dir === undefined) return true;
    const p = protectionFor(config, `${dir.replace(/\/+$/, "")}/${ANY_NAME}`, home, write);
    return p !== null && RESTRICTIVENESS[p.action] >= RESTRICTIVENESS.ask;
  });
}
