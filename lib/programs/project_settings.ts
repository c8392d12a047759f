/**
 * Settings files a program finds in the project (a cloned repository ships them) that make it run
 * a file or command, or write elsewhere, for any command in the directory: npm's and pnpm's
 * `.npmrc` (`logs-dir`, `cache` and the other directories it writes below, `script-shell`,
 * `node-options`, another `userconfig`), yarn's `.yarnrc` (`yarn-path`, folders) and
 * `.yarnrc.yml` (`yarnPath`, `plugins`, folders, `injectEnvironmentFiles`), and `yt-dlp.conf`
 * (options, `--exec` among them, yt-dlp reads from the cwd or `-P`'s home). Each is read as it
 * will be when the command runs (`Runner.projectSettings`), in the cwd and the directories above it
 * short of the home directory (the user's own settings), and what it says is judged: a file run
 * as `node FILE`, a command as a stage, a directory written below as a file the command opens. A
 * file that cannot be known (another stage may write it, a cwd not known) or read (a value from a
 * variable, `${X}`) is a command not known; one that sets nothing of these changes nothing.
 *
 * @module
 */
import { isAbsolute, join } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import type { Program, Runner } from "./spec.ts";
import { literal, opensFile, unknownWord } from "./words.ts";
import { ytDlpCommands } from "./yt_dlp.ts";

/** A path a setting names, from the directory of the file that holds it (`~` left as it is). */
function from(dir: string, value: string): string {
  return isAbsolute(value) || value === "~" || value.startsWith("~/") ? value : join(dir, value);
}

/** A file a setting makes the program run as JavaScript (`yarn-path`, a plugin). */
function runsFile(path: string, run: Runner, origin: string): void {
  run.stage([literal("node"), literal(path), literal("(its arguments)")], origin);
}

