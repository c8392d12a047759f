/**
 * The files docker compose reads its project from (`compose.yaml`, `compose.yml`,
 * `docker-compose.yml`, `docker-compose.yaml` and their `.override` files in the cwd or the nearest
 * directory above it; `-f F` repeated, `-f -`, `COMPOSE_FILE`; `--project-directory`), and what
 * they name on this machine, judged as `docker run` judges its mounts and files: each bind mount's
 * source (`./data:/data`, `type: bind` with `source:`, a volume whose `driver_opts` `device` binds
 * a path), each `env_file` and `label_file`, the files of `secrets:` and `configs:`, a build's
 * `context`, `dockerfile` and `additional_contexts` outside the project (within it, what `docker
 * build .` reads of it is the everyday build), its `ssh` keys, `develop.watch` paths; the files
 * `include:` and `extends: file:` bring in are read in turn, and a `provider`'s type runs as a
 * program here. Paths are interpolated as compose does (`${VAR}`, `${VAR:-default}`, `$$`) from
 * the command's variables, the environment and the project's `.env` (or `--env-file`, read for
 * its values only: not judged), `~` is the home directory, and a relative path is from the
 * project directory (the first file's directory, or `--project-directory`; an included or
 * extended file's own). A file that cannot be read as it will be when the command runs (another
 * stage writes it first, a name not known) or read here (`yaml_reader.ts`), or a value not known,
 * is a file not known.
 *
 * @module
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { Runner } from "./spec.ts";
import { literal, opensFile, standardInput, unknownWord } from "./words.ts";
import { readYamlDocuments, type Yaml } from "./yaml_reader.ts";

/** docker compose's options before its subcommand that take a value. */
export const COMPOSE_GLOBAL: OptionGrammar = {
  valued: "fp",
  longFlags: new Set(["--compatibility", "--dry-run", "--help", "--all-resources"]),
  longValued: new Set([
    "--ansi",
    "--env-file",
    "--file",
    "--parallel",
    "--profile",
    "--progress",
    "--project-directory",
    "--project-name",
    "--workdir",
  ]),
};

const ORIGIN = "docker compose";
/** The files compose looks for, in its order, and the files it adds beside the one it finds. */
const DEFAULT_FILES = ["compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml"];
const OVERRIDE_FILES = DEFAULT_FILES.map((f) => f.replace(/\.(ya?ml)$/, ".override.$1"));
/** Subcommands that read no project. */
const NO_PROJECT = /^(version|ls|help)$/;
/** How deep `include:` and `extends:` are followed. */
const DEPTH = 6;

/** A variable's value: a string, undefined where it is not set, null where it is not known. */
type Lookup = (name: string) => string | null | undefined;

/**
 * The `KEY=value` lines of an env file (a value null: built from others, not read here); null for
 * a text with a lone CR (whose lines compose's reader may cut otherwise).
 */
function dotenv(text: string): Map<string, string | null> | null {
  if (/\r(?!\n)/.test(text)) return null;
  const out = new Map<string, string | null>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    let value: string | null = m[2];
    const q = /^(["'])(.*)\1$/.exec(value);
    if (q) value = q[1] === "'" ? q[2] : q[2].includes("$") || q[2].includes("\\") ? null : q[2];
    else if (value.includes("$")) value = null;
    else value = value.replace(/\s+#.*$/, "");
    out.set(m[1], value);
  }
  return out;
}

/** A value as compose interpolates it (null: a variable in it is not known). */
export function interpolate(text: string, vars: Lookup): string | null {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== "$") {
      out += c;
      continue;
    }
    const next = text[i + 1];
    if (next === "$") {
      out += "$";
      i++;
      continue;
    }
    const bare = /^[A-Za-z_]\w*/.exec(text.slice(i + 1));
    if (bare) {
      const v = vars(bare[0]);
      if (v === null) return null;
      out += v ?? "";
      i += bare[0].length;
      continue;
    }
    if (next !== "{") {
      out += c;
      continue;
    }
    // `${…}` to its matching brace (a default may hold another).
    let depth = 0;
    let end = i + 1;
    for (; end < text.length; end++) {
      if (text[end] === "{") depth++;
      else if (text[end] === "}" && --depth === 0) break;
    }
    if (end >= text.length) return null;
    const inner = text.slice(i + 2, end);
    const m = /^([A-Za-z_]\w*)(?:(:?)([-?+])([\s\S]*))?$/.exec(inner);
    if (!m) return null;
    const v = vars(m[1]);
    if (v === null) return null;
    const set = m[2] === ":" ? !!v : v !== undefined;
    let value: string | null = v ?? "";
    if (m[3] === "-" && !set) value = interpolate(m[4], vars);
    else if (m[3] === "+") value = set ? interpolate(m[4], vars) : "";
    if (value === null) return null;
    out += value;
    i = end;
  }
  return out;
}

