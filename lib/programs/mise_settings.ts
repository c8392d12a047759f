/**
 * What mise runs from the project's config files (`mise.toml`, `.mise.toml`, `mise.local.toml`,
 * `.config/mise.toml`, `.config/mise/config.toml`, `.mise/config.toml`, … and `mise.$MISE_ENV.toml`,
 * in the cwd and the directories above it short of the home directory, whose are the user's): the
 * commands of its templates (`{{ exec(command="…") }}`), `[env]`'s `_.source` scripts (run by
 * bash) and `_.file` files (read), for any subcommand that loads its environment; `[hooks]`'
 * `preinstall`/`postinstall` for those that may install (`install`, `exec`, `run`, `use`, …) and
 * `enter`/`leave`/`cd` for `hook-env`; and for `mise run TASK` (`mise TASK`, `mise r`, `mise tasks
 * run`) the task's `run` lines, `file` and the tasks it depends on, or its file task
 * (`mise-tasks/TASK`, `.mise/tasks/TASK`, …). Whether mise trusts a file is not read: a file is
 * taken as loaded. A file that cannot be read as TOML, or known (another stage may write it), is a
 * command not known.
 *
 * @module
 */
import { join } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import { shellQuote } from "../shell/words.ts";
import type { Runner } from "./spec.ts";
import { tomlDocument, type TomlValue } from "./toml.ts";
import { literal, opensFile, unknownWord } from "./words.ts";

/** The names of mise's config files in a directory, in the order it reads them. */
const NAMES = [
  ".config/mise/conf.d/config.toml",
  ".config/mise/config.toml",
  ".config/mise/mise.toml",
  ".config/mise.toml",
  ".mise/config.toml",
  "mise/config.toml",
  ".rtx.toml",
  "mise.toml",
  ".mise.toml",
  ".config/mise/config.local.toml",
  "mise.local.toml",
  ".mise.local.toml",
];

/** The directories mise's file tasks are in (below a config's directory). */
const TASK_DIRS = ["mise-tasks", ".mise-tasks", "mise/tasks", ".mise/tasks", ".config/mise/tasks"];

/** Subcommands that load no environment and run nothing of the config's. */
const QUIET =
  /^(version|help|trust|untrust|completion|self-update|activate|implode|--version|--help|-h|-V)$/;
/** Subcommands that may install tools (and so run the install hooks). */
const INSTALLS = /^(install|i|exec|x|run|r|use|u|upgrade|up|watch|w|tasks|tool-stub)$/;

/** mise's global options that take the next word. */
const VALUED = new Set(["-C", "--cd", "-E", "--env", "-j", "--jobs", "--log-level"]);

type Table = { [key: string]: TomlValue };
const isTable = (v: TomlValue | undefined): v is Table =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A config file read: where it is and what it holds. */
interface Found {
  dir: string;
  doc: Table;
}

/** Where what mise runs from its config cannot be known. */
function notKnown(what: string, run: Runner): void {
  run.stage([unknownWord(`(what mise runs from ${what})`)], "mise's config");
}

