/**
 * The CLI's subcommands, one entry each in {@linkcode COMMANDS} (its help, flags and how it
 * runs), and the help the CLI prints from them: the overview and each command's `--help`.
 *
 * @module
 */
import { cmdSuggest } from "./suggest.ts";
import { EXIT } from "./cli_io.ts";
import { type Command, type Flags, type OptionSpec, parseFlags } from "./cli_flags.ts";
import { cmdCheck, cmdExplain } from "./cli_check.ts";
import { cmdInit, cmdTest, cmdValidate } from "./cli_setup.ts";
import { cmdReplay } from "./cli_replay.ts";
import { cmdTrust } from "./cli_trust.ts";
import { cmdSandbox } from "./cli_sandbox.ts";

const CONFIG_OPT: OptionSpec = {
  flag: "--config",
  alias: "-c",
  value: "FILE",
  text: "use exactly this config file instead of the global and project ones pi would find " +
    "(repeatable; a later file wins, as a project file wins over the global one)",
};
const CWD_OPT: OptionSpec = {
  flag: "--cwd",
  value: "DIR",
  text: "the working directory pi would have: relative paths resolve against it, $cwd means it, " +
    "and the project config is found walking up from it (default: the current directory)",
};
const TRUST_OPT: OptionSpec = {
  flag: "--trust-project",
  text: "decide as if the project were trusted (an untrusted project config can only tighten " +
    "the global policy)",
};
const CALL_OPTS: OptionSpec[] = [
  { flag: "--tool", value: "NAME", text: "the tool called: bash, read, write, edit, an MCP tool…" },
  { flag: "--input", value: "JSON", text: `its input, a JSON object, e.g. '{"command":"ls"}'` },
];
const VERDICT_EXIT = `${EXIT.ok} allow (also nudge and log), ${EXIT.ask} ask, ${EXIT.deny} deny; ` +
  `${EXIT.failure} when the config is broken (the verdict is then deny, naming file:line:col)`;