/** A value interpolated from a variable not known (it holds a NUL, which no path can). */
const NOT_KNOWN = "\0(a value not known)";

/** A document with every value interpolated, as compose does before it reads the model. */
function interpolated(v: Yaml, vars: Lookup): Yaml {
  if (typeof v === "string") return interpolate(v, vars) ?? NOT_KNOWN;
  if (Array.isArray(v)) return v.map((e) => interpolated(e, vars));
  if (v === null) return v;
  const out: { [key: string]: Yaml } = {};
  for (const [k, e] of Object.entries(v)) out[k] = interpolated(e, vars);
  return out;
}

/** The env files a run of compose reads for their values (`config` may print them). */
interface EnvFiles {
  loaded: Set<string>;
  used: Set<string>;
}

/** What one run of compose reads: its variables, and how it reports a file. */
class Project {
  constructor(
    readonly run: Runner,
    readonly vars: Lookup,
    /** The env files read for their values: those there, and those a value was taken from. */
    readonly envs: EnvFiles,
    /** The places it opens, judged together as one stage's (`flush`). */
    readonly opened: string[] = [],
  ) {}

  /** The places opened: one stage of them all, so none is taken to change what another reads. */
  flush(): void {
    const home = this.run.home(null);
    const paths = this.opened.map((p) =>
      home !== null && (p === "~" || p.startsWith("~/")) ? home + p.slice(1) : p
    );
    const tilde = paths.filter((p) => p === "~" || p.startsWith("~/"));
    for (const p of tilde) opensFile(p, this.run, ORIGIN);
    const rest = [...new Set(paths.filter((p) => !tilde.includes(p)))];
    if (rest.length) this.run.stage([literal(`(${ORIGIN} opens)`), ...rest.map(literal)], ORIGIN);
  }

  unknown(what: string): void {
    this.run.stage([unknownWord(`(${what})`)], ORIGIN);
  }

  /** A path a file names (interpolated already; from `base`), or null (reported not known). */
  path(value: Yaml | undefined, base: string): string | null {
    if (typeof value !== "string" || value === NOT_KNOWN) {
      if (value !== null && value !== undefined) this.unknown(`a path a compose file names`);
      return null;
    }
    return place(value, base);
  }

  /** A file or directory compose reads or mounts. */
  opens(value: Yaml, base: string): void {
    const p = this.path(value, base);
    if (p !== null) this.opened.push(p);
  }

