/**
 * wget's settings in the order it makes them. Every option of wget's is a wgetrc command
 * (1.21's main.c: `-x` and `--force-directories` are `dirstruct = on`, `-nd` and
 * `--no-directories` `dirstruct = off`, `-P D` `dir_prefix = D`), an `-e CMD` one too (its name
 * in any case, `_` and `-` left out, blanks around `=` and at both ends left off: `-e
 * $'save_cookies=\tF'` saves to `F`); they are made in order, the last of each wins. wget2 takes
 * its long names as commands (`-e directory-prefix=D`): they are read as the command they stand
 * for.
 *
 * @example
 * ```ts
 * import { wgetSettings } from "./wget_settings.ts";
 * import { literal } from "./words.ts";
 * wgetSettings(["-nd", "-x", "-e", "Cut_Dirs = 1"].map(literal)).settings
 *   .map((s) => `${s.key}=${s.value}`);
 * // ["dirstruct=0", "dirstruct=1", "cutdirs=1"]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { wgetArgs, wgetTokens, wgetWord } from "./wget_options.ts";

/** One setting wget makes (see the module). */
export interface WgetSetting {
  /** The wgetrc command, as wget compares it: lower case, no `-` or `_` (`dirprefix`). */
  key: string;
  /** Its value (a switch's `1` or `0` where none is written); null: not known. */
  value: string | null;
  /** The word it comes from. */
  source: string;
  /** It comes from `-e CMD` (or a wgetrc line): its value is trimmed as wget's parse_line trims. */
  executed: boolean;
}

/** wget's short options and the commands they make (main.c), a switch's value `1`. */
const WGET_SHORT: Readonly<Record<string, string>> = {
  A: "accept",
  B: "base",
  D: "domains",
  E: "adjustextension",
  F: "forcehtml",
  H: "spanhosts",
  I: "includedirectories",
  K: "backupconverted",
  L: "relativeonly",
  N: "timestamping",
  O: "outputdocument",
  P: "dirprefix",
  Q: "quota",
  R: "reject",
  S: "serverresponse",
  T: "timeout",
  U: "useragent",
  X: "excludedirectories",
  a: "logfile",
  b: "background",
  c: "continue",
  d: "debug",
  i: "input",
  k: "convertlinks",
  l: "reclevel",
  m: "mirror",
  o: "logfile",
  p: "pagerequisites",
  q: "quiet",
  r: "recursive",
  t: "tries",
  v: "verbose",
  w: "wait",
  x: "dirstruct",
};

/** `-n`'s letters (`-nH`, `-ndH`): the commands each makes. */
const WGET_NO: Readonly<Record<string, [string, string]>> = {
  v: ["verbose", "0"],
  H: ["addhostdir", "0"],
  d: ["dirstruct", "0"],
  c: ["noclobber", "1"],
  p: ["noparent", "1"],
};

/** Long names (without `-`) whose command is another (main.c; wget2's names as its commands). */
const WGET_LONG_COMMAND: Readonly<Record<string, string>> = {
  config: "chooseconfig",
  directories: "dirstruct",
  forcedirectories: "dirstruct",
  hostdirectories: "addhostdir",
  directoryprefix: "dirprefix",
  inputfile: "input",
  level: "reclevel",
  outputfile: "logfile",
  appendoutput: "logfile",
  relative: "relativeonly",
  proxy: "useproxy",
  httppasswd: "httppassword",
  proxypasswd: "proxypassword",
  htmlextension: "adjustextension",
  warcdedup: "warccdxdedup",
};

/** wget's commands named `no…` of their own (not a switch turned off). */
const WGET_NO_COMMANDS = new Set(["noclobber", "noconfig", "noparent", "noproxy"]);

/** The command a name stands for (a long option's or an `-e` command's), as wget compares it. */
export function wgetCommand(name: string): string {
  const key = name.toLowerCase().replace(/[-_]/g, "");
  return WGET_LONG_COMMAND[key] ?? key;
}

/** wget's blanks (c_isspace): space, tab, newline, vertical tab, form feed, carriage return. */
const BLANK = "[ \\t\\n\\v\\f\\r]*";
const WGETRC_LINE = new RegExp(`^${BLANK}([A-Za-z0-9_-]+)${BLANK}=${BLANK}(.*?)${BLANK}$`, "s");

/**
 * A wgetrc command's name as wget compares it and its value, blanks at both ends left off
 * (wget's parse_line); null for a line it refuses.
 */
export function wgetrcSetting(text: string): [string, string] | null {
  const m = WGETRC_LINE.exec(text);
  return m ? [wgetCommand(m[1]), m[2]] : null;
}

/** A switch's value as wget reads it (`on`, `yes`, `1`; wget2 `true` too); null: not one. */
export function wgetSwitch(value: string | null): boolean | null {
  if (value === null) return null;
  if (/^(on|yes|1|true|y)$/i.test(value)) return true;
  return /^(off|no|0|false|n)$/i.test(value) ? false : null;
}

/**
 * The settings wget's words make, in order (see the module), and its operands (its URLs: words
 * that are no option's value; all after `--`).
 */
export function wgetSettings(args: Word[]): { settings: WgetSetting[]; operands: Word[] } {
  const spelled = wgetArgs(args);
  const out: WgetSetting[] = [];
  const operands: Word[] = [];
  for (const t of wgetTokens(spelled)) {
    if (t.kind === "operand" || t.kind === "dynamic") operands.push(spelled[t.at]);
    if (t.kind !== "flag" && t.kind !== "valued" && t.kind !== "unknown") continue;
    const w = spelled[t.at];
    const given = t.glued !== undefined
      ? t.glued
      : t.valueAt === undefined
      ? undefined
      : spelled[t.valueAt].kind === "static"
      ? spelled[t.valueAt].value
      : null;
    const source = t.valueAt === undefined ? w.text : `${w.text} ${spelled[t.valueAt].text}`;
    const add = (key: string, value: string | null, executed = false) =>
      out.push({ key, value, source, executed });
    if (t.name === "-e" || t.name === "--execute") {
      const setting = given ? wgetrcSetting(given) : null;
      if (setting) add(setting[0], setting[1], true);
    } else if (t.name === "-n") {
      for (const c of given ?? "") if (WGET_NO[c]) add(...WGET_NO[c]);
    } else if (!t.name.startsWith("--")) {
      const key = WGET_SHORT[t.name.slice(1)];
      if (key) add(key, t.kind === "valued" ? given ?? null : "1");
    } else {
      const key = wgetCommand(t.name.slice(2));
      if (key.startsWith("no") && !WGET_NO_COMMANDS.has(key) && given === undefined) {
        // (`--no-NAME`: the switch NAME turned off, NAME abbreviated too: `--no-force-dir`.)
        add(wgetCommand(wgetWord("--" + t.name.slice(5)).slice(2)), "0");
      } else add(key, given === undefined ? "1" : given);
    }
  }
  return { settings: out, operands };
}
