/**
 * `docker buildx bake` (`docker bake`): the builds its bake files and `--set` overrides define,
 * each judged as the `docker build` it is (image_builds.ts): a target's `context`, `contexts`,
 * `dockerfile` (from its context), `output`, `secret`, `ssh`, `cache-from` and `cache-to`. The
 * files are `-f FILE` (repeated), else those bake looks for in the cwd (`compose.yaml`,
 * `compose.yml`, `docker-compose.yml`, `docker-compose.yaml`, `docker-bake.json`,
 * `docker-bake.hcl` and their `.override` forms): JSON read whole, HCL in its plain subset (blocks,
 * attributes of strings, lists and objects of strings; a variable, a function, an interpolation
 * is not read here), a compose file's `build:` sections (compose_files.ts judges the rest for
 * `docker compose`). A `--set TARGET.KEY=VALUE` is read as bake reads it: the key after the first
 * `.`, the value after the first `=` (`+=` appends). Every target of every file is taken, built
 * or not. A file or value not read here, a remote definition, `BUILDX_BAKE_*`: what it builds,
 * reads and writes is not known.
 *
 * @example
 * ```ts
 * import { readPlainHcl } from "./bake.ts";
 * readPlainHcl('target "app" {\n  context = "."\n}'); // [{ context: "." }]
 * ```
 *
 * @module
 */