  /** A place the build reads where it is outside the project (`project`). */
  buildReads(value: Yaml, base: string, project: string): void {
    const p = this.path(value, base);
    if (p === null || /^[a-z][\w+.-]*:\/\//i.test(p) || /^(git@|github\.com\/)/.test(p)) return;
    if (p === project || p.startsWith(project.replace(/\/*$/, "/"))) return;
    this.opened.push(p);
  }

  /** The text of a file compose reads (absolute), or null (reported not known). */
  text(path: string): string | null {
    const text = this.run.settings(path);
    if (text === null) this.unknown(`the compose file ${path}`);
    return text;
  }

  /** A compose file's text (each of its documents), relative paths from `base`. */
  file(text: string, base: string, depth: number): void {
    const docs = readYamlDocuments(text);
    if (docs === undefined) return this.unknown(`what the compose file in ${base} names`);
    for (const doc of docs) {
      if (doc === null) continue;
      if (typeof doc !== "object" || Array.isArray(doc)) {
        return this.unknown(`what the compose file in ${base} names`);
      }
      this.document(interpolated(doc, this.vars) as { [key: string]: Yaml }, base, depth);
    }
  }

  /** One document of a compose file, its values interpolated. */
  document(doc: { [key: string]: Yaml }, base: string, depth: number): void {
    for (const s of Object.values(mapping(doc.services))) {
      if (s && typeof s === "object" && !Array.isArray(s)) this.service(s, base, depth);
    }
    const volumes = mapping(doc.volumes);
    for (const v of Object.values(volumes)) {
      // (A volume of the local driver whose device is a path binds it.)
      const device = mapping(mapping(v).driver_opts).device;
      if (device !== undefined) this.opens(device, base);
    }
    for (const key of ["secrets", "configs"]) {
      for (const v of Object.values(mapping(doc[key]))) {
        const file = mapping(v).file;
        if (file !== undefined) this.opens(file, base);
      }
    }
    for (const inc of list(doc.include)) this.include(inc, base, depth);
  }

  /** One service: its mounts, env files, build and the service it extends. */
  service(s: { [key: string]: Yaml }, base: string, depth: number): void {
    for (const v of list(s.volumes)) {
      if (typeof v === "string") {
        const source = v === NOT_KNOWN ? null : v;
        if (source === null) this.unknown(`a mount`);
        // (`SRC:DST[:MODE]`: a path when it starts as one; else a named volume, or `DST` alone.)
        else if (source.includes(":") && /^[./~]/.test(source)) {
          const p = place(source.slice(0, source.indexOf(":")), base);
          if (p !== null) this.opened.push(p);
        }
      } else {
        const m = mapping(v);
        // (A type not known may be `bind`.)
        const bind = m.type === "bind" || m.type === NOT_KNOWN;
        if (bind || (m.type === undefined && typeof m.source === "string")) {
          const src = m.source === NOT_KNOWN ? null : m.source;
          if (src === null) this.unknown(`a mount's source`);
          else if (typeof src !== "string") this.unknown(`a mount's source`);
          else if (bind || /^[./~]/.test(src)) {
            const p = place(src, base);
            if (p !== null) this.opened.push(p);
          }
        }
      }
    }
    for (const key of ["env_file", "label_file"]) {
      for (const f of list(s[key])) this.opens(typeof f === "string" ? f : mapping(f).path, base);
    }
    this.build(s.build, base);
    for (const w of list(mapping(s.develop).watch)) this.opens(mapping(w).path, base);
    const provider = mapping(s.provider).type;
    if (provider === NOT_KNOWN) this.unknown("a provider's program");
    else if (typeof provider === "string") {
      this.run.stage([literal(provider), literal("(its arguments)")], ORIGIN);
    }
    const ext = s.extends;
    if (ext && typeof ext === "object" && !Array.isArray(ext) && ext.file !== undefined) {
      const p = this.path(ext.file, base);
      if (p === null) return;
      if (depth >= DEPTH) return this.unknown(`the compose file ${p}`);
      const text = this.text(p);
      if (text) this.file(text, dirname(p), depth + 1);
    }
  }

  /** A service's `build`: the places it reads outside the project, and its ssh keys. */
  build(b: Yaml, base: string): void {
    if (b === undefined || b === null) return;
    if (typeof b === "string") return this.buildReads(b, base, base);
    const m = mapping(b);
    const context = m.context === undefined ? base : this.path(m.context, base);
    if (context === null) return;
    this.buildReads(context, base, base);
    if (m.dockerfile !== undefined) this.buildReads(m.dockerfile, context, base);
    const extra = m.additional_contexts;
    const contexts = Array.isArray(extra)
      ? extra.map((e) => (typeof e === "string" ? e.slice(e.indexOf("=") + 1) : e))
      : Object.values(mapping(extra));
    for (const c of contexts) this.buildReads(c, base, base);
    // (`ssh: [default=/path/key]`, `ssh: {id: /path}`: keys the build reaches.)
    const ssh = Array.isArray(m.ssh)
      ? m.ssh.map((e) =>
        e === NOT_KNOWN
          ? e
          : typeof e === "string" && e.includes("=")
          ? e.slice(e.indexOf("=") + 1)
          : null
      )
      : Object.values(mapping(m.ssh));
    for (const k of ssh) if (k !== null && k !== "default") this.opens(k, base);
  }

  /**
   * An `include:` entry: its files read in turn, interpolated from its env files (judged), else
   * from its project directory's `.env` (read for its values).
   */
  include(inc: Yaml, base: string, depth: number): void {
    const m = typeof inc === "string" ? { path: inc } : mapping(inc);
    const paths = list(m.path).map((f) => this.path(f, base));
    const dir = m.project_directory === undefined
      ? paths[0] ? dirname(paths[0]) : null
      : this.path(m.project_directory, base);
    const envFiles = list(m.env_file).filter((f) => f !== "/dev/null");
    for (const f of envFiles) this.opens(f, base);
    const vars = this.withEnvFiles(
      envFiles.length ? envFiles : dir === null ? [] : [join(dir, ".env")],
      base,
    );
    if (vars === null || dir === null) return;
    for (const p of paths) {
      if (p === null) continue;
      if (depth >= DEPTH) return this.unknown(`the compose file ${p}`);
      const text = this.text(p);
      if (text) new Project(this.run, vars, this.envs, this.opened).file(text, dir, depth + 1);
    }
  }

  /** These variables with the values env files give where none is set (null: not known). */
  withEnvFiles(files: Yaml[], base: string): Lookup | null {
    const read = files.map((f) => {
      const p = this.path(f, base);
      const text = p === null
        ? null
        : this.run.settings(p.replace(/^~(?=\/|$)/, this.run.home(null) ?? "~"));
      if (p !== null && text !== "") this.envs.loaded.add(p);
      return { path: p ?? "", map: text === null ? null : dotenv(text) };
    });
    if (read.some((r) => r.map === null)) {
      this.unknown("the values of a compose file's env_file");
      return null;
    }
    return (name) => {
      const v = this.vars(name);
      if (v !== undefined) return v;
      for (const r of read) {
        if (!r.map!.has(name)) continue;
        this.envs.used.add(r.path);
        return r.map!.get(name);
      }
      return undefined;
    };
  }
}

/** A path interpolated already, from `base` (`~` kept; "" none). */
function place(v: string, base: string): string | null {
  if (!v) return null;
  return v === "~" || v.startsWith("~/") || isAbsolute(v) ? v : resolve(base, v);
}

/** A YAML mapping's entries (none for anything else). */
function mapping(v: Yaml | undefined): { [key: string]: Yaml } {
  return v && typeof v === "object" && !Array.isArray(v) ? v : {};
}

/** A YAML value as a list (a scalar or mapping alone is one). */
function list(v: Yaml | undefined): Yaml[] {
  return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
}

/** The variables of a stage's command: its assignments, then the environment (null: not known). */
function stageVars(stage: Stage, run: Runner): Lookup {
  const assigned = new Map<string, string | null>();
  for (const w of stage.assignments ?? []) {
    const m = /^(\w+)=/.exec(w.kind === "static" ? w.value : w.prefix);
    if (m) assigned.set(m[1], w.kind === "static" ? w.value.slice(m[0].length) : null);
  }
  return (name) => {
    if (assigned.has(name)) return assigned.get(name);
    if (stage.unknownVars?.has(name)) return null;
    return run.variable(name);
  };
}

/** What compose's options before its subcommand (at `from`) say. */
interface Globals {
  files: Word[];
  envFiles: Word[];
  projectDir: Word | null;
  subcommand: string | null;
  /** The subcommand's words. */
  rest: Word[];
}

function globals(args: Word[], from: number): Globals {
  const out: Globals = { files: [], envFiles: [], projectDir: null, subcommand: null, rest: [] };
  const values = args.slice(from).map((w) => (w.kind === "static" ? w.value : null));
  for (const t of readOptions(values, COMPOSE_GLOBAL)) {
    if (t.kind === "operand") {
      out.subcommand = values[t.at];
      out.rest = args.slice(from + t.at + 1);
      break;
    }
    if (t.kind === "dynamic") {
      out.subcommand = "";
      break;
    }
    if (t.kind !== "valued") continue;
    const word = t.glued !== undefined
      ? literal(t.glued)
      : t.valueAt !== undefined
      ? args[from + t.valueAt]
      : undefined;
    if (!word) continue;
    if (t.name === "-f" || t.name === "--file") out.files.push(word);
    else if (t.name === "--env-file") out.envFiles.push(word);
    else if (t.name === "--project-directory" || t.name === "--workdir") out.projectDir = word;
  }
  return out;
}

/** The env files read for their values, in order, each with its `KEY=value`s (null: not known). */
type DotEnvs = { path: string; map: Map<string, string | null> | null }[];

/**
 * `docker compose …` (`args` from `from`, after `compose`; `docker-compose …` from its first
 * word): what its compose files name on this machine, judged (see the module). The values come
 * from `--env-file` (or `COMPOSE_ENV_FILES`), else the `.env` of the project directory as compose
 * takes it before it finds its files (`--project-directory`, the first `-f` file's directory, the
 * cwd) and after (the first file's directory: a `COMPOSE_FILE`'s, one found above the cwd).
 * `config` (`convert`) prints what it read: the env files (with `--environment`, or those a value
 * was interpolated from) are judged as read.
 */
export function composeFileRuns(stage: Stage, run: Runner, args: Word[], from: number): void {
  const g = globals(args, from);
  if (g.subcommand === null || NO_PROJECT.test(g.subcommand)) return;
  const unknown = (what: string) => run.stage([unknownWord(`(${what})`)], ORIGIN);
  const cwd = stage.cwds.length === 1 ? stage.cwds[0] : null;
  const words = [...g.files, ...g.envFiles, ...(g.projectDir ? [g.projectDir] : [])];
  if (cwd === null || g.subcommand === "" || words.some((w) => w.kind !== "static")) {
    return unknown("the compose files it reads");
  }
  const home = run.home(null) ?? "~";
  const here = (p: string) => resolve(cwd, p.replace(/^~(?=\/|$)/, home));
  const projectDir = g.projectDir ? here(g.projectDir.value) : null;
  const vars = stageVars(stage, run);
  const envs: EnvFiles = { loaded: new Set(), used: new Set() };
  // The values of `.env` (or `--env-file`, `COMPOSE_ENV_FILES`), where the command sets none.
  const listed = vars("COMPOSE_ENV_FILES");
  const given = g.envFiles.length
    ? g.envFiles.map((w) => here(w.value))
    : listed
    ? listed.split(",").map(here)
    : null;
  const dot: DotEnvs = [];
  const load = (dir: string) => {
    for (const path of given ?? [join(dir, ".env")]) {
      if (dot.some((d) => d.path === path)) continue;
      // (One not read here makes only the variables it would give not known.)
      const text = listed === null ? null : run.settings(path);
      if (text !== "") envs.loaded.add(path);
      dot.push({ path, map: text === null ? null : dotenv(text) });
    }
  };
  const firstDir = (paths: string[]) => {
    const p = paths.find((p) => p !== "-");
    return projectDir ?? (p === undefined ? cwd : dirname(here(p)));
  };
  load(firstDir(g.files.map((w) => w.value)));
  const lookup: Lookup = (name) => {
    const v = vars(name);
    if (v !== undefined) return v;
    for (const d of dot) {
      if (d.map !== null && !d.map.has(name)) continue;
      envs.used.add(d.path);
      return d.map === null ? null : d.map.get(name);
    }
    return undefined;
  };
  const project = new Project(run, lookup, envs);
  // The files: `-f`, else `COMPOSE_FILE`, else those it finds.
  let files: { path: string; text: string | null }[];
  // (Where the command or the environment sets none, and the .env cannot be read now: none.
  // A variable a path is built from stays not known.)
  const named = vars("COMPOSE_FILE") ?? dot.map((d) => d.map?.get("COMPOSE_FILE")).find((v) => v);
  if (named === null && !g.files.length) return unknown("the compose files COMPOSE_FILE names");
  if (g.files.length || named) {
    const separator = vars("COMPOSE_PATH_SEPARATOR") || ":";
    const paths = g.files.length ? g.files.map((w) => w.value) : named!.split(separator);
    load(firstDir(paths.filter(Boolean)));
    files = paths.filter(Boolean).map((p) => {
      if (p !== "-") return { path: here(p), text: project.text(here(p)) };
      const input = standardInput(stage);
      const body = input.from === "document" ? input.redirect.body : undefined;
      if (body?.kind !== "static") unknown("the compose file on its standard input");
      return {
        path: join(projectDir ?? cwd, "-"),
        text: body?.kind === "static" ? body.value : "",
      };
    });
  } else {
    const found = defaultFiles(run, projectDir ?? cwd);
    if (found === null) return unknown("the compose files it finds");
    files = found.map((f) => ({ path: f.path, text: f.text }));
    if (files.length) load(projectDir ?? dirname(files[0].path));
  }
  if (!files.length) return;
  const base = projectDir ?? dirname(files[0].path);
  for (const f of files) if (f.text) project.file(f.text, base, 0);
  if (/^(config|convert)$/.test(g.subcommand)) printedEnv(g.rest, envs, project.opened);
  project.flush();
}

/** `config`'s env files printed: all with `--environment`, else those values were taken from. */
function printedEnv(rest: Word[], envs: EnvFiles, opened: string[]): void {
  const flags = rest.map((w) => (w.kind === "static" ? w.value : "--environment"));
  const all = flags.includes("--environment");
  if (!all && flags.includes("--no-interpolate")) return;
  opened.push(...(all ? envs.loaded : envs.used));
}

/** The compose files compose finds from `dir` (the nearest directory holding one), or null. */
function defaultFiles(run: Runner, dir: string): { path: string; text: string }[] | null {
  const found = DEFAULT_FILES.map((name) => run.projectSettings(name, [dir]));
  if (found.includes(null)) return null;
  let nearest = "";
  for (const list of found) {
    if (list!.length && list![0].dir.length > nearest.length) nearest = list![0].dir;
  }
  if (!nearest) return [];
  const main = found.findIndex((list) => list!.some((f) => f.dir === nearest));
  const out = [{
    path: join(nearest, DEFAULT_FILES[main]),
    text: found[main]!.find((f) => f.dir === nearest)!.text,
  }];
  for (const name of OVERRIDE_FILES) {
    const text = run.settings(join(nearest, name));
    if (text === null) return null;
    if (text) out.push({ path: join(nearest, name), text });
  }
  return out;
}

/**
 * The subcommands that write no file on this machine by the words they are given (not `cp`,
 * `config -o`, `export -o`, `bridge convert -o`, nor `run -v SRC:DST`, whose container writes
 * SRC): what a compose file mounts is judged apart (`composeFileRuns`).
 */
const READS_ONLY =
  /^(up|down|start|stop|restart|build|pull|push|logs|ps|images|top|events|port|pause|unpause|kill|rm|ls|version|wait|create|scale|stats|attach|watch|volumes)$/;

/**
 * The argv positions of the words `docker compose …` (from `from`, the word after `compose`, or
 * after `docker-compose`) only reads (`Program.readWords`): its options' values before the
 * subcommand (`-f FILE`, `--env-file`, `--project-directory`, `-p NAME`), the subcommand, and every
 * word after one that writes nothing by them (`up app`, `logs -f`).
 */
export function composeReadWords(argv: Word[], from: number): number[] {
  const out: number[] = [];
  const values = argv.slice(from).map((w) => (w.kind === "static" ? w.value : null));
  for (const t of readOptions(values, COMPOSE_GLOBAL)) {
    if (t.kind === "dynamic" || t.kind === "unknown" || t.kind === "end") return out;
    if (t.kind === "operand") {
      out.push(from + t.at);
      if (READS_ONLY.test(values[t.at]!)) {
        for (let i = from + t.at + 1; i < argv.length; i++) out.push(i);
      }
      return out;
    }
    // (`--file=x.yml`, `-fx.yml`: the word itself.)
    if (t.kind === "valued") out.push(from + (t.valueAt ?? t.at));
  }
  return out;
}
