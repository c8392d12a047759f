/**
 * nodemon: the command it runs, from its options and its settings (lib/config/load.js, exec.js,
 * spawn.js). `--exec CMD` (`-x`), else the settings' `exec` (a string, or an array: the program
 * and its `execArgs`), else the `execMap` entry of the script's extension, else (no script named)
 * `package.json`'s `scripts.start`; with the settings' `execArgs`, `nodeArgs`, `script` and
 * `args` it is joined into one line `sh -c` runs (read as unquoted: the strictest reading;
 * `{{filename}}` is the script, `{{pwd}}` the cwd). Each of the settings' `events` (`start`,
 * `restart`, `crash`, `exit`, `config:update`, …) is a line `sh -c` runs, and their `env` is the
 * environment of what runs. The settings are `~/nodemon.json`, then the cwd's `nodemon.json`
 * (else `package.json`'s `nodemonConfig`) or the file `--config F` names, each read as it will be
 * when the command runs; one that cannot be (another stage may write it, a name or cwd not known)
 * is a command not known; one that does not parse stops nodemon. nodemon reads its options
 * anywhere before `--` (lib/cli/parse.js) and passes the words it does not know on; `--cwd DIR`
 * runs it there.
 *
 * @module
 */
import { isAbsolute, join } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { staticValue } from "./command_words.ts";
import type { Runner } from "./spec.ts";
import { chdir, literal, unknownWord } from "./words.ts";

const set = (...names: string[]): ReadonlySet<string> => new Set(names);

const NODEMON: OptionGrammar = {
  flags: "VqILCvh",
  valued: "xwideP",
  // deno-fmt-ignore
  longFlags: set("--verbose", "--quiet", "--no-stdin", "--legacy-watch", "--on-change-only",
    "--dump", "--version", "--help", "--spawn", "--no-colors", "--no-update-notifier"),
  // deno-fmt-ignore
  longValued: set("--exec", "--watch", "--ignore", "--delay", "--ext", "--polling-interval",
    "--signal", "--config", "--cwd"),
};

/** nodemon's settings, as JSON gives them. */
type Settings = Record<string, unknown>;

const isObject = (v: unknown): v is Settings =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * A settings file's object: {} where it is no object or does not parse (nodemon stops: nothing
 * runs), undefined where there is none; null when not known.
 */
function settingsAt(path: string | null, run: Runner): Settings | null | undefined {
  const text = path === null ? null : run.settings(path);
  if (text === null) return null;
  if (text === "") return undefined;
  try {
    const v = JSON.parse(text.replace(/^\uFEFF/, ""));
    return isObject(v) ? v : {};
  } catch {
    return {};
  }
}

/** A path from where nodemon runs (`--cwd DIR`): null where that is not known. */
function from(name: string, cwds: (string | null)[], stage: Stage): string | null {
  if (isAbsolute(name) || cwds === stage.cwds) return name;
  return cwds[0] === null || cwds.length !== 1 ? null : join(cwds[0], name);
}

/**
 * nodemon's settings merged (the cwd's over the home's): null when one cannot be known. `config`:
 * the file `--config` names.
 */
function nodemonSettings(
  run: Runner,
  stage: Stage,
  cwds: (string | null)[],
  config: Word | null,
): Settings | null {
  const home = run.home(null);
  const global = (home ? settingsAt(join(home, "nodemon.json"), run) : undefined) ?? {};
  const path = config
    ? (config.kind === "static" ? from(config.value, cwds, stage) : null)
    : from("nodemon.json", cwds, stage);
  let local = settingsAt(path, run);
  if (local === undefined && !config) {
    // (No nodemon.json: package.json's nodemonConfig.)
    const pkg = settingsAt(from("package.json", cwds, stage), run);
    local = pkg === null ? null : isObject(pkg?.nodemonConfig) ? pkg.nodemonConfig : {};
  }
  if (local === undefined) local = {};
  if (global === null || local === null) return null;
  const merged: Settings = { ...global, ...local };
  for (const key of ["events", "execMap", "env"]) {
    const [g, l] = [global[key], local[key]];
    if (isObject(g) && isObject(l)) merged[key] = { ...g, ...l };
  }
  return merged;
}