/** The subcommands, in the order the overview lists them. A new one is one entry here. */
export const COMMANDS: Command[] = [
  {
    name: "check",
    summary: "decide one tool call (or one per stdin line) and print the verdict as JSON",
    usage: [
      "[--config FILE]... [--cwd DIR] --tool NAME --input JSON",
      "[--config FILE]... [--cwd DIR] --jsonl      (one call per stdin line)",
    ],
    options: [
      CONFIG_OPT,
      CWD_OPT,
      ...CALL_OPTS,
      {
        flag: "--jsonl",
        text: `read {"id"?, "tool", "input", "cwd"?} per stdin line; print one verdict per line, ` +
          `in order, echoing id (a bad line gets {"line", "error"})`,
      },
      TRUST_OPT,
    ],
    exit: `${VERDICT_EXIT}. --jsonl: the most restrictive over the lines, ${EXIT.failure} (a ` +
      `line not understood, a broken config) above ${EXIT.deny} above ${EXIT.ask} above ${EXIT.ok}.`,
    examples: [
      `pi-controls check --tool bash --input '{"command":"git push --force origin main"}'`,
      `echo '{"tool":"read","input":{"path":"~/.ssh/id_ed25519"}}' | pi-controls check --jsonl`,
    ],
    run: (io, args) => cmdCheck(io, flagsOf("check", args)),
  },
  {
    name: "explain",
    summary: "show how a call is decided: stages, targets, locations, policies, rules",
    usage: ["[--config FILE]... [--cwd DIR] --tool NAME --input JSON"],
    options: [CONFIG_OPT, CWD_OPT, ...CALL_OPTS, TRUST_OPT],
    exit: `${EXIT.ok} when the decision was explained, whatever it is.`,
    examples: [`pi-controls explain --tool bash --input '{"command":"cd /tmp && rm -rf x"}'`],
    run: (io, args) => cmdExplain(io, flagsOf("explain", args)),
  },
  {
    name: "validate",
    summary: "check config files; print every error as file:line:col: message",
    usage: ["[FILE]..."],
    options: [CONFIG_OPT, CWD_OPT],
    operands: { max: Infinity, text: "FILE: a config file (default: the ones pi would find)" },
    exit:
      `${EXIT.ok} when the config is valid, ${EXIT.failure} when it has errors or none is found.`,
    examples: ["pi-controls validate ~/.pi/agent/extensions/pi-controls.jsonc"],
    run: (io, args) => cmdValidate(io, flagsOf("validate", args)),
  },
  {
    name: "test",
    summary: "run the examples in the config's `tests` and report each",
    usage: ["[--config FILE]... [--cwd DIR]"],
    options: [CONFIG_OPT, CWD_OPT],
    exit: `${EXIT.ok} when every example passes, ${EXIT.failure} when one fails or the config ` +
      `is broken or absent.`,
    examples: ["pi-controls test --cwd ~/work/project"],
    run: (io, args) => cmdTest(io, flagsOf("test", args)),
  },
  {
    name: "replay",
    summary: "replay recorded pi sessions: what the policy would have done, and a summary",
    usage: ["[--config FILE]... [--json] [SESSION.jsonl | DIR]..."],
    options: [
      CONFIG_OPT,
      CWD_OPT,
      { flag: "--json", text: "print one JSON object (files, summary, rows) instead of the table" },
      TRUST_OPT,
    ],
    operands: {
      max: Infinity,
      text: "SESSION.jsonl | DIR: session files, or directories searched for *.jsonl (default: " +
        "pi's sessions, ~/.pi/agent/sessions; with none there, the example sessions that ship " +
        "with pi-controls)",
    },
    exit: `${EXIT.ok} when replayed (whatever the verdicts), ${EXIT.failure} when a session file ` +
      `cannot be read or the config is broken.`,
    examples: ["pi-controls replay", "pi-controls replay --json ~/.pi/agent/sessions/--work--"],
    run: (io, args) => cmdReplay(io, flagsOf("replay", args)),
  },
  {
    name: "init",
    summary: "write the commented starter config (never overwrites a file)",
    usage: ["[--project] [FILE]"],
    options: [
      {
        flag: "--project",
        text: "write the project config, .pi/extensions/pi-controls.jsonc under --cwd",
      },
      CWD_OPT,
    ],
    operands: { max: 1, text: "FILE: where to write it (default: the global config)" },
    exit: `${EXIT.ok} when written, ${EXIT.failure} when the file exists or cannot be written.`,
    examples: ["pi-controls init", "pi-controls init --project --cwd ~/work/project"],
    run: (io, args) => cmdInit(io, flagsOf("init", args)),
  },
  {
    name: "trust",
    summary: "trust a project's config (pinning its text), or stop trusting it; for pi 0.7x",
    usage: ["[--revoke] [DIR]"],
    options: [
      { flag: "--revoke", text: "stop trusting it: its config can only tighten again" },
      CWD_OPT,
    ],
    operands: { max: 1, text: "DIR: the project, or a directory in it (default: --cwd)" },
    exit: `${EXIT.ok} when recorded, ${EXIT.failure} when the trust store cannot be written.`,
    examples: ["pi-controls trust ~/work/project", "pi-controls trust --revoke ~/work/project"],
    run: (io, args) => cmdTrust(io, flagsOf("trust", args)),
  },
  {
    name: "sandbox",
    summary: "print the OS sandbox's boundaries for a cwd, and whether bubblewrap starts here",
    usage: ["--print [--config FILE]... [--cwd DIR]"],
    options: [
      { flag: "--print", text: "print the boundaries (writable, read-only, hidden, network)" },
      CONFIG_OPT,
      CWD_OPT,
      TRUST_OPT,
    ],
    exit: `${EXIT.ok} when printed (also without a sandbox block), ${EXIT.failure} when the ` +
      `config is broken.`,
    examples: ["pi-controls sandbox --print --cwd ~/work/project"],
    run: (io, args) => Promise.resolve(cmdSandbox(io, flagsOf("sandbox", args))),
  },
  {
    name: "suggest",
    summary: "propose the narrowest approval rules that would have removed the asks you allowed",
    usage: [
      "[--config FILE]... [--cwd DIR] [--log FILE] [--apply PATH] [--json]",
      "[--config FILE]... [--cwd DIR] [--apply PATH] [--json] SESSION.jsonl|DIR...",
    ],
    options: [
      CONFIG_OPT,
      CWD_OPT,
      {
        flag: "--log",
        value: "FILE",
        text: "the decision log to read (default <agentDir>/extensions/pi-controls.log)",
      },
      {
        flag: "--apply",
        value: "PATH",
        text: "save the proposed rules into this config file (comments kept, atomic)",
      },
      { flag: "--json", text: "machine output" },
      TRUST_OPT,
    ],
    operands: {
      max: Infinity,
      text: "SESSION.jsonl | DIR: recorded pi sessions, replayed under the config (instead of " +
        "the log): calls it asks about or denies that ran",
    },
    exit: `${EXIT.ok} done (also when there is nothing to suggest), ${EXIT.failure} when the ` +
      `log, the sessions or the config cannot be read, ${EXIT.usage} usage.`,
    examples: [
      "pi-controls suggest",
      "pi-controls suggest --apply ~/.pi/agent/extensions/pi-controls.jsonc",
      "pi-controls suggest ~/.pi/agent/sessions",
    ],
    run: (io, args) => cmdSuggest(io, args),
  },
];

