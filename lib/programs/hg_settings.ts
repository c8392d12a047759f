/**
 * What Mercurial runs from its config files (hg help config) for an `hg` stage: the repository's
 * `.hg/hgrc` (and `.hg/hgrc-not-shared`, what they `%include`), the files a `HGRCPATH=` the
 * command sets names, then the command's `--config SECTION.KEY=VALUE` (anywhere before `--`, as
 * hg's early options are read), in hg's syntax (continuation lines, `%include`, `%unset`). Judged
 * for the subcommand given: `[hooks]` (`pre-`/`post-`/`fail-<command>` for that command, the
 * others, `precommit`, `pretxncommit`, `update`, …, for every command but the reading ones:
 * `status`, `log`, `diff`, …), as shell text in the repository's top; `[alias]` (a `!` alias is
 * shell text, another is hg given its words, unless `HGPLAIN`); `[extensions]` given by path
 * (Python code not seen: not known); the programs it runs where the command may need them
 * (`ui.editor` where a message is edited, `ui.merge` and `[merge-tools]`, `ui.ssh`, `ui.patch`,
 * `[extdiff]`, `[fix]`, `hgk.path`, `gpg.cmd`, `email.method`, `fsmonitor.watchman_exe`; the
 * pager where `ui.formatted` makes hg think its output a terminal); `hg extdiff -p PROG -o OPT`.
 * The user's and the system's files (`~/.hgrc`, `/etc/mercurial/hgrc`) are the user's: not known
 * only where another stage of the command may write them first; a file that cannot be read (or
 * another stage writes first), an include or `--config` not known: a command not known.
 *
 * @example
 * ```ts
 * import { hgConfig } from "./hg_settings.ts";
 * hgConfig("[hooks]\npre-status = make check\n  --quiet\n", "/r/.hg/hgrc", () => "")?.settings;
 * // Map { "hooks.pre-status" => "make check\n--quiet" }
 * ```
 *
 * @module
 */
import { dirname, isAbsolute, join } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import type { Runner } from "./spec.ts";
import { chdir, literal, unknownWord } from "./words.ts";
import { shlexWords } from "./project_settings.ts";

/** hg's settings, `section.key` to value, in the order they were set. */
export interface HgConfig {
  settings: Map<string, string>;
  /** A file or include that could not be read: what it sets is not known. */
  unknown: string[];
}

