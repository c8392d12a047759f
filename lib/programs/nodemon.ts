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
 * anywhere before `--` (lib/cli/parse.js: these spellings only, `-s SIGNAL` taking a value) and
 * passes the words it does not know on; its script is the first word that is there (or `.`),
 * wherever it is, else the settings' `script`, `index.js`, package.json's `main` or the first word
 * with the extension `--ext` names: where that cannot be known, the execMap entry of each name it
 * may have runs. `--cwd DIR` runs it there.
 *
 * @module
 */
import { isAbsolute, join } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import type { Runner } from "./spec.ts";
import { chdir, literal, unknownWord } from "./words.ts";

const set = (...names: string[]): ReadonlySet<string> => new Set(names);

/**
 * nodemon's options (lib/cli/parse.js), in these spellings only (no `--opt=value`, no `-xVALUE`,
 * no clusters: those are passed on): those that take the next word, and those alone.
 */
// deno-fmt-ignore
const VALUED = set("--help", "-h", "-?", "--polling-interval", "-P", "--config", "--watch", "-w",
  "--ignore", "-i", "--delay", "-d", "--exec", "-x", "--ext", "-e", "--signal", "-s", "--cwd");
// deno-fmt-ignore
const FLAGS = set("--version", "-v", "--no-update-notifier", "--spawn", "--dump", "--verbose",
  "-V", "--legacy-watch", "-L", "--js", "--quiet", "-q", "--exitcrash", "--no-stdin", "-I",
  "--on-change-only", "-C", "--no-colours", "--no-colors");

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

/** What nodemon's words say (lib/cli/parse.js). */
interface NodemonArgs {
  exec: Word | null;
  config: Word | null;
  cwds: (string | null)[];
  /** The words it passes on (the script among them), in order. */
  rest: Word[];
  /** The words that may be the script: each one that may be there, up to one that surely is. */
  scripts: Word[];
  /** Whether one surely is (else nodemon may find none there: its other ways apply). */
  found: boolean;
  /** `--ext`'s value. */
  ext: string | null;
}

/**
 * Whether a word nodemon looks at is a file (or directory) there: "yes", or "maybe" (one not
 * known, an empty file: `Runner.settings` tells no empty file from none), or "no" for no word.
 */
function exists(w: Word, run: Runner, stage: Stage, cwds: (string | null)[]): "yes" | "maybe" {
  if (w.kind !== "static") return "maybe";
  if (w.value === ".") return "yes";
  const path = from(w.value, cwds, stage);
  const text = path === null ? null : run.settings(path);
  return text ? "yes" : "maybe";
}

/**
 * nodemon's words as parse.js reads them: until it has a script, a word that exists (or `.`) is
 * the script, wherever it is (after `--` too); else, before `--`, a word that is an option is
 * taken (with its value: the next word); any other word is passed on. A word not known where an
 * option may be is a command not known.
 */
function nodemonArgs(stage: Stage, run: Runner): NodemonArgs {
  const args = stage.argv.slice(1);
  const out: NodemonArgs = {
    exec: null,
    config: null,
    cwds: stage.cwds,
    rest: [],
    scripts: [],
    found: false,
    ext: null,
  };
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const v = w.kind === "static" ? w.value : null;
    const option = options && v !== null && (v === "--" || VALUED.has(v) || FLAGS.has(v));
    if (!out.found && !option) {
      // (A file named as an option is taken for the option.)
      out.found = v !== null && exists(w, run, stage, out.cwds) === "yes";
      out.scripts.push(w);
      if (out.found) {
        out.rest.push(w);
        continue;
      }
    }
    if (options && v === "--") options = false;
    else if (options && v !== null && FLAGS.has(v)) continue;
    else if (options && v !== null && VALUED.has(v)) {
      const value = args[++i];
      if (!value) continue;
      if (v === "-x" || v === "--exec") out.exec = value;
      if (v === "--config") out.config = value;
      if (v === "-e" || v === "--ext") out.ext = value.value;
      if (v === "--cwd") out.cwds = chdir(out.cwds, value);
    } else {
      if (options && w.kind !== "static" && (!w.prefix || w.prefix.startsWith("-"))) {
        run.stage([unknownWord(`(a nodemon option ${w.text})`)], "nodemon", out.cwds);
      }
      out.rest.push(w);
    }
  }
  return out;
}