const HELP_OPT: OptionSpec = { flag: "--help", alias: "-h", text: "show this help" };

/** Every flag some command takes (an unknown one and a misplaced one are told apart). */
const ALL_FLAGS = new Set(
  COMMANDS.flatMap((c) => (c.options ?? []).flatMap((o) => o.alias ? [o.flag, o.alias] : [o.flag])),
);

export function commandNamed(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}

function flagsOf(name: string, args: string[]): Flags {
  return parseFlags(args, commandNamed(name)!, ALL_FLAGS);
}

/** `prefix` and `text` wrapped to `width` columns, the lines after the first indented to the text. */
function wrap(prefix: string, text: string, width = WIDTH): string {
  const lines: string[] = [];
  let line = prefix;
  let empty = true;
  for (const word of text.split(/ +/)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = " ".repeat(prefix.length) + word;
    } else line = empty ? line + word : `${line} ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines.join("\n");
}

const WIDTH = 100;

/** `pi-controls <command> --help`. */
export function commandHelp(c: Command): string {
  const out = [`pi-controls ${c.name} — ${c.summary}`, "", "Usage:"];
  for (const u of c.usage) out.push(`  pi-controls ${c.name} ${u}`);
  const opts = [...c.options ?? [], HELP_OPT];
  const names = opts.map((o) =>
    `${o.alias ? `${o.alias}, ` : "    "}${o.flag}${o.value ? ` ${o.value}` : ""}`
  );
  const col = Math.max(...names.map((n) => n.length)) + 2;
  out.push("", "Options:");
  opts.forEach((o, i) => out.push(wrap(`  ${names[i].padEnd(col)}`, o.text)));
  if (c.operands?.text) out.push("", "Arguments:", wrap("  ", c.operands.text));
  out.push("", "Exit status:", wrap("  ", c.exit));
  out.push("", c.examples.length > 1 ? "Examples:" : "Example:");
  for (const e of c.examples) out.push(`  ${e}`);
  return out.join("\n") + "\n";
}

/** `pi-controls --help`. */
export function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "pi-controls — policy gate for the pi coding agent",
    "",
    "Usage:",
    ...COMMANDS.flatMap((c) => c.usage.map((u) => `  pi-controls ${c.name.padEnd(width)} ${u}`)),
    `  pi-controls COMMAND --help    (a command's options, exit status and an example)`,
    `  pi-controls --version`,
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "check, explain and replay take --trust-project: decide as if the project were trusted.",
    "An untrusted project config can only tighten the global policy: each call gets the stricter of",
    "its verdict under the global config alone and under the merged one. A project is trusted when",
    "pi-controls' store (pi-controls trust) or pi's trust.json says so, and its config is the text",
    "last accepted (pinned).",
    "",
    "Without --config, the global config (<agentDir>/extensions/pi-controls.jsonc) and the project",
    "config (.pi/extensions/pi-controls.jsonc, found by walking up from --cwd) are used, as in pi.",
    "agentDir is $PI_CODING_AGENT_DIR or ~/.pi/agent.",
    "",
    `Exit status: ${EXIT.ok} done; check: ${EXIT.ok} allow, nudge or log, ${EXIT.ask} ask, ` +
    `${EXIT.deny} deny.`,
    `  ${EXIT.failure} a broken config, a failed test, or another failure (one line on stderr says ` +
    `what and where).`,
    `  ${EXIT.usage} a usage error: an unknown command or option, a missing or bad value.`,
  ].join("\n") + "\n";
}
