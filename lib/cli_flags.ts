/**
 * The CLI's command shape and its flag parser: a {@linkcode Command} says its options and
 * operands, and {@linkcode parseFlags} reads a command line against them into {@linkcode Flags}.
 *
 * @module
 */
import { type CliIo, UsageError } from "./cli_io.ts";

export interface Flags {
  configs: string[];
  cwd?: string;
  tool?: string;
  input?: string;
  jsonl: boolean;
  json: boolean;
  project: boolean;
  trustProject: boolean;
  revoke: boolean;
  print: boolean;
  rest: string[];
}

/**
 * Parse a command's flags; a flag the command does not take is a usage error (`allFlags`, every
 * flag some command takes, tells a misplaced flag from an unknown one).
 */
export function parseFlags(
  args: string[],
  command: Command,
  allFlags: ReadonlySet<string>,
): Flags {
  const f: Flags = {
    configs: [],
    jsonl: false,
    json: false,
    project: false,
    trustProject: false,
    revoke: false,
    print: false,
    rest: [],
  };
  const takes = new Map<string, string>();
  for (const o of command.options ?? []) {
    takes.set(o.flag, o.flag);
    if (o.alias) takes.set(o.alias, o.flag);
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("-") || a === "-") {
      f.rest.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const written = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    const inline = a.startsWith("--") && eq > 0 ? a.slice(eq + 1) : undefined;
    const name = takes.get(written);
    if (!name) {
      throw new UsageError(
        allFlags.has(written)
          ? `${command.name} does not take ${written}`
          : `unknown option ${written}`,
      );
    }
    const value = () => {
      if (inline !== undefined) return inline;
      if (i + 1 >= args.length) throw new UsageError(`${written} needs a value`);
      return args[++i];
    };
    switch (name) {
      case "--config":
        f.configs.push(value());
        break;
      case "--cwd":
        f.cwd = value();
        break;
      case "--tool":
        f.tool = value();
        break;
      case "--input":
        f.input = value();
        break;
      case "--jsonl":
        f.jsonl = true;
        break;
      case "--json":
        f.json = true;
        break;
      case "--project":
        f.project = true;
        break;
      case "--trust-project":
        f.trustProject = true;
        break;
      case "--revoke":
        f.revoke = true;
        break;
      case "--print":
        f.print = true;
        break;
    }
    if (inline !== undefined && !command.options?.find((o) => o.flag === name)?.value) {
      throw new UsageError(`${written} takes no value`);
    }
  }
  const most = command.operands?.max ?? 0;
  if (f.rest.length > most) {
    throw new UsageError(
      most === 0
        ? `${command.name} takes no arguments (got ${JSON.stringify(f.rest[0])})`
        : `${command.name} takes at most ${most} argument${most === 1 ? "" : "s"}`,
    );
  }
  return f;
}

/** One option of a command: parsed by parseFlags (built-in commands), listed by --help. */
export interface OptionSpec {
  flag: string;
  alias?: string;
  /** The value's name, when it takes one (FILE, DIR, ...). */
  value?: string;
  text: string;
}

/** One subcommand: its help, the flags it takes, and how it runs. */
export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Its synopses, after `pi-controls <name> `. */
  usage: string[];
  options?: OptionSpec[];
  /** Its operands: what they are, how many it takes at most (none when absent). */
  operands?: { max: number; text?: string };
  /** What its exit status says. */
  exit: string;
  examples: string[];
  /** Run it with the arguments after its name (`--help` is answered before). */
  run(io: CliIo, args: string[]): number | Promise<number>;
}