/** A script's extension, as nodemon's execMap is looked up by (path.extname of its base name). */
const extension = (name: string) => /[^/]\.([^./]*)$/.exec(name.replace(/\/+$/, ""))?.[1] ?? "";

/**
 * The names nodemon's script may have: the words that may be it, and where none surely is, the
 * settings' `script`, `index.js`, package.json's `main`, and the first word passed on with the
 * extension `--ext` (or the settings' `ext`) names first (`app` for app.js); null for one not
 * known (any execMap entry may apply).
 */
function scriptNames(
  cli: NodemonArgs,
  settings: Settings,
  run: Runner,
  stage: Stage,
): (string | null)[] {
  const names: (string | null)[] = cli.scripts.map((w) => w.kind === "static" ? w.value : null);
  if (cli.found) return names;
  if (settings.script !== undefined) names.push(text(settings.script));
  names.push("index.js");
  const pkg = settingsAt(from("package.json", cli.cwds, stage), run);
  if (pkg === null) names.push(null);
  else if (pkg?.main !== undefined) names.push(text(pkg.main));
  const first = cli.rest.find((w) => !cli.scripts.includes(w));
  const ext = (cli.ext ?? text(settings.ext)).split(",")[0].replace(/^\./, "") || "js";
  if (first) names.push(first.kind === "static" ? `${first.value}.${ext}` : null);
  return [...new Set(names)];
}

/**
 * The commands nodemon may run its script with: `--exec`'s, else the settings' `exec`, else the
 * execMap entry of each name the script may have (every entry for one not known), `node`, and
 * package.json's start script where nodemon may find no script.
 */
function heads(
  cli: NodemonArgs,
  settings: Settings,
  names: (string | null)[],
  run: Runner,
  stage: Stage,
): Word[] {
  if (cli.exec) return [cli.exec];
  if (text(settings.exec)) return [literal(text(settings.exec))];
  const map = isObject(settings.execMap) ? settings.execMap : {};
  const out = new Set<string>(["node"]);
  for (const name of names) {
    const entries = name === null ? Object.values(map) : [map[extension(name)]];
    for (const e of entries) if (text(e)) out.add(text(e));
  }
  const start = cli.found || settings.script ? "" : startScript(run, stage, cli.cwds);
  if (start === null) {
    run.stage([unknownWord("(the start script of package.json)")], "nodemon", cli.cwds);
  }
  if (start) out.add(start);
  return [...out].map(literal);
}

/** What nodemon runs: its command line, its settings' events and environment. */
export function nodemon(stage: Stage, run: Runner): void {
  const cli = nodemonArgs(stage, run);
  const { exec, cwds, rest } = cli;
  const s = nodemonSettings(run, stage, cwds, cli.config);
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
  const names = scriptNames(cli, settings, run, stage);
  const added = [
    settings.execArgs,
    settings.nodeArgs,
    cli.found ? "" : settings.script,
    settings.args,
  ].map(text).filter(Boolean);
  for (const head of heads(cli, settings, names, run, stage)) {
    if (head.kind === "static" && head.value === "node" && !added.length) continue;
    const words = [head, ...added.map(literal), ...rest];
    const dynamic = words.some((w) => w.kind !== "static");
    const line = words.map((w) => w.value).join(" ").replaceAll("{{pwd}}", ".");
    // (`{{filename}}` is the script: each name it may have.)
    const files = line.includes("{{filename}}") ? names : [""];
    for (const name of files) {
      const value = line.replaceAll("{{filename}}", name ?? "");
      const word: Word = name === null
        ? unknownWord(`(nodemon's script in ${line})`)
        : { value, kind: dynamic ? "dynamic" : "static", prefix: "", text: value };
      run.shell(word, "nodemon", { cwds });
    }
  }
}