/** A setting's value as the text nodemon puts in a line (arrays joined by blanks). */
function text(v: unknown): string {
  if (Array.isArray(v)) return v.map(text).join(" ");
  return v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
}

/**
 * `package.json`'s `scripts.start`, which nodemon runs given neither script nor command ("" where
 * there is none; null where that is not known).
 */
function startScript(run: Runner, stage: Stage, cwds: (string | null)[]): string | null {
  const pkg = settingsAt(from("package.json", cwds, stage), run);
  if (pkg === null) return null;
  const start = isObject(pkg?.scripts) ? pkg.scripts.start : undefined;
  if (pkg?.main !== undefined || typeof start !== "string") return "";
  return start.split(" ").includes("nodemon") ? "" : start;
}

/** What nodemon runs: its command line, its settings' events and environment. */
export function nodemon(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const values = args.map(staticValue);
  let exec: Word | null = null;
  let config: Word | null = null;
  let cwds = stage.cwds;
  const taken = new Set<number>();
  let end = args.length;
  for (const t of readOptions(values, NODEMON)) {
    if (t.kind === "end") {
      end = t.at;
      break;
    }
    if (t.kind !== "valued" && t.kind !== "flag") continue;
    taken.add(t.at);
    if (t.kind === "flag") continue;
    if (t.valueAt !== undefined) taken.add(t.valueAt);
    const value = t.glued !== undefined
      ? literal(t.glued)
      : t.valueAt === undefined
      ? null
      : args[t.valueAt];
    if (value && (t.name === "-x" || t.name === "--exec")) exec = value;
    if (value && t.name === "--config") config = value;
    if (value && t.name === "--cwd") cwds = chdir(cwds, value);
  }
  const rest = args.filter((_, i) => i !== end && !taken.has(i));
  const script = rest.find((w) => w.kind !== "static" || !w.value.startsWith("-"));
  const s = nodemonSettings(run, stage, cwds, config);
  if (s === null) {
    run.stage([unknownWord("(the commands of nodemon's settings)")], "nodemon", cwds);
    if (!exec) return;
  }
  const settings = s ?? {};
  if (isObject(settings.env)) {
    run.environment(Object.entries(settings.env).map(([k, v]) => literal(`${k}=${text(v)}`)));
  }
  if (isObject(settings.events)) {
    for (const line of Object.values(settings.events)) {
      if (text(line)) run.shell(literal(text(line)), "nodemon event", { cwds });
    }
  }
  const scriptName = script?.value ?? text(settings.script);
  const ext = /\.([^./]+)$/.exec(scriptName)?.[1] ?? "";
  const map = isObject(settings.execMap) ? settings.execMap[ext] : undefined;
  const start = exec || script || settings.script ? "" : startScript(run, stage, cwds);
  if (start === null) {
    run.stage([unknownWord("(the start script of package.json)")], "nodemon", cwds);
  }
  const own = text(settings.exec) || text(map) || start || "";
  const added = [settings.execArgs, settings.nodeArgs, script ? "" : settings.script, settings.args]
    .map(text).filter(Boolean);
  if (!exec && !own && !added.length) return;
  const head = exec ?? literal(own || "node");
  const words = [head, ...added.map(literal), ...rest];
  const dynamic = words.some((w) => w.kind !== "static");
  const line = words.map((w) => w.value).join(" ").replaceAll("{{pwd}}", ".")
    .replaceAll("{{filename}}", scriptName);
  run.shell(
    { value: line, kind: dynamic ? "dynamic" : "static", prefix: "", text: line },
    "nodemon",
    {
      cwds,
    },
  );
}
