/**
 * Setting up a config from the command line: `pi-controls init` (write the starter config),
 * `validate` (every error as file:line:col) and `test` (run the config's own examples).
 *
 * @module
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { agentDirFrom, formatConfigError } from "./config.ts";
import { runConfigTests } from "./config_tests.ts";
import { STARTER_CONFIG } from "./starter.ts";
import { CliFailure, type CliIo, EXIT, fsReason } from "./cli_io.ts";
import type { Flags } from "./cli_flags.ts";
import { context, homeOf, load, parser, reportLoad } from "./cli_load.ts";

export function cmdValidate(io: CliIo, flags: Flags): number {
  const files = [...flags.configs, ...flags.rest];
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const loaded = load(io, { ...flags, configs: files }, cwd);
  if (loaded.status === "absent") {
    io.err("no config file found (looked for the global and the project config)\n");
    return EXIT.failure;
  }
  if (loaded.status === "error") {
    for (const e of loaded.errors) io.out(formatConfigError(e) + "\n");
    return EXIT.failure;
  }
  for (const w of loaded.warnings) io.out("warning: " + formatConfigError(w) + "\n");
  io.out(`ok: ${loaded.files.join(", ")}\n`);
  return EXIT.ok;
}

export async function cmdTest(io: CliIo, flags: Flags): Promise<number> {
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const loaded = load(io, flags, cwd);
  reportLoad(io, loaded);
  if (loaded.status !== "ok") return EXIT.failure;
  const results = runConfigTests(loaded.config, context(io, cwd), { parser: await parser() });
  for (const r of results) {
    const call = `${r.test.tool} ${JSON.stringify(r.test.input)}`;
    io.out(`${r.ok ? "ok  " : "FAIL"} ${call}: expected ${r.test.expect}, got ${r.actual}\n`);
  }
  const failed = results.filter((r) => !r.ok).length;
  io.out(`${results.length - failed} passed, ${failed} failed\n`);
  return failed ? EXIT.failure : EXIT.ok;
}

export function cmdInit(io: CliIo, flags: Flags): number {
  const home = homeOf(io);
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const target = flags.rest[0]
    ? resolve(io.cwd, flags.rest[0])
    : flags.project
    ? join(cwd, ".pi", "extensions", "pi-controls.jsonc")
    : join(agentDirFrom(io.env, home), "extensions", "pi-controls.jsonc");
  if (existsSync(target)) {
    io.err(
      `pi-controls: ${target} already exists; not touching it (remove it first to start over)\n`,
    );
    return EXIT.failure;
  }
  const tmp = `${target}.tmp-${process.pid}`;
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(tmp, STARTER_CONFIG, { flag: "wx" });
    renameSync(tmp, target);
  } catch (e) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing was written, or it cannot be removed either: the error below says where
    }
    throw new CliFailure(`cannot write the starter config to ${target}: ${fsReason(e)}`);
  }
  io.out(`wrote ${target}\nnext: pi-controls validate ${target} && pi-controls test\n`);
  return EXIT.ok;
}