const SECTION = /^\[([^[]+)\]/;
const ITEM = /^([^=\s][^=]*?)\s*=\s*(.*\S|)/;
const CONTINUED = /^\s+(\S|\S.*\S)\s*$/;
const EMPTY = /^(;|#|\s*$)/;
const COMMENT = /^(;|#)/;
const UNSET = /^%unset\s+(\S+)/;
const INCLUDE = /^%include\s+(\S|\S.*\S)\s*$/;

/**
 * Parse one config file's text into `out` as hg's config.py does, its includes read with `read`
 * (an absolute path's text, "" where there is none, null where not known).
 */
export function hgConfig(
  text: string,
  file: string,
  read: (path: string) => string | null,
  out: HgConfig = { settings: new Map(), unknown: [] },
  depth = 0,
  home?: string | null,
): HgConfig {
  let section = "";
  let item: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (item !== null) {
      if (COMMENT.test(line)) continue;
      const m = CONTINUED.exec(line);
      if (m) {
        const key = `${section}.${item}`;
        out.settings.set(key, `${out.settings.get(key) ?? ""}\n${m[1]}`);
        continue;
      }
      item = null;
    }
    const inc = INCLUDE.exec(line);
    if (inc) {
      const path = includedPath(inc[1], file, home);
      const inner = path === null || depth >= 10 ? null : read(path);
      if (inner === null) out.unknown.push(`${file}: %include ${inc[1]}`);
      else if (inner) hgConfig(inner, path!, read, out, depth + 1, home);
      continue;
    }
    if (EMPTY.test(line)) continue;
    const s = SECTION.exec(line);
    if (s) {
      section = s[1];
      continue;
    }
    const m = ITEM.exec(line);
    if (m) {
      item = m[1];
      const key = `${section}.${item}`;
      // (A key set again is set anew, last in order.)
      out.settings.delete(key);
      out.settings.set(key, m[2]);
      continue;
    }
    const u = UNSET.exec(line);
    if (u) {
      out.settings.delete(`${section}.${u[1]}`);
      continue;
    }
    // (hg refuses the file: a line read otherwise than hg reads it is not known.)
    out.unknown.push(`${file}: ${line.trim()}`);
  }
  return out;
}

/** An include's path (`~` and variables expanded, from the including file's directory). */
function includedPath(path: string, file: string, home?: string | null): string | null {
  if (path.includes("$")) return null;
  if (path === "~" || path.startsWith("~/")) return home ? home + path.slice(1) : null;
  if (path.startsWith("~")) return null;
  return isAbsolute(path) ? path : join(dirname(file), path);
}

/** hg's subcommands (and their other names) that read and run no hook but their own. */
const READS: Record<string, string> = {};
for (
  const names of [
    "status st",
    "diff",
    "log history",
    "cat",
    "annotate blame",
    "files",
    "manifest",
    "paths",
    "branches",
    "heads",
    "tags",
    "tip",
    "parents",
    "root",
    "help",
    "version",
    "config showconfig debugconfig",
    "grep",
    "locate",
    "export",
    "verify",
    "whereami",
    "summary sum",
    "identify id",
    "bookmarks bookmark",
    "branch",
  ]
) {
  const [first, ...rest] = names.split(" ");
  for (const n of [first, ...rest]) READS[n] = first;
}

/** Subcommands that read only while given no operand (`hg id` reads; `hg id URL` reaches out). */
const READS_BARE = /^(identify|bookmarks|branch|summary|config)$/;

/** hg's options before or among the subcommand's words that take a value. */
const VALUED = new Set([
  "-R",
  "--repository",
  "--repo",
  "--cwd",
  "--config",
  "--encoding",
  "--encodingmode",
  "--color",
  "--pager",
]);

/** The words of an hg stage: its subcommand (null: not known), operands, options, given settings. */
interface HgWords {
  sub: string | null;
  /** Where the subcommand is in argv (-1: none). */
  at: number;
  operands: number;
  options: string[];
  config: Word[];
  repository?: Word;
  cwd?: Word;
}

/** Read an hg stage's words. */
function hgWords(argv: Word[]): HgWords {
  const out: HgWords = { sub: null, at: -1, operands: 0, options: [], config: [] };
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    const v = w.kind === "static" ? w.value : w.prefix;
    if (v === "--") break;
    const m = /^(--config|--repository|--repo|--cwd|-R)(?:=|(?<=^-R)(?=.))([\s\S]*)$/.exec(v);
    if (m || VALUED.has(v)) {
      const name = m ? m[1] : v;
      const value = m ? (w.kind === "static" ? literal(m[2]) : w) : argv[++i];
      if (!value) break;
      if (name === "--config") out.config.push(value);
      else if (name === "--cwd") out.cwd = value;
      else if (name === "--repository" || name === "--repo" || name === "-R") {
        out.repository = value;
      }
      continue;
    }
    if (v.startsWith("-") && v !== "-") {
      out.options.push(v);
      continue;
    }
    if (out.at < 0) {
      out.at = i;
      out.sub = w.kind === "static" ? w.value : null;
    } else out.operands++;
  }
  return out;
}

/** A variable as the stage finds it: set before it (null: not known), else the environment's. */
function assigned(stage: Stage, run: Runner, name: string): string | null | undefined {
  const a = stage.assignments?.findLast((w) => w.value.startsWith(`${name}=`));
  if (!a) return run.variable(name);
  return a.kind === "static" ? a.value.slice(name.length + 1) : null;
}

/** The origin of the stage that stands for what hg may run from config not known. */
const NOT_KNOWN = "hg's config, not known";

/** Where what hg runs from its config cannot be known. */
function notKnown(what: string, run: Runner): void {
  run.stage([literal("hg"), unknownWord(`(what hg runs from ${what})`)], NOT_KNOWN);
}

/**
 * The settings hg reads for the stage (see the module's notes), and the directory its hooks run
 * in; null where not known (reported through `run`).
 */
function readSettings(
  stage: Stage,
  words: HgWords,
  run: Runner,
): { config: HgConfig; top: (string | null)[] } | null {
  const home = run.home(null);
  const config: HgConfig = { settings: new Map(), unknown: [] };
  const read = (path: string) => run.settings(path);
  const readFile = (file: string) => {
    const text = read(file);
    if (text === null) config.unknown.push(file);
    else if (text) hgConfig(text, file, read, config, 0, home);
  };
  // The user's and the system's: not known only where another stage writes them first.
  const xdg = run.variable("XDG_CONFIG_HOME") || (home && `${home}/.config`);
  const own = [home && `${home}/.hgrc`, xdg && `${xdg}/hg/hgrc`, "/etc/mercurial/hgrc"];
  for (const f of own) if (f && read(f) === null) config.unknown.push(f);
  const path = assigned(stage, run, "HGRCPATH");
  if (path === null) config.unknown.push("$HGRCPATH");
  else if (path !== undefined && stage.assignments?.some((w) => w.value.startsWith("HGRCPATH="))) {
    for (const entry of path.split(":").filter(Boolean)) {
      if (entry.includes("$") || entry.startsWith("~")) config.unknown.push(entry);
      else if (/\.rc$|hgrc$/.test(entry) || read(entry) !== "") readFile(entry);
      else {
        // (A directory: its `*.rc` files.)
        const listed = run.named(`${entry.replace(/\/+$/, "")}/`);
        if (listed === null) config.unknown.push(entry);
        for (const f of listed ?? []) if (f.endsWith(".rc")) readFile(f);
      }
    }
  }
  let cwds = stage.cwds;
  if (words.cwd) cwds = chdir(cwds, words.cwd);
  let top: (string | null)[] = cwds;
  if (assigned(stage, run, "HGRCSKIPREPO") === undefined) {
    let dirs: string[] | null;
    if (words.repository) {
      const r = words.repository;
      dirs = r.kind !== "static" || r.value.includes("://")
        ? (r.kind === "static" ? [] : null)
        : cwds.includes(null) && !isAbsolute(r.value)
        ? null
        : [...new Set(cwds.map((c) => isAbsolute(r.value) ? r.value : join(c!, r.value)))];
      for (const d of dirs ?? []) readFile(`${d}/.hg/hgrc`);
    } else {
      const found = run.projectSettings(".hg/hgrc", cwds);
      dirs = found?.map((f) => f.dir) ?? null;
      for (const f of found ?? []) hgConfig(f.text, `${f.dir}/.hg/hgrc`, read, config, 0, home);
    }
    if (dirs === null) config.unknown.push(".hg/hgrc");
    else if (dirs.length) top = dirs;
    for (const d of dirs ?? []) readFile(`${d}/.hg/hgrc-not-shared`);
  }
  for (const w of words.config) {
    const m = w.kind === "static" ? /^([^.=]+)\.([^=]+)=([\s\S]*)$/.exec(w.value) : null;
    if (!m) config.unknown.push(`--config ${w.text}`);
    else config.settings.set(`${m[1]}.${m[2]}`, m[3]);
  }
  if (config.unknown.length) {
    notKnown(config.unknown.join(", "), run);
    return null;
  }
  return { config, top };
}

/** Whether hg opens an editor for this subcommand and its options. */
function edits(sub: string | null, options: string[]): boolean {
  if (sub === null || options.some((o) => /^(-e|--edit)$/.test(o))) return true;
  if (/^(histedit|qnew|qrefresh)$/.test(sub)) return true;
  if (!/^(com?m?i?t?|ci|amend)$/.test(sub) || sub === "c" || sub === "co") return false;
  return !options.some((o) => /^(-m|-l|--message|--logfile)/.test(o) || /^-[^-]*[ml]/.test(o));
}

/** Settings whose value is shell text hg runs, and whether it runs for a subcommand. */
const PROGRAMS: [RegExp, (sub: string | null, w: HgWords, reads: boolean) => boolean][] = [
  [/^ui\.editor$/, (sub, w) => edits(sub, w.options)],
  [/^ui\.(ssh|patch)$/, (_, __, reads) => !reads],
  [/^ui\.merge$/, (_, __, reads) => !reads],
  [/^(extdiff|diff-tools)\./, (sub) => sub === null || !READS[sub]],
  [/^fix\..+:command$/, (sub) => sub === null || /^fix?$/.test(sub) || !READS[sub]],
  [/^(hgk\.path|gpg\.cmd|email\.method)$/, (_, __, reads) => !reads],
  [/^fsmonitor\.watchman_exe$/, () => true],
];

/** Whether a hook of this name runs for the subcommand (`typed`: the word that named it). */
function hookRuns(name: string, sub: string | null, typed: string | null, reads: boolean) {
  const m = /^(pre|post|fail)-(.+)$/.exec(name);
  // (A word that is no command's whole name may be a prefix of its: `hg stat`.)
  if (m) {
    return sub === null || m[2] === sub || m[2] === typed ||
      (typed !== null && !Object.hasOwn(READS, typed) && m[2].startsWith(typed));
  }
  return !reads;
}

/** What hg runs from its config for an `hg` stage (see the module's notes). */
export function hgSettings(stage: Stage, run: Runner): void {
  if (stage.origin === NOT_KNOWN) return;
  let words = hgWords(stage.argv);
  const read = readSettings(stage, words, run);
  if (read === null) return;
  const { config, top } = read;
  const settings = config.settings;
  const plain = assigned(stage, run, "HGPLAIN");
  const except = assigned(stage, run, "HGPLAINEXCEPT") ?? "";
  // (Set at all, even empty, HGPLAIN drops the aliases; one not known may not.)
  const aliases = typeof plain !== "string" || /(^|,)alias(,|$)/.test(except ?? "");
  // (An alias, resolved as hg does, by name or a prefix of one: the `!` ones are shell text,
  // the others the hg command they name, with the stage's other words.)
  const typed = words.sub;
  const seen = new Set<string>();
  let argv = stage.argv;
  for (let n = 0; aliases && words.sub !== null && n < 10; n++) {
    const sub = words.sub;
    const names = [...settings.keys()].filter((k) =>
      k.startsWith("alias.") && !seen.has(k) && settings.get(k) &&
      (k === `alias.${sub}` || (!READS[sub] && k.startsWith(`alias.${sub}`)))
    );
    if (!names.length) break;
    for (const k of names) seen.add(k);
    const exact = names.find((k) => k === `alias.${sub}`) ?? names[0];
    const definition = settings.get(exact)!;
    if (definition.startsWith("!")) {
      run.shell(literal(definition.slice(1)), "hg's alias");
      words = { ...words, sub: exact.slice("alias.".length) };
      break;
    }
    const expansion = shlexWords(definition);
    if (expansion === null) return notKnown(`its alias ${exact}`, run);
    argv = [...argv.slice(0, words.at), ...expansion.map(literal), ...argv.slice(words.at + 1)];
    words = hgWords(argv);
    for (const w of words.config) {
      const m = w.kind === "static" ? /^([^.=]+)\.([^=]+)=([\s\S]*)$/.exec(w.value) : null;
      if (m) settings.set(`${m[1]}.${m[2]}`, m[3]);
      else return notKnown(`its alias ${exact}'s --config`, run);
    }
  }
  const raw = words.sub;
  const sub = raw === null ? null : READS[raw] ?? raw;
  const reads = sub !== null && Object.hasOwn(READS, sub) &&
    !(READS_BARE.test(sub) && (words.operands > 0 || words.options.includes("--remote")));
  const at = run.at(top);
  for (const [key, value] of settings) {
    if (!value) continue;
    const dot = key.indexOf(".");
    const section = key.slice(0, dot);
    const name = key.slice(dot + 1);
    if (section === "hooks") {
      if (/^priority\./.test(name) || !hookRuns(name.replace(/\..*$/, ""), sub, typed, reads)) {
        continue;
      }
      if (/^python:/.test(value)) notKnown(`its Python hook ${name}`, run);
      else at.shell(literal(value), "hg's hook");
    } else if (section === "extensions") {
      // (A bundled or installed extension by name is hg's; one by path is code not seen.)
      if (!value.startsWith("!")) notKnown(`its extension ${name} = ${value}`, run);
    } else if (/^(partial-)?merge-tools$/.test(section)) {
      const m = /^(.+)\.(executable|args|diffargs)$/.exec(name);
      if (!m || reads || (m[2] !== "executable" && settings.has(`${section}.${m[1]}.executable`))) {
        continue;
      }
      // (A tool's program, given its arguments: shell text, `$local $other …` filled in.)
      const program = settings.get(`${section}.${m[1]}.executable`) || m[1];
      const args = [
        settings.get(`${section}.${m[1]}.args`),
        settings.get(`${section}.${m[1]}.diffargs`),
      ];
      for (const a of m[2] === "executable" ? args : [value]) {
        run.shell(literal(`${program} ${a ?? ""}`), `hg's ${section}.${m[1]}`);
      }
    } else if (section === "ui" && name === "merge") {
      if (/^(internal)?:/.test(value) || settings.has(`merge-tools.${value}.executable`)) continue;
      if (!reads) run.stage([literal(value), literal("(the files it merges)")], "hg's ui.merge");
    } else if (section === "pager" && name === "pager") {
      const formatted = /^(1|yes|true|on|always)$/i.test(settings.get("ui.formatted") ?? "");
      if (typeof plain !== "string" && formatted) {
        run.shell(literal(value), "hg's pager");
      }
    } else if (PROGRAMS.some(([re, runs]) => re.test(key) && runs(sub, words, reads))) {
      if (/^(extdiff|diff-tools)\.(cmd|opts)\./.test(key) || /\.(args|diffargs)$/.test(key)) {
        run.at([null]).shell(literal(`${value} "$parent1" "$child"`), `hg's ${key}`);
      } else if (/^(extdiff|diff-tools)\./.test(key)) {
        run.at([null]).shell(literal(value), `hg's ${key}`);
      } else run.shell(literal(value), `hg's ${key}`);
    }
  }
  if (sub === "extdiff") extdiffProgram(argv, words.at, run);
}

/**
 * `hg extdiff -p PROG -o OPT…`: PROG given the options and two snapshots, in a directory of its
 * own (not the cwd).
 */
function extdiffProgram(argv: Word[], at: number, run: Runner): void {
  let program: Word | null = null;
  const opts: Word[] = [];
  for (let i = at + 1; i < argv.length; i++) {
    const v = argv[i].kind === "static" ? argv[i].value : argv[i].prefix;
    if (v === "--") break;
    const m = /^(-p|--program|-o|--option)(?:=|(?<=^-[po])(?=.))([\s\S]*)$/.exec(v);
    if (!m && !/^(-p|--program|-o|--option)$/.test(v)) continue;
    const value = m ? (argv[i].kind === "static" ? literal(m[2]) : argv[i]) : argv[++i];
    if (!value) break;
    if (/^(-p|--program)$/.test(m ? m[1] : v)) program = value;
    else opts.push(value);
  }
  if (program === null) return;
  const snapshots = unknownWord("(the snapshots it compares)");
  run.at([null]).stage([program, ...opts, snapshots], "hg extdiff");
}
