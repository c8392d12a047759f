/**
 * Precision on real agent work: the agent corpus (testdata/corpus/agents.jsonl, an LLM agent's
 * bash steps with its cwd `/testbed`) decided under five configs, and for each the share allowed
 * and every ask and deny grouped by its cause (verdict_cause.ts, as `replay` groups them), with
 * the programs behind each cause and a few examples. `deno task bench:precision` prints it
 * (bench/precision.ts); lib/precision_test.ts fixes the counts.
 *
 * The agent's cwd is a sandbox project on a fake filesystem: `/testbed` holding `setup.py` and
 * `README.md`, as the differential and agent corpus tests have it. The repositories the commands
 * work in are not here, and need not be: a path is judged by where it lies, whether it exists or
 * is about to be written; a glob in the project cannot be listed, so it is judged by where its
 * prefix lets it reach. (A tree where every path the corpus names exists would make every bare
 * word an existing file, and `.env` files appear below every folder.)
 *
 * @module
 */
import { loadConfigTexts } from "./config.ts";
import { gateFileEntries } from "./gate_files.ts";
import { decide } from "./policy/engine.ts";
import { fakeFs } from "./policy/fs_facts.ts";
import { summarize } from "./replay.ts";
import type { BashParser } from "./shell/parser.ts";
import { STARTER_CONFIG } from "./starter.ts";
import type { Action, Config, Context } from "./types.ts";
import { type CauseGroup, CauseTally } from "./verdict_cause.ts";

/** The agent's working directory in the corpus: the project. */
export const PRECISION_PROJECT = "/testbed";
/** The home directory of the corpus's runs (they ran as root). */
export const PRECISION_HOME = "/root";

/** A config the corpus is measured under. */
export interface PrecisionConfig {
  name: string;
  /** What it is, in a line. */
  title: string;
  /** The config file's text (JSON or JSONC). */
  text: string;
}

/**
 * Destructive commands an allow-everywhere config denies: work that cannot be brought back
 * (recursive removal, shredding, a filesystem or disk overwritten, a discarded worktree or
 * untracked files, a remote history rewritten) or that takes more rights than the agent has (sudo,
 * su). A benchmark's deny-list, matched against each command as written: not a security boundary
 * (`rm -f -r x` is not in it).
 */
const DESTRUCTIVE = [
  "rm -r*",
  "rm -R*",
  "rm -fr*",
  "rm -fR*",
  "rm --recursive*",
  "find * -delete*",
  "shred *",
  "git push --force*",
  "git push -f*",
  "git reset --hard*",
  "git clean -f*",
  "git checkout -- *",
  "sudo *",
  "su *",
  "mkfs*",
  "dd *",
  "chmod -R *",
  "chown -R *",
];

/** The trusted project: allow inside, ask outside, secrets denied, `.env` asked about. */
const TRUSTED = {
  policies: {
    project: { defaultAction: "allow", rules: [] },
    outside: { defaultAction: "ask", rules: [] },
  },
  locations: { "/": "outside", "$cwd": "project" },
  pathProtection: { ".env": "ask", "~/.ssh/**": "deny", "~/secrets/**": "deny" },
};

/** The read-only project, with `defaultAction` for what its rules do not allow. */
function readOnly(defaultAction: "deny" | "sandbox") {
  return {
    policies: {
      project: {
        defaultAction,
        rules: [
          "$safe-bash",
          ...["read", "grep", "find", "ls"].map((tool) => ({ action: "allow", tool })),
        ],
      },
      tmp: { defaultAction: "allow", rules: [] },
      outside: { defaultAction: "ask", rules: [] },
    },
    locations: { "/": "outside", "$cwd": "project", "/tmp": "tmp" },
    pathProtection: { ".env": "ask", "~/.ssh/**": "deny" },
  };
}

/**
 * The configs of the benchmark: the three of issue 20, the trusted one with the sandbox on and the
 * read-only one sandboxed (issue 21), and the starter config `init` writes.
 */
export const PRECISION_CONFIGS: PrecisionConfig[] = [
  {
    name: "trusted",
    title: "trusted project: project allow, outside ask, ~/.ssh and ~/secrets denied, .env asks",
    text: JSON.stringify(TRUSTED),
  },
  {
    name: "read-only",
    title: "read-only project: project deny + read tools + $safe-bash, /tmp allow, outside ask",
    text: JSON.stringify(readOnly("deny")),
  },
  {
    name: "trusted-sandbox",
    title: "the trusted config with the sandbox enabled: what asks only because it cannot be " +
      "seen runs sandboxed",
    text: JSON.stringify({ ...TRUSTED, sandbox: { enabled: true } }),
  },
  {
    name: "read-only-sandbox",
    title: 'the read-only config with "defaultAction": "sandbox" in the project and the ' +
      "sandbox enabled",
    text: JSON.stringify({ ...readOnly("sandbox"), sandbox: { enabled: true } }),
  },
  {
    name: "deny-list",
    title: "allow everywhere, destructive commands denied (rm -r, git push --force, sudo, dd, ...)",
    text: JSON.stringify({
      policies: {
        everywhere: {
          defaultAction: "allow",
          rules: DESTRUCTIVE.map((pattern) => ({ action: "deny", tool: "bash", pattern })),
        },
      },
      locations: { "/": "everywhere" },
    }),
  },
  { name: "starter", title: "the starter config (`pi-controls init`)", text: STARTER_CONFIG },
];