import { isAbsolute, join } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { BUILDX_GLOBAL } from "./image_builds.ts";
import type { Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";
import { readYaml, type Yaml } from "./yaml_reader.ts";

const ORIGIN = "docker buildx bake";

/** bake's options. */
const BAKE: OptionGrammar = {
  flags: "D",
  valued: "f",
  longFlags: new Set([
    "--check",
    "--debug",
    "--help",
    "--list-targets",
    "--list-variables",
    "--load",
    "--no-cache",
    "--print",
    "--pull",
    "--push",
  ]),
  longValued: new Set([
    "--allow",
    "--builder",
    "--call",
    "--file",
    "--list",
    "--metadata-file",
    "--progress",
    "--provenance",
    "--sbom",
    "--set",
    "--var",
  ]),
};

/** The files bake looks for in the cwd, all of them read. */
const DEFAULT_FILES = [
  "compose.yaml",
  "compose.yml",
  "docker-compose.yml",
  "docker-compose.yaml",
  "docker-bake.json",
  "docker-bake.hcl",
  "docker-bake.override.json",
  "docker-bake.override.hcl",
];

/** A target's attributes that name files, each as the build option it is. */
const FILE_KEYS: Record<string, string> = {
  output: "--output",
  secret: "--secret",
  secrets: "--secret",
  ssh: "--ssh",
  "cache-from": "--cache-from",
  "cache-to": "--cache-to",
};

/** A target's attributes (and `--set` keys) that name no file on this machine. */
const PLAIN_KEYS =
  /^(args|tags|labels|platforms?|target|no-cache|pull|attest|annotations|network|shm-size|ulimits|entitlements|call|description|no-cache-filter|dockerfile-inline|extra-hosts|inherits|name|matrix)$/;

/** One target: its attributes, each a string, a list of strings or a map of strings. */
export type Target = Record<string, string | string[] | Record<string, string>>;

/** The index of `bake` in `args` (the words after the program, `docker`'s subcommand at `sub`). */
export function bakeAt(args: Word[], sub: number): number | null {
  const word = (i: number) => (args[i]?.kind === "static" ? args[i].value : null);
  if (word(sub) === "bake") return sub;
  if (word(sub) !== "buildx") return null;
  const values = args.slice(sub + 1).map((w) => (w.kind === "static" ? w.value : null));
  for (const t of readOptions(values, BUILDX_GLOBAL)) {
    if (t.kind === "operand") return values[t.at] === "bake" ? sub + 1 + t.at : null;
    if (t.kind !== "flag" && t.kind !== "valued") return null;
  }
  return null;
}

/** What `docker buildx bake …` builds (`args`: the words after `docker`; `bake` at `at`). */
export function bakeRuns(stage: Stage, run: Runner, args: Word[], at: number): void {
  const unknown = (what: string) => run.stage([unknownWord(`(${what})`)], ORIGIN);
  const values = args.slice(at + 1).map((w) => (w.kind === "static" ? w.value : null));
  const files: string[] = [];
  const sets: string[] = [];
  for (const t of readOptions(values, BAKE)) {
    const v = t.glued ?? (t.valueAt !== undefined ? values[t.valueAt] : undefined);
    if (t.kind === "unknown" || t.kind === "dynamic" || v === null) {
      return unknown("what bake builds");
    }
    // (An operand is a target, or a remote definition: `bake https://…`, `bake cwd://…`.)
    if (t.kind === "operand" && /[:/]/.test(values[t.at]!)) return unknown("a remote bake file");
    if (v !== undefined && (t.name === "-f" || t.name === "--file")) files.push(v);
    if (v !== undefined && t.name === "--set") sets.push(v);
  }
  const cwd = stage.cwds.length === 1 ? stage.cwds[0] : null;
  const env = ["BUILDX_BAKE_FILE", "BUILDX_BAKE_PATH_SEPARATOR", "BUILDX_BAKE_ENTITLEMENTS_FS"];
  const assigned = (stage.assignments ?? []).map((w) => w.prefix);
  const set = (n: string) => run.variable(n) !== undefined || assigned.some((a) => a.startsWith(n));
  if (cwd === null || env.some(set)) {
    return unknown("the bake files it reads");
  }
  const targets: Target[] = [];
  for (const name of files.length ? files : DEFAULT_FILES) {
    if (name === "-") return unknown("the bake file on its standard input");
    const path = isAbsolute(name) ? name : join(cwd, name);
    const text = run.settings(path);
    const read = text === null ? null : text === "" ? [] : readBakeFile(name, text);
    if (read === null) return unknown(`what ${name} builds`);
    targets.push(...read);
  }
  for (const s of sets) {
    const set = readSet(s);
    if (set === null) return unknown(`--set ${s}`);
    if (set.length) targets.push({ [set[0]]: set[1] });
  }
  for (const t of targets) {
    const argv = buildArgv(t);
    if (argv === null) return unknown("what a bake target builds");
    run.stage(argv.map(literal), ORIGIN);
  }
}

/** A `--set` value: its key (after `TARGET.`) and value; [] for a key naming no file. */
function readSet(value: string): [string, string] | [] | null {
  const eq = value.indexOf("=");
  const dot = value.indexOf(".");
  if (eq < 0 || dot < 0 || dot > eq) return null;
  const key = value.slice(dot + 1, eq).replace(/\+$/, "").toLowerCase();
  const v = value.slice(eq + 1);
  if (PLAIN_KEYS.test(key.split(".")[0])) return [];
  if (key === "context" || key === "dockerfile" || key in FILE_KEYS) return [key, v];
  const named = /^contexts\.(.+)$/.exec(key);
  return named ? ["contexts", `${named[1]}=${v}`] : null;
}

/** The `docker build` words of one target, or null for one not read. */
function buildArgv(t: Target): string[] | null {
  const out = ["docker", "build"];
  const list = (v: Target[string]) => (typeof v === "string" ? [v] : Array.isArray(v) ? v : null);
  let context = ".";
  let dockerfile: string | null = null;
  for (const [key, v] of Object.entries(t)) {
    if (PLAIN_KEYS.test(key)) continue;
    if (key === "context" && typeof v === "string") context = v;
    else if (key === "dockerfile" && typeof v === "string") dockerfile = v;
    else if (key === "contexts" || key === "additional_contexts") {
      const pairs = typeof v === "string"
        ? [v]
        : Array.isArray(v)
        ? v
        : Object.entries(v).map(([k, p]) => `${k}=${p}`);
      for (const p of pairs) out.push("--build-context", p);
    } else if (key in FILE_KEYS && list(v) !== null) {
      for (const item of list(v)!) out.push(FILE_KEYS[key], item);
    } else if (key in FILE_KEYS && typeof v === "object" && !Array.isArray(v)) {
      // (An output or cache given as an object: `{ type = "local", dest = "out" }`.)
      const fields = Object.entries(v);
      if (fields.some(([k, x]) => /[",\r\n]/.test(k + x))) return null;
      out.push(FILE_KEYS[key], fields.map(([k, x]) => `${k}=${x}`).join(","));
    } else return null;
  }
  if (/^[a-z][\w+.-]*:\/\//i.test(context) || context.startsWith("target:")) context = ".";
  if (dockerfile !== null) {
    out.push("-f", isAbsolute(dockerfile) ? dockerfile : join(context, dockerfile));
  }
  return [...out, "--", context];
}

/** The targets a bake file defines, by its name's kind (null: not read here). */
function readBakeFile(name: string, text: string): Target[] | null {
  if (/\.json$/.test(name)) return readBakeJson(text);
  if (/\.ya?ml$/.test(name)) return readComposeBuilds(text);
  return readPlainHcl(text);
}

/** A value of strings only, with no interpolation (`${…}`, `%{…}`), or null. */
function plain(v: unknown): string | string[] | Record<string, string> | null {
  const ok = (s: unknown): s is string => typeof s === "string" && !/[$%]\{/.test(s);
  if (ok(v)) return v;
  if (typeof v === "boolean" || typeof v === "number") return String(v);
  if (Array.isArray(v)) return v.every(ok) ? v : null;
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v);
    return entries.every(([k, x]) => ok(k) && ok(x)) ? Object.fromEntries(entries) : null;
  }
  return null;
}

/** The targets of a JSON bake file (HCL's JSON form: its strings are templates too). */
function readBakeJson(text: string): Target[] | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return null;
  const out: Target[] = [];
  for (const [block, v] of Object.entries(doc)) {
    if (block === "group") continue;
    if (block !== "target" || v === null || typeof v !== "object") return null;
    for (const body of Object.values(v)) {
      if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
      const t = targetOf(Object.entries(body));
      if (t === null) return null;
      out.push(t);
    }
  }
  return out;
}

/** A target from its attributes, or null where one is not plain. */
function targetOf(entries: [string, unknown][]): Target | null {
  const t: Target = {};
  for (const [k, x] of entries) {
    const p = plain(x);
    if (PLAIN_KEYS.test(k)) continue;
    if (p === null) return null;
    t[k] = p;
  }
  return t;
}

/** The builds of a compose file's services, as bake reads them. */
function readComposeBuilds(text: string): Target[] | null {
  const doc = readYaml(text);
  if (doc === undefined) return null;
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    return doc === null ? [] : null;
  }
  const services = doc.services;
  if (services === undefined || services === null) return [];
  if (typeof services !== "object" || Array.isArray(services)) return null;
  const out: Target[] = [];
  for (const s of Object.values(services)) {
    if (s === null || typeof s !== "object" || Array.isArray(s) || s.build === undefined) continue;
    const b: Yaml = s.build;
    if (typeof b === "string") {
      if (b.includes("$")) return null;
      out.push({ context: b });
      continue;
    }
    if (b === null || typeof b !== "object" || Array.isArray(b)) return null;
    const t: Target = {};
    for (const [k, v] of Object.entries(b)) {
      const p = plain(v);
      if (
        /^(args|labels|tags|target|platforms|network|shm_size|pull|no_cache|cache_from)$/.test(k)
      ) {
        continue;
      }
      if (p === null || JSON.stringify(p).includes("$")) return null;
      if (k === "context" || k === "dockerfile" || k === "additional_contexts") t[k] = p;
      else if (k === "cache_to" || k === "ssh") {
        t[k.replace("_", "-")] = typeof p === "object" && !Array.isArray(p)
          ? Object.entries(p).map(([id, path]) => `${id}=${path}`)
          : p;
      } else return null;
    }
    out.push(t);
  }
  return out;
}

/** One token of plain HCL. */
type Token = { kind: "name" | "string" | "punct"; value: string };

/** The tokens of a plain HCL text, or null (a template, a heredoc, an operator). */
function hclTokens(text: string): Token[] | null {
  const out: Token[] = [];
  const re =
    /\s+|#[^\n]*|\/\/[^\n]*|\/\*[\s\S]*?\*\/|([A-Za-z_][\w-]*)|"((?:[^"\\\n$%]|\\["\\ntr]|[$%](?!\{))*)"|([=:{}[\],])|-?\d+(?:\.\d+)?/y;
  let i = 0;
  while (i < text.length) {
    re.lastIndex = i;
    const m = re.exec(text);
    if (m === null) return null;
    i = re.lastIndex;
    if (m[1] !== undefined) out.push({ kind: "name", value: m[1] });
    else if (m[2] !== undefined) {
      const value = m[2].replace(
        /\\(.)/g,
        (_, c) => ({ n: "\n", t: "\t", r: "\r" } as Record<string, string>)[c] ?? c,
      );
      out.push({ kind: "string", value });
    } else if (m[3] !== undefined) out.push({ kind: "punct", value: m[3] });
    else if (/^-?\d/.test(m[0])) out.push({ kind: "string", value: m[0] });
  }
  return out;
}

/**
 * The targets of a bake file in plain HCL: `target "NAME" { KEY = VALUE … }` blocks whose values
 * are strings, lists of strings or objects of strings (`group` and `variable` blocks are passed
 * over; a variable used, a function called, an interpolation: null, not read here).
 */
export function readPlainHcl(text: string): Target[] | null {
  const tokens = hclTokens(text);
  if (tokens === null) return null;
  let i = 0;
  const is = (value: string) => tokens[i]?.kind === "punct" && tokens[i].value === value;
  const value = (): unknown => {
    const t = tokens[i++];
    if (t === undefined) return undefined;
    if (t.kind === "string") return t.value;
    if (t.kind === "name") return /^(true|false)$/.test(t.value) ? t.value : undefined;
    if (t.value === "[") {
      const list: unknown[] = [];
      while (!is("]")) {
        const v = value();
        if (v === undefined) return undefined;
        list.push(v);
        if (is(",")) i++;
        else if (!is("]")) return undefined;
      }
      i++;
      return list;
    }
    if (t.value === "{") {
      const obj: Record<string, unknown> = {};
      while (!is("}")) {
        const k = tokens[i++];
        if (k === undefined || k.kind === "punct" || !(is("=") || is(":"))) return undefined;
        i++;
        const v = value();
        if (v === undefined) return undefined;
        obj[k.value] = v;
        if (is(",")) i++;
      }
      i++;
      return obj;
    }
    return undefined;
  };
  const out: Target[] = [];
  while (i < tokens.length) {
    const block = tokens[i++];
    if (block.kind !== "name") return null;
    // (A top-level attribute: a variable of the file's own.)
    if (is("=")) {
      i++;
      if (value() === undefined) return null;
      continue;
    }
    while (tokens[i]?.kind === "string") i++;
    if (!is("{")) return null;
    i++;
    const body: [string, unknown][] = [];
    while (!is("}")) {
      const k = tokens[i++];
      if (k?.kind !== "name" || !is("=")) return null;
      i++;
      const v = value();
      if (v === undefined) return null;
      body.push([k.value, v]);
    }
    i++;
    if (block.value === "target") {
      const t = targetOf(body);
      if (t === null) return null;
      out.push(t);
    } else if (!/^(group|variable)$/.test(block.value)) return null;
  }
  return out;
}
