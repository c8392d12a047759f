/**
 * What rules and the `$safe-bash` preset see of a bash stage (its forms, its preset facts), and
 * whether a stage only reads what it names.
 *
 * @module
 */
import { commandString, isFileTarget, type Stage } from "../shell/model.ts";
import { RISKY_ENV } from "../programs/env.ts";
import { canonicalName } from "../programs/other_names.ts";
import { pickRule, type Subject } from "./rules.ts";
import { expandSafeBash, type StageFacts } from "./safe_bash.ts";
import type { Rule } from "../types.ts";

/** Builtins whose only effect is the cwd (modelled by the bash analysis). */
export const CD_BUILTINS: ReadonlySet<string> = new Set(["cd", "pushd", "popd"]);

let presetRules: Rule[] | undefined;

/**
 * Whether a bash stage only reads what it names: `$safe-bash` accepts it (the preset's argument
 * checks are the one home of what keeps a program read-only), its redirects aside (each says
 * whether it writes). A command that cannot be seen may write.
 */
export function stageReadsOnly(subject: Subject, stage: Stage): boolean {
  if (subject.unknown) return false;
  const name = stage.argv[0];
  if (name?.kind === "static" && CD_BUILTINS.has(name.value)) return true;
  // A pure question of the stage's words: answered once per stage (the globs' scope asks it, and
  // the protection of the gate's files again; a repeated command's stages are kept).
  let known = readOnlyStages.get(stage);
  if (known === undefined) readOnlyStages.set(stage, known = presetReadsOnly(subject));
  return known;
}

const readOnlyStages = new WeakMap<Stage, boolean>();

function presetReadsOnly(subject: Subject): boolean {
  presetRules ??= expandSafeBash("allow");
  const facts: StageFacts = {
    argv: subject.stage!.argv,
    writes: false,
    assignments: subject.stage!.assignments,
    values: subject.stage!.values,
  };
  const picked = pickRule(presetRules, { ...subject, stage: facts });
  return picked !== null && picked.unmatched === undefined;
}

/** What rules and presets match of a bash stage. */
export function bashSubject(
  stage: Stage,
  command: string,
  unknown: boolean,
  nullglob?: boolean,
): Subject {
  const forms = stageForms(stage, command);
  // (Under nullglob a glob that matches nothing is dropped: `git *.zz push --force` may run `git
  // push --force`.)
  if (nullglob && stage.argv.some((w) => w.kind === "glob")) {
    forms.push(stage.argv.filter((w) => w.kind !== "glob").map((w) => w.value).join(" "));
  }
  return {
    tool: "bash",
    forms,
    stage: new PresetFacts(stage),
    unknown,
  };
}

/** Whether a stage only reads what it names (its redirects aside), as the engine judges it. */
export function readsOnly(stage: Stage): boolean {
  const name = stage.argv[0];
  const unknown = !name || name.kind !== "static";
  return stageReadsOnly(bashSubject(stage, commandString(stage), unknown), stage);
}

/**
 * What a preset (`$safe-bash`) checks of a stage, worked out only when a preset asks. Judged for
 * one policy's places (`inPolicy`), the stage writes only where a write redirect lands there: a
 * write into another zone is that zone's business (`cat f > /tmp/out` reads in the project).
 */
export class PresetFacts implements StageFacts {
  #argv?: string[];
  #writes?: boolean;
  #assignments?: string[] | null;
  #values?: (string | null)[];
  constructor(
    private stage: Stage,
    /** Whether a write redirect of the stage may land in a policy's places (absent: anywhere). */
    readonly writesIn?: (policy: string | null) => boolean,
    private policy?: string | null,
  ) {}
  /** The facts as a preset judging `policy`'s places sees them. */
  inPolicy(policy: string | null): PresetFacts {
    return new PresetFacts(this.stage, this.writesIn, policy);
  }
  get argv(): string[] {
    return this.#argv ??= this.stage.argv.map((w) => w.value);
  }
  get writes(): boolean {
    if (this.#writes === undefined) {
      // (Given where its writes land, it writes: a file redirect, or a descriptor's file opened
      // again, `cat < f > /dev/stdin`.)
      this.#writes = (this.writesIn !== undefined ||
        this.stage.redirects.some((r) => r.kind === "write" && isFileTarget(r))) &&
        (this.writesIn === undefined || this.policy === undefined || this.writesIn(this.policy));
    }
    return this.#writes;
  }
  get assignments(): string[] | undefined {
    if (this.#assignments === undefined) {
      this.#assignments = this.stage.assignments?.map((w) => w.value) ?? null;
    }
    return this.#assignments ?? undefined;
  }
  get values(): (string | null)[] {
    return this.#values ??= this.stage.argv.map((w) => (w.kind === "static" ? w.value : null));
  }
}

/** The forms of a stage's command that rules are matched against (most restrictive wins). */
function stageForms(stage: Stage, command: string): string[] {
  const forms = [command];
  const name = stage.argv[0];
  if (name && name.kind === "static" && command.startsWith(name.value)) {
    // A program given by path is also matched by its basename (/bin/rm is rm), and one of
    // another name by its own (grm is rm: other_names.ts).
    const base = name.value.slice(name.value.lastIndexOf("/") + 1);
    const own = canonicalName(base);
    if (base && base !== name.value) forms.push(base + command.slice(name.value.length));
    if (own !== base) forms.push(own + command.slice(name.value.length));
  }
  // Variables that change what a program runs or loads make the assignment part of the command.
  if (!stage.assignments) return forms;
  const risky = stage.assignments.filter((a) => a.kind !== "static" || RISKY_ENV.test(a.value));
  if (risky.length) forms.push(`${risky.map((a) => a.value).join(" ")} ${command}`);
  return forms;
}
