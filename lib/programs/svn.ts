/**
 * The commands Subversion runs by its options and settings (svn's `svn help diff`, the
 * `[helpers]` and `[tunnels]` of its `config` file): `--diff-cmd PROG` runs PROG with the words
 * of `-x ARGS` (split at blanks, `-u` without one) and the labels and files it compares,
 * `--diff3-cmd PROG` its merges, `--editor-cmd CMD` a shell line given the message file;
 * `--config-option config:helpers:diff-cmd=PROG` and `config:tunnels:NAME=CMD` the same, and the
 * `config` files svn reads (`--config-dir DIR`'s, else the user's `~/.subversion/config` and
 * `/etc/subversion/config`), as they will be when it runs. (`SVN_EDITOR`, `SVN_SSH`: env.ts.)
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { How, Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";

/** svn's settings that name commands, by section and option, and how each runs. */
const HELPERS: Record<string, How> = {
  "diff-cmd": "program",
  "diff3-cmd": "program",
  "editor-cmd": "shell",
  "merge-tool-cmd": "program",
};

/** The options whose value names a command, a setting or a directory of settings. */
const VALUED = /^--(diff-cmd|diff3-cmd|editor-cmd|config-option|config-dir|extensions)$/;
const LONG = [
  "--diff-cmd",
  "--diff3-cmd",
  "--editor-cmd",
  "--config-option",
  "--config-dir",
  "--extensions",
];

/**
 * What a setting `SECTION:OPTION=VALUE` of svn's `config` runs: a helper's command, a tunnel's
 * (`ssh = $SVN_SSH ssh -q`, a command line svn splits and runs with the host).
 */
function setting(section: string, option: string, value: Word, run: Runner, origin: string) {
  const s = section.toLowerCase();
  const o = option.toLowerCase();
  if (s === "helpers" && Object.hasOwn(HELPERS, o) && value.value.trim()) {
    run.command(value, HELPERS[o], origin);
  } else if (s === "tunnels" && value.value.trim()) run.command(value, "shell", origin);
}

/** The `[helpers]` and `[tunnels]` of a `config` file's text (INI, `#` comments). */
function configText(text: string, run: Runner, origin: string): void {
  let section = "";
  for (const line of text.split("\n")) {
    const head = /^\[([^\]]*)\]/.exec(line);
    if (head) section = head[1].trim();
    const m = /^([A-Za-z0-9_.-]+)\s*[=:]\s*(.*?)\s*$/.exec(line);
    if (m) setting(section, m[1], literal(m[2]), run, origin);
  }
}

/** The `config` file at `path`, as it will be when svn runs (unknown where that is not known). */
function configFile(path: string, run: Runner): void {
  const text = run.settings(path);
  if (text === null) run.stage([unknownWord(`(the commands ${path} may name)`)], "svn config");
  else configText(text, run, path);
}

/** The commands svn's options and settings make it run (see the module's comment). */
export function svnCommands(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const origin = "svn option";
  const found: Record<string, Word[]> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (v === "--") break;
    const eq = v.indexOf("=");
    const name = v.startsWith("--") && eq > 0 ? v.slice(0, eq) : v;
    if (a.kind !== "static" && v.startsWith("-")) {
      // (`--$OPT`, `-x$X`, `--diff-cmd=$X`: an option not known may name a command.)
      const could = v === "-" || v.startsWith("-x") || /^--?$/.test(v) ||
        LONG.some((n) => n.startsWith(name) || name.startsWith(n));
      if (could) run.stage([unknownWord(`(a command ${a.text} may name)`)], origin);
      continue;
    }
    const x = /^-x(.+)$/s.exec(v);
    const key = name === "-x" || x ? "--extensions" : name;
    if (!VALUED.test(key)) continue;
    const value = x ? literal(x[1]) : eq > 0 ? literal(v.slice(eq + 1)) : args[++i];
    if (value) (found[key] ??= []).push(value);
  }
  const extensions = found["--extensions"] ?? [literal("-u")];
  for (const cmd of found["--diff-cmd"] ?? []) {
    for (const x of extensions) {
      const words = x.kind === "static"
        ? x.value.split(/[ \t\n\r]+/).filter((w) => w !== "").map(literal)
        : [x];
      run.stage([cmd, ...words, literal("(its labels and files)")], "svn --diff-cmd");
    }
  }
  for (const cmd of found["--diff3-cmd"] ?? []) run.command(cmd, "program", "svn --diff3-cmd");
  for (const cmd of found["--editor-cmd"] ?? []) run.command(cmd, "shell", "svn --editor-cmd");
  for (const o of found["--config-option"] ?? []) {
    const m = /^([^:]*):([^:]*):([^=]*)=([\s\S]*)$/.exec(o.value);
    if (o.kind !== "static") run.stage([unknownWord(`(the setting ${o.text})`)], origin);
    else if (m && m[1] === "config") setting(m[2], m[3], literal(m[4]), run, origin);
  }
  const dirs = found["--config-dir"];
  if (dirs) {
    for (const d of dirs) {
      if (d.kind !== "static") run.stage([unknownWord(`(the settings in ${d.text})`)], origin);
      else configFile(`${d.value.replace(/\/$/, "") || "/"}/config`, run);
    }
  } else {
    const home = run.home(null);
    if (home) configFile(`${home}/.subversion/config`, run);
    configFile("/etc/subversion/config", run);
  }
}
