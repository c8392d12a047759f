/**
 * The pi-controls CLI: check, explain, validate, test, replay, init, trust and suggest, over the
 * same engine the extension uses. Run with `deno task pi-controls <command>`;
 * `pi-controls <command> --help` says what each takes. The exit statuses are EXIT. The commands
 * live in `cli_commands.ts` (the table) and one module per command family.
 *
 * @example
 * ```ts
 * const args = ["check", "--tool", "bash", "--input", '{"command":"ls"}'];
 * const status = await main(args, processIo());
 * ```
 *
 * @module
 */
import process from "node:process";
import { cliVersion } from "./cli_assets.ts";
import { CliFailure, type CliIo, describeError, EXIT, processIo, UsageError } from "./cli_io.ts";
import type { Command } from "./cli_flags.ts";
import { commandHelp, commandNamed, usage } from "./cli_commands.ts";

const isHelp = (a: string) => a === "--help" || a === "-h";

export { type CliIo, describeError, EXIT, exitFor, processIo } from "./cli_io.ts";

/** Run the CLI; returns the exit status. Never throws: a failure is one line on stderr. */
export async function main(args: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = args;
  let command: Command | undefined;
  try {
    if (name === undefined) {
      io.err(usage());
      return EXIT.usage;
    }
    if (isHelp(name)) {
      io.out(usage());
      return EXIT.ok;
    }
    if (name === "--version" || name === "-V") {
      io.out(`pi-controls ${cliVersion()}\n`);
      return EXIT.ok;
    }
    if (name === "help") {
      const topic = rest[0] === undefined ? undefined : commandNamed(rest[0]);
      if (rest[0] !== undefined && !topic) throw new UsageError(`unknown command "${rest[0]}"`);
      io.out(topic ? commandHelp(topic) : usage());
      return EXIT.ok;
    }
    command = commandNamed(name);
    if (!command) {
      throw new UsageError(
        name.startsWith("-") ? `unknown option ${name}` : `unknown command "${name}"`,
      );
    }
    if (rest.some(isHelp)) {
      io.out(commandHelp(command));
      return EXIT.ok;
    }
    return await command.run(io, rest);
  } catch (e) {
    if (e instanceof UsageError) {
      const help = command ? `pi-controls ${command.name} --help` : "pi-controls --help";
      io.err(`pi-controls: ${e.message} (see ${help})\n`);
      return EXIT.usage;
    }
    if (io.env.PI_CONTROLS_DEBUG && e instanceof Error && e.stack) io.err(e.stack + "\n");
    io.err(`pi-controls: ${e instanceof CliFailure ? e.message : describeError(e)}\n`);
    return EXIT.failure;
  }
}

/**
 * Run the CLI as this process (every entry point: `deno task pi-controls`, the Node bundle, the
 * compiled binary): the exit status set, and whatever escapes `main` one line on stderr.
 */
export async function runCli(): Promise<void> {
  const fatal = (e: unknown) => {
    process.stderr.write(`pi-controls: ${describeError(e)}\n`);
    process.exit(EXIT.failure);
  };
  process.on("uncaughtException", fatal);
  process.on("unhandledRejection", fatal);
  let io: CliIo;
  try {
    io = processIo();
  } catch (e) {
    // e.g. the current directory was removed
    return fatal(e);
  }
  process.exitCode = await main(process.argv.slice(2), io);
}

if (import.meta.main) await runCli();