/** A benchmark config loaded as a global config, with the gate's own files protected. */
export function loadPrecisionConfig(c: PrecisionConfig): Config {
  const loaded = loadConfigTexts([{
    file: `${c.name}.jsonc`,
    text: c.text,
    role: "global",
    root: null,
  }], {
    home: PRECISION_HOME,
    builtins: gateFileEntries({ agentDir: `${PRECISION_HOME}/.pi/agent` }),
  });
  if (loaded.status !== "ok") throw new Error(`the ${c.name} config does not load`);
  return loaded.config;
}

/** The sandbox project the corpus runs in (see the module's notes). */
export function precisionContext(): Context {
  return {
    cwd: PRECISION_PROJECT,
    home: PRECISION_HOME,
    // A PATH, as pi's environment has one (`/usr/bin/python3` is python3, not a file outside).
    env: {
      HOME: PRECISION_HOME,
      PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    },
    fs: fakeFs({ files: [`${PRECISION_PROJECT}/setup.py`, `${PRECISION_PROJECT}/README.md`] }),
  };
}

/** One config's result. */
export interface PrecisionResult {
  name: string;
  title: string;
  total: number;
  actions: Record<Action, number>;
  /** Every ask and deny by cause, most first. */
  causes: CauseGroup[];
}

/** Examples kept per cause. */
const EXAMPLES = 3;

/**
 * Decide every command under every config. The configs are taken in turn for each command, so
 * the command is parsed once (the analysis cache keeps it).
 */
export function measurePrecision(
  configs: PrecisionConfig[],
  commands: string[],
  parser: BashParser,
  ctx: Context = precisionContext(),
): PrecisionResult[] {
  const loaded = configs.map(loadPrecisionConfig);
  const actions = configs.map(() => ({ allow: 0, nudge: 0, log: 0, sandbox: 0, ask: 0, deny: 0 }));
  const tallies = configs.map(() => new CauseTally(EXAMPLES));
  for (const command of commands) {
    const input = { command };
    loaded.forEach((config, i) => {
      const v = decide(config, { tool: "bash", input }, ctx, { parser });
      actions[i][v.action]++;
      tallies[i].add(v, v.action, undefined, summarize("bash", input, v));
    });
  }
  return configs.map((c, i) => ({
    name: c.name,
    title: c.title,
    total: commands.length,
    actions: actions[i],
    causes: tallies[i].groups(),
  }));
}

/** The share allowed, as a percentage with two decimals (`99.21%`). */
export function allowRate(r: PrecisionResult): string {
  return percent(r.actions.allow, r.total);
}

/** The share that proceeds (allowed, nudged, logged or sandboxed), as `allowRate` shows it. */
export function proceedRate(r: PrecisionResult): string {
  const a = r.actions;
  return percent(a.allow + a.nudge + a.log + a.sandbox, r.total);
}

/** The share that still asks, as `allowRate` shows it. */
export function askRate(r: PrecisionResult): string {
  return percent(r.actions.ask, r.total);
}

function percent(n: number, total: number): string {
  return `${(100 * n / Math.max(total, 1)).toFixed(2)}%`;
}

/** The counts a change in precision moves: actions, and asks and denies per cause. */
export function precisionCounts(
  results: PrecisionResult[],
): Record<string, { actions: Record<Action, number>; causes: Record<string, [number, number]> }> {
  return Object.fromEntries(results.map((r) => [r.name, {
    actions: r.actions,
    causes: Object.fromEntries(r.causes.map((c) => [c.cause, [c.asks, c.denies]])),
  }]));
}

/** A line cut to `max` characters. */
function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/** The report for a person: per config its rates, then every cause with programs and examples. */
export function renderPrecision(results: PrecisionResult[]): string {
  const out: string[] = [];
  const n = (x: number) => x.toLocaleString("en-US");
  for (const r of results) {
    const a = r.actions;
    out.push(
      `${r.name}: ${allowRate(r)} allowed of ${n(r.total)} (${n(a.allow)} allow, ${
        n(a.ask)
      } ask, ` +
        `${n(a.deny)} deny${a.nudge + a.log ? `, ${n(a.nudge)} nudge, ${n(a.log)} log` : ""}${
          a.sandbox ? `, ${n(a.sandbox)} sandbox` : ""
        })`,
      `  ${r.title}`,
    );
    if (a.sandbox) {
      out.push(
        `  proceed (allowed or sandboxed): ${proceedRate(r)}; still ask: ${askRate(r)}; ` +
          `deny: ${percent(a.deny, r.total)}`,
      );
    }
    if (r.causes.length) out.push("     ask   deny  cause");
    for (const c of r.causes) {
      out.push(`  ${String(c.asks).padStart(6)} ${String(c.denies).padStart(6)}  ${c.cause}`);
      const programs = [...c.programs].sort((x, y) => y[1] - x[1]);
      if (programs.length) {
        const shown = programs.slice(0, 8).map(([p, k]) => `${p} ${k}`).join(", ");
        out.push(`                 by ${shown}${programs.length > 8 ? ", …" : ""}`);
      }
      for (const e of c.examples) out.push(`                 e.g. ${cut(e, 100)}`);
    }
    out.push("");
  }
  return out.join("\n");
}