/** A value that names something only when the command runs (`${HOME}/x`). */
const INTERPOLATED = /\$\{|\$[A-Za-z_]/;

// ---------------------------------------------------------------------------------------------
// npm, pnpm: .npmrc

/** npmrc keys whose value is a directory the program writes below (its log, its cache, …). */
const NPM_DIRECTORY =
  /^(logs-dir|cache|prefix|tmp|pack-destination|[\w-]*-dir|store-dir|modules-dir)$/;
/** npmrc keys whose value is a program it runs. */
const NPM_PROGRAM = /^(script-shell|shell|editor|git|browser|viewer)$/;
/** npmrc keys whose value is a JavaScript file it loads. */
const NPM_MODULE = /^(onload-script|init-module|pnpmfile|global-pnpmfile)$/;

/** What one npmrc setting makes npm do (`depth`: how many npmrc files named it so far). */
function npmSetting(key: string, value: string, run: Runner, origin: string, depth: number): void {
  const interesting = NPM_DIRECTORY.test(key) || NPM_PROGRAM.test(key) ||
    NPM_MODULE.test(key) || key === "node-options" || /^(user|global)config$/.test(key);
  if (!interesting || !value) return;
  if (INTERPOLATED.test(value)) {
    run.stage([unknownWord(`(what ${origin}'s ${key} = ${value} names)`)], origin);
  } else if (NPM_DIRECTORY.test(key)) opensFile(value, run, origin);
  else if (NPM_PROGRAM.test(key)) run.stage([literal(value), literal("(its arguments)")], origin);
  else if (NPM_MODULE.test(key)) runsFile(value, run, origin);
  else if (key === "node-options") run.environment([literal(`NODE_OPTIONS=${value}`)]);
  else npmrcFile(literal(value), run, depth + 1);
}

/** What an npmrc's settings make npm do. */
function npmrcText(text: string, run: Runner, origin: string, depth: number): void {
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*([#;]|\[|$)/.test(line)) continue;
    const m = /^\s*(["']?)([^=]*?)\1\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const value = m[3].replace(/^(["'])(.*)\1$/, "$2");
    npmSetting(m[2].trim().toLowerCase(), value, run, origin, depth);
  }
}

/** An npmrc a setting or option names (`--userconfig F`): read as it will be, else not known. */
function npmrcFile(file: Word, run: Runner, depth: number): void {
  const text = file.kind !== "static" || depth > 3 ? null : run.settings(file.value);
  if (text === null) run.stage([unknownWord(`(the settings of ${file.text})`)], "npm config");
  else npmrcText(text, run, file.value, depth);
}

/** npm's options naming another npmrc (one dash too, as its parser takes long options). */
const NPM_CONFIG_OPTION = /^--?(userconfig|globalconfig)(=|$)/;

/**
 * What npm (pnpm, npx) does by the project's `.npmrc` files (in `cwds`, its own after `--prefix`)
 * and the npmrc files its options name.
 */
export function npmSettings(stage: Stage, run: Runner, cwds: readonly (string | null)[]): void {
  const found = run.projectSettings(".npmrc", cwds);
  if (found === null) run.stage([unknownWord("(the settings of the project's .npmrc)")], ".npmrc");
  for (const f of found ?? []) npmrcText(f.text, run, join(f.dir, ".npmrc"), 0);
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (v === "--") break;
    const m = NPM_CONFIG_OPTION.exec(v);
    if (!m) {
      // Any other long option is a setting too, as an npmrc line (`--node-options=…`,
      // `--logs-dir DIR`): the ones that run or place something are judged.
      const o = /^--?([a-z][\w-]*)(?:=([\s\S]*))?$/i.exec(v);
      const key = o?.[1].toLowerCase();
      if (!o || !key || !packageVariable(`npm_config_${key.replace(/-/g, "_")}`)) continue;
      const value = o[2] !== undefined ? a : args[++i];
      if (!value) continue;
      if (value.kind !== "static") {
        run.stage([unknownWord(`(what npm's ${v} names)`)], "npm option");
      } else {
        npmSetting(
          key,
          o[2] !== undefined ? value.value.slice(value.value.indexOf("=") + 1) : value.value,
          run,
          "npm option",
          0,
        );
      }
      continue;
    }
    const file = m[2] ? (a.kind === "static" ? literal(v.slice(m[0].length)) : a) : args[++i];
    if (file) npmrcFile(file, run, 0);
  }
}

/** `npm_config_KEY=value` (any case, `_` for `-`): npm's settings from its environment. */
const NPM_ENV = /^npm_config_(\w+)$/i;
/** yarn's settings from its environment that run a file (`YARN_YARN_PATH`) or name its rc file. */
const YARN_ENV = /^yarn_(yarn_path|rc_filename)$/i;

/**
 * Whether a variable is a package manager's setting that makes it run a file or write elsewhere
 * (`npm_config_logs_dir`, `YARN_YARN_PATH`).
 */
export function packageVariable(name: string): boolean {
  if (YARN_ENV.test(name)) return true;
  const m = NPM_ENV.exec(name);
  if (!m) return false;
  const key = m[1].toLowerCase().replace(/_/g, "-");
  return NPM_DIRECTORY.test(key) || NPM_PROGRAM.test(key) || NPM_MODULE.test(key) ||
    key === "node-options" || /^(user|global)config$/.test(key);
}

/**
 * `npm_config_logs_dir=DIR` (judged as the npmrc line it stands for), `YARN_YARN_PATH=F` (node
 * runs F), `YARN_RC_FILENAME=F` (settings of a name not looked for: not known).
 */
export function packageVariableSetting(name: string, value: Word, run: Runner): void {
  const origin = `env ${name}`;
  const yarn = YARN_ENV.exec(name)?.[1].toLowerCase();
  if (value.kind !== "static" || yarn === "rc_filename") {
    run.stage([unknownWord(`(what ${name} names)`)], origin);
  } else if (yarn) runsFile(value.value, run, origin);
  else {npmSetting(
      NPM_ENV.exec(name)![1].toLowerCase().replace(/_/g, "-"),
      value.value,
      run,
      origin,
      0,
    );}
}

// ---------------------------------------------------------------------------------------------
// yarn: .yarnrc (yarn 1), .yarnrc.yml (yarn 2 and later)

/** .yarnrc keys (and `--` options in it) whose value is a folder yarn writes below. */
const YARN1_FOLDER =
  /^(--)?([\w-]+\.)?(cache-folder|yarn-offline-mirror|global-folder|prefix|modules-folder|link-folder|preferred-cache-folder)$/;

/** What a yarn 1 `.yarnrc` in `dir` makes yarn do. */
function yarnrcText(text: string, dir: string, run: Runner, depth: number): void {
  const origin = join(dir, ".yarnrc");
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*("?)([^\s"]+)\1\s+(.*?)\s*$/.exec(line);
    if (!m || m[2].startsWith("#")) continue;
    const [key, value] = [m[2], m[3].replace(/^"(.*)"$/, "$1")];
    const seen = key === "yarn-path" || YARN1_FOLDER.test(key) || /script-shell$/.test(key) ||
      /^--([\w-]+\.)?(use-yarnrc|cwd)$/.test(key);
    if (!seen) continue;
    if (INTERPOLATED.test(value) || /(cwd)$/.test(key) || depth > 3) {
      run.stage([unknownWord(`(what ${origin}'s ${key} ${value} names)`)], origin);
    } else if (key === "yarn-path") runsFile(from(dir, value), run, origin);
    else if (/script-shell$/.test(key)) {
      run.stage([literal(value), literal("(its arguments)")], origin);
    } else if (/use-yarnrc$/.test(key)) {
      const nested = run.settings(from(dir, value));
      if (nested === null) run.stage([unknownWord(`(the settings of ${value})`)], origin);
      else yarnrcText(nested, dir, run, depth + 1);
    } else opensFile(from(dir, value), run, origin);
  }
}

/** .yarnrc.yml keys whose value is a folder or file yarn writes (all `…Folder`, `…Path` but one). */
const BERRY_PLACE = /^(\w+Folder|\w+Path|lockfileFilename)$/;

/** What a `.yarnrc.yml` in `dir` makes yarn do: `yarnPath`, `plugins`, its folders. */
function yarnrcYmlText(text: string, dir: string, run: Runner): void {
  const origin = join(dir, ".yarnrc.yml");
  let list = "";
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(#|$)/.test(line)) continue;
    const top = /^([\w-]+)\s*:\s*(.*?)\s*$/.exec(line);
    const item = /^\s+-\s+(?:path\s*:\s*)?(.*?)\s*$/.exec(line) ??
      /^\s+path\s*:\s*(.*?)\s*$/.exec(line);
    if (top) list = top[2] === "" ? top[1] : "";
    const [key, raw] = top ? [top[1], top[2]] : item && list ? [list, item[1]] : ["", ""];
    const value = raw.replace(/\s+#.*$/, "").replace(/^(["'])(.*)\1$/, "$2");
    if (!key || !value || /^spec\s*:/.test(value)) continue;
    const seen = key === "yarnPath" || key === "plugins" || key === "injectEnvironmentFiles" ||
      BERRY_PLACE.test(key);
    if (!seen) continue;
    if (INTERPOLATED.test(value) || /^[[{]/.test(value)) {
      run.stage([unknownWord(`(what ${origin}'s ${key} ${value} names)`)], origin);
    } else if (key === "yarnPath" || key === "plugins") runsFile(from(dir, value), run, origin);
    else opensFile(from(dir, value), run, origin);
  }
}

/** `yarn --use-yarnrc F` (yarn 1): another `.yarnrc` it reads. */
const USE_YARNRC = /^--use-yarnrc(=|$)/;

/** What yarn does by the project's `.yarnrc` and `.yarnrc.yml` files (in `cwds`). */
export function yarnSettings(stage: Stage, run: Runner, cwds: readonly (string | null)[]): void {
  const unknown = (what: string) => run.stage([unknownWord(`(the settings of ${what})`)], "yarn");
  const classic = run.projectSettings(".yarnrc", cwds);
  const berry = run.projectSettings(".yarnrc.yml", cwds);
  if (classic === null || berry === null) unknown("the project's .yarnrc");
  for (const f of classic ?? []) yarnrcText(f.text, f.dir, run, 0);
  for (const f of berry ?? []) yarnrcYmlText(f.text, f.dir, run);
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : args[i].prefix;
    const m = USE_YARNRC.exec(v);
    if (!m) continue;
    const file = m[1] ? literal(v.slice(m[0].length)) : args[++i];
    const text = file?.kind === "static" ? run.settings(file.value) : null;
    if (text === null) unknown(file?.text ?? v);
    else yarnrcText(text, stage.cwds[0] ?? "/", run, 1);
  }
}

// ---------------------------------------------------------------------------------------------
// yt-dlp: yt-dlp.conf

/**
 * The words of a file of options as Python's shlex reads them (POSIX, `#` comments); null when a
 * quote is left open.
 */
export function shlexWords(text: string): string[] | null {
  const out: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (/\s/.test(c)) {
      if (word !== null) out.push(word);
      word = null;
    } else if (c === "#" && word === null) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return null;
      let body = text.slice(i + 1, end);
      if (c === '"') body = body.replace(/\\(["\\$`\n])/g, "$1");
      word = (word ?? "") + body;
      i = end;
    } else if (c === "\\") word = (word ?? "") + (text[++i] ?? "");
    else word = (word ?? "") + c;
  }
  if (word !== null) out.push(word);
  return out;
}

/** The value of yt-dlp's options `names` (`-P X`, `-PX`, `--paths X`, `--paths=X`). */
function ytValues(args: string[], short: string, long: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") break;
    if (a === short || a === long) out.push(args[++i] ?? "");
    else if (a.startsWith(long + "=")) out.push(a.slice(long.length + 1));
    else if (a.startsWith(short) && a.length > 2 && !a.startsWith("--")) out.push(a.slice(2));
  }
  return out;
}

/**
 * What yt-dlp does by the options of its `yt-dlp.conf` (in `-P`'s home, else the cwd; unless
 * `--ignore-config`) and of the files `--config-locations` names: judged as yt-dlp given them.
 */
export function ytDlpSettings(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  if (args.includes(null)) {
    run.stage([unknownWord("(the options of a yt-dlp.conf)")], "yt-dlp.conf");
    return;
  }
  const words = args as string[];
  const ignored = words.some((a) => /^--(ignore-config|no-config)$/.test(a));
  const homes = ytValues(words, "-P", "--paths").filter((p) =>
    !/^[a-z_]+:/i.test(p) || /^home:/.test(p)
  )
    .map((p) => p.replace(/^home:/, ""));
  const files = ignored ? [] : [join(homes.at(-1) ?? "", "yt-dlp.conf")];
  const locations = [
    ...ytValues(words, "--config-locations", "--config-locations"),
    ...ytValues(words, "--config-location", "--config-location"),
  ];
  for (const loc of locations) files.push(loc === "-" ? "" : loc);
  for (const file of files) {
    const text = file === ""
      ? null
      : run.settings(file) ?? (run.settings(join(file, "yt-dlp.conf")) || null);
    const options = text === null ? null : shlexWords(text);
    if (options === null) {
      run.stage([unknownWord(`(the options of ${file || "stdin"})`)], "yt-dlp.conf");
    } else if (options.length) {
      const argv = ["yt-dlp", "--ignore-config", ...options, "(its URL)"];
      run.stage(argv.map(literal), file);
    }
  }
}

/** yt-dlp: the options of its `yt-dlp.conf` and `--config-locations` files. */
export const YT_DLP: Program = {
  names: ["yt-dlp"],
  optionCommands: (stage, run) => {
    ytDlpSettings(stage, run);
    // (The commands its options name: yt_dlp.ts.)
    ytDlpCommands(stage, run);
  },
};