/** The commands of a text's templates (`{{ exec(command="…") }}`); false where one is not known. */
function templateCommands(text: string, dir: string, run: Runner): boolean {
  if (!/exec\s*\(/.test(text)) return true;
  const re = /exec\s*\(\s*command\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/g;
  const found = [...text.matchAll(re)];
  if (found.length < (text.match(/exec\s*\(/g) ?? []).length) return false;
  for (const m of found) {
    const command = m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : m[2];
    run.at([dir]).shell(literal(command), "mise's template");
  }
  return true;
}

/** Each string of a value (a string, or the strings of an array or a table's `key`). */
function strings(v: TomlValue | undefined, key: string): string[] | null {
  if (v === undefined) return [];
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) {
    const out: string[] = [];
    for (const x of v) {
      const s = strings(x, key);
      if (s === null) return null;
      out.push(...s);
    }
    return out;
  }
  if (isTable(v)) return strings(v[key], key);
  return null;
}

/** `[env]`'s `_.source` scripts and `_.file` files. */
function envDirectives(found: Found, run: Runner): void {
  const env = found.doc.env;
  const directives = isTable(env) && isTable(env._) ? env._ : {};
  for (const [key, how] of [["source", "source"], ["file", "file"]] as const) {
    const paths = strings(directives[key], "path");
    if (paths === null) return notKnown(`its env._.${key}`, run);
    for (const p of paths) {
      if (/\{\{|\{%/.test(p)) {
        notKnown(`its env._.${key} ${p}`, run);
        continue;
      }
      const path = p.startsWith("/") || p.startsWith("~") ? p : join(found.dir, p);
      if (how === "source") {
        run.at([found.dir]).shell(literal(`. ${shellQuote(path)}`), "mise's env._.source");
      } else opensFile(path, run, "mise's env._.file");
    }
  }
}

/** `[hooks]` of these names: shell text, or a task. */
function hooks(found: Found, names: RegExp, run: Runner, all: Found[]): void {
  const h = found.doc.hooks;
  if (!isTable(h)) return;
  for (const [name, value] of Object.entries(h)) {
    if (!names.test(name)) continue;
    const list = Array.isArray(value) ? value : [value];
    for (const v of list) {
      if (isTable(v) && typeof v.task === "string") task(v.task, all, run, new Set());
      else {
        const lines = strings(v, "script");
        if (lines === null) notKnown(`its hook ${name}`, run);
        for (const l of lines ?? []) run.at([found.dir]).shell(literal(l), `mise's hook ${name}`);
      }
    }
  }
}

/** What a task runs: its `run` lines, `file`, the tasks it depends on, or its file task. */
function task(name: string, all: Found[], run: Runner, seen: Set<string>): void {
  if (seen.has(name) || seen.size > 32) return;
  seen.add(name);
  const glob = /[*?[]/.test(name);
  let matched = false;
  for (const f of all) {
    const tasks = f.doc.tasks;
    if (!isTable(tasks)) continue;
    for (const [key, t] of Object.entries(tasks)) {
      if (glob ? !globMatch(name, key) : key !== name) continue;
      matched = true;
      taskBody(key, t, f, all, run, seen);
    }
  }
  if (matched || glob) return;
  // (A file task: an executable below one of the task directories, `:` for `/`.)
  for (const f of all) {
    for (const dir of TASK_DIRS) {
      const path = join(f.dir, dir, name.replaceAll(":", "/"));
      const text = run.settings(path);
      if (text === null) notKnown(`its task ${name}`, run);
      else if (text) run.at([f.dir]).stage([literal(path)], `mise's task ${name}`);
    }
  }
}

/** Whether a task's name matches a `mise run` glob (`lint:*`). */
function globMatch(glob: string, name: string): boolean {
  const re = glob.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${re}$`).test(name);
}

/** The lines, file and dependencies of one task of a config. */
function taskBody(
  name: string,
  t: TomlValue,
  f: Found,
  all: Found[],
  run: Runner,
  seen: Set<string>,
): void {
  const body: Table = isTable(t) ? t : { run: t };
  const dir = typeof body.dir === "string" && !body.dir.includes("{{")
    ? join(f.dir, body.dir)
    : typeof body.dir === "string"
    ? null
    : f.dir;
  const lines = Array.isArray(body.run) ? body.run : body.run === undefined ? [] : [body.run];
  for (const l of lines) {
    if (typeof l === "string") run.at([dir]).shell(literal(l), `mise's task ${name}`);
    else if (isTable(l) && typeof l.task === "string") task(l.task, all, run, seen);
    else notKnown(`its task ${name}`, run);
  }
  if (typeof body.file === "string") {
    run.at([dir]).stage([literal(join(f.dir, body.file))], `mise's task ${name}`);
  }
  for (const key of ["depends", "depends_post", "wait_for"]) {
    const deps = strings(body[key], "task");
    if (deps === null) notKnown(`its task ${name}'s ${key}`, run);
    for (const d of deps ?? []) task(d.trim().split(/\s+/)[0], all, run, seen);
  }
}

/** The subcommand's index in `args` (after mise's global options), or -1. */
function subcommandAt(args: Word[]): number {
  for (let i = 0; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : args[i].prefix;
    if (VALUED.has(v)) i++;
    else if (!v.startsWith("-") || v === "-") return i;
    else if (v === "--") return i + 1 < args.length ? i + 1 : -1;
  }
  return -1;
}

/** The config files mise reads from `cwds` (see the module's notes); null: not known. */
function configFiles(stage: Stage, cwds: readonly (string | null)[], run: Runner): Found[] | null {
  const assigned = stage.assignments?.findLast((w) => w.value.startsWith("MISE_ENV="));
  const env = assigned
    ? (assigned.kind === "static" ? assigned.value.slice("MISE_ENV=".length) : null)
    : run.variable("MISE_ENV");
  if (env === null) return null;
  const names = [...NAMES];
  for (const e of (env ?? "").split(",").filter(Boolean)) {
    names.push(`mise.${e}.toml`, `.mise.${e}.toml`, `mise.${e}.local.toml`);
  }
  const out: Found[] = [];
  for (const name of names) {
    const found = run.projectSettings(name, cwds);
    if (found === null) return null;
    for (const f of found) {
      const doc = tomlDocument(f.text);
      if (doc === null || !templateCommands(f.text, f.dir, run)) {
        notKnown(join(f.dir, name), run);
        continue;
      }
      out.push({ dir: f.dir, doc });
    }
  }
  return out;
}

/** What mise runs from the project's config for a `mise` stage in `cwds`. */
export function miseSettings(stage: Stage, run: Runner, cwds: readonly (string | null)[]): void {
  const args = stage.argv.slice(1);
  const at = subcommandAt(args);
  const word = at < 0 ? literal("") : args[at];
  const sub = word.kind === "static" ? word.value : null;
  if (sub !== null && sub !== "" && QUIET.test(sub)) return;
  if (args.some((w) => /^(--version|--help|-h|-V)$/.test(w.value))) return;
  const all = configFiles(stage, cwds, run);
  if (all === null) return notKnown("its config files", run);
  if (!all.length) return;
  for (const f of all) envDirectives(f, run);
  for (const f of all) {
    if (sub === null || INSTALLS.test(sub)) hooks(f, /^(preinstall|postinstall)$/, run, all);
    if (sub === null || sub === "hook-env") hooks(f, /^(enter|leave|cd)$/, run, all);
  }
  tasksRun(sub, args, at, all, run);
}

/** The tasks `mise run` (or `mise TASK`) runs. */
function tasksRun(sub: string | null, args: Word[], at: number, all: Found[], run: Runner): void {
  if (sub === null) return notKnown("the task it runs", run);
  let from: number;
  if (sub === "run" || sub === "r") from = at + 1;
  else if (sub === "tasks" && args[at + 1]?.value === "run") from = at + 2;
  else if (sub === "watch" || sub === "w") from = at + 1;
  else if (/^[a-z]/.test(sub) && !KNOWN.test(sub)) from = at;
  else return;
  const names: string[] = [];
  let next = true;
  for (let i = from; i < args.length; i++) {
    const w = args[i];
    if (w.kind !== "static") return notKnown("the task it runs", run);
    if (w.value === ":::") next = true;
    else if (w.value === "--") break;
    else if (next && !w.value.startsWith("-")) {
      names.push(w.value);
      next = false;
    }
  }
  if (!names.length) names.push("default");
  for (const n of names) task(n, all, run, new Set());
}

/** mise's subcommands (a word that is none of them is a task's name). */
const KNOWN = new RegExp(
  "^(activate|alias|a|backends|b|bin-paths|cache|completion|config|cfg|deactivate|doctor|dr|" +
    "en|env|e|exec|x|fmt|generate|gen|hook-env|hook-not-found|implode|install|i|" +
    "install-into|latest|link|ln|lock|ls|list|ls-remote|mcp|outdated|plugins|p|prune|registry|" +
    "reshim|run|r|search|self-update|set|settings|shell|sh|sync|tasks|t|test-tool|tool|" +
    "tool-stub|trust|uninstall|unset|unuse|rm|remove|upgrade|up|use|u|version|v|watch|w|where|" +
    "which|help)$",
);
