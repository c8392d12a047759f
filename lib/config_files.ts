/**
 * Where pi-controls config files are: the agent directory, discovery of the global and the
 * project file, the role of a file named with `--config`, and reading a file's text.
 *
 * @example
 * ```ts
 * const agentDir = agentDirFrom({ PI_CODING_AGENT_DIR: "~/agent" }, "/home/me");
 * discoverConfigFiles({ cwd: "/home/me/proj", agentDir }); // global first, then the project's
 * ```
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ConfigError } from "./types.ts";

/** Whether a config file is the global one or belongs to a project. */
export type Role = "global" | "project";

/** A config file found on disk, with the role and project root it gets. */
export interface ConfigFileRef {
  file: string;
  role: Role;
  root: string | null;
}

/** A config text in memory, with the role and project root it gets. */
export interface ConfigSource extends ConfigFileRef {
  text: string;
}

const CONFIG_NAMES = ["pi-controls.jsonc", "pi-controls.json"];

/** agentDir is $PI_CODING_AGENT_DIR (with ~ expanded) or ~/.pi/agent. */
export function agentDirFrom(env: Record<string, string | undefined>, home: string): string {
  const dir = env.PI_CODING_AGENT_DIR;
  if (dir === undefined || dir.trim() === "") return path.join(home, ".pi", "agent");
  return expandHome(dir, home);
}

/** The global file (<agentDir>/extensions/pi-controls.jsonc, else .json if only that exists) and the project file (walk up from cwd to the nearest <dir>/.pi/extensions/pi-controls.jsonc, else .json in that same dir), existing ones only, global first. */
export function discoverConfigFiles(
  opts: { cwd: string; agentDir: string },
): ConfigFileRef[] {
  const found: ConfigFileRef[] = [];
  const global = firstFile(path.resolve(opts.agentDir, "extensions"));
  if (global !== null) found.push({ file: global, role: "global", root: null });
  let dir = path.resolve(opts.cwd);
  while (true) {
    const project = firstFile(path.join(dir, ".pi", "extensions"));
    if (project !== null) {
      if (global === null || !sameFile(project, global)) {
        found.push({ file: project, role: "project", root: dir });
      }
      break;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return found;
}

function firstFile(dir: string): string | null {
  for (const name of CONFIG_NAMES) {
    const file = path.join(dir, name);
    if (isFile(file)) return file;
  }
  return null;
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

/** A path with a leading `~` or `~/` expanded to the home directory. */
export function expandHome(p: string, home: string): string {
  if (p === "~") return home;
  if (p.startsWith("~/")) return path.join(home, p.slice(2));
  return p;
}

/** The role and root of a file named explicitly (`--config`). */
export function explicitRef(
  f: string,
  opts: { cwd: string; agentDir: string; home: string },
): ConfigFileRef {
  const file = path.resolve(opts.cwd, expandHome(f, opts.home));
  const globalDir = path.resolve(opts.cwd, opts.agentDir, "extensions");
  if (CONFIG_NAMES.some((n) => path.join(globalDir, n) === file)) {
    return { file, role: "global", root: null };
  }
  const dir = path.dirname(file);
  if (path.basename(dir) === "extensions" && path.basename(path.dirname(dir)) === ".pi") {
    return { file, role: "project", root: path.dirname(path.dirname(dir)) };
  }
  return { file, role: "project", root: dir };
}

/** The text of a config file, or null with the reason (missing, not a file, unreadable) added to `errors`. */
export function readConfigText(file: string, errors: ConfigError[]): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (e) {
    const code = (e as { code?: string }).code;
    const message = code === "ENOENT" || code === "ENOTDIR"
      ? "config file does not exist"
      : `cannot read config file: ${e instanceof Error ? e.message : String(e)}`;
    errors.push({ file, line: 1, column: 1, message });
    return null;
  }
  if (!stat.isFile()) {
    errors.push({ file, line: 1, column: 1, message: "config path is not a regular file" });
    return null;
  }
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    errors.push({ file, line: 1, column: 1, message: `cannot read config file: ${reason}` });
    return null;
  }
}
