/**
 * Downloaders name the files they write after what they fetch: `wget URL` writes the URL's base
 * name (below `-P DIR`), `curl -O URL` too (below `--output-dir DIR`, which `-o NAME` is below as
 * well), aria2c below `-d DIR` (as `-o NAME`); wget's `-e`/`--execute` settings (its settings in
 * order: `wget_files.ts`) and curl's `-w '%output{FILE}'` (its format read from `@FILE` or `@-`
 * too) name files of their own. Their `namedFiles` are those paths.
 *
 * @example
 * ```ts
 * import { downloadedFiles } from "./downloaders.ts";
 * const w = (v: string) => ({ value: v, kind: "static" as const, prefix: v, text: v });
 * downloadedFiles(["wget", "-P", ".pi", "http://x/settings.json"].map(w)).map((f) => f.path);
 * // [".pi/settings.json"]
 * ```
 *
 * @module
 */
import { basename } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import type { NamedFile, NamedFilesGiven, Program, Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";
import { gluedStart } from "./argv.ts";
import { fileCommands, input, opens } from "./databases.ts";
import { WGET_GRAMMAR, wgetStartupFiles, wgetText, wgetWord } from "./wget_options.ts";
import { URL_PATH, urlName } from "./curl_files.ts";
import { wgetFiles } from "./wget_files.ts";
import { wgetrcSetting } from "./wget_settings.ts";
import {
  CURL_GRAMMAR,
  curlOperationFiles,
  curlOptions,
  curlText,
  curlWord,
} from "./curl_operations.ts";
import { machineUrlFile } from "./machine_urls.ts";

/** A value of `--name=value`, `-Xvalue` or `-X value` at `i` (and how many words it took). */
function valueOf(args: Word[], i: number, long: string, short: string): [string, number] | null {
  const v = args[i].value;
  if (v === long || (short && v === short)) return args[i + 1] ? [args[i + 1].value, 2] : null;
  if (v.startsWith(long + "=")) return [v.slice(long.length + 1), 1];
  if (short && v.startsWith(short) && v.length > 2 && !v.startsWith("--")) return [v.slice(2), 1];
  return null;
}

/** The files a downloader writes (see the module). A name a server chooses (`-J`) is not known. */
export function downloadedFiles(
  argv: Word[],
  stage?: Stage,
  given?: NamedFilesGiven,
): NamedFile[] {
  const name = basename(argv[0]?.value ?? "");
  // (curl's words are read by operation: curl_operations.ts; wget's by setting: wget_files.ts.)
  if (name === "curl") {
    return curlOperationFiles(argv.slice(1).map(curlWord), { stage, read: given?.read });
  }
  if (name === "wget" || name === "wget2") return wgetFiles(argv.slice(1), name === "wget2");
  const args = argv.slice(1);
  let dir: string | null = null;
  let out: string | null = null;
  const urls: string[] = [];
  // (The login aria2c's `--ftp-user` names.)
  let user: string | undefined;
  const files: NamedFile[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.kind !== "static") continue;
    const v = w.value;
    let got: [string, number] | null;
    if ((got = valueOf(args, i, "--dir", "-d"))) dir = got[0];
    else if ((got = valueOf(args, i, "--out", "-o"))) out = got[0];
    else if (
      name === "aria2c" &&
      ((got = valueOf(args, i, "--input-file", "-i")) ??
        (got = valueOf(args, i, "--conf-path", "")) ??
        (got = valueOf(args, i, "--torrent-file", "-T")) ??
        (got = valueOf(args, i, "--metalink-file", "-M")))
    ) {
      // (A list of URLs with `dir=`/`out=` of their own, options, a torrent's or metalink's names.)
      files.push({ path: null, source: `${w.text} (names a file of aria2c's chooses)` });
    } else if (name === "aria2c" && /\.(torrent|meta4|metalink)$/.test(v)) {
      files.push({ path: null, source: `${v} (the names it lists)` });
    }
    const login = valueOf(args, i, "--ftp-user", "");
    if (login) user = login[0];
    if (got) {
      i += got[1] - 1;
      continue;
    }
    if (!v.startsWith("-") && URL_PATH.test(v)) urls.push(v);
  }
  // (An `sftp://` or `ftp://` URL of this machine names a file of its own: machine_urls.ts.)
  for (const u of urls) {
    const f = machineUrlFile(u, u, user);
    if (f) files.push(f);
  }
  if (out !== null && dir !== null) files.push({ path: `${dir}/${out}`, source: out });
  // (aria2c takes the name a server gives, Content-Disposition, where `-o` names none; else the
  // URL's.)
  if (name === "aria2c" && out === null) {
    files.push({ path: dir ?? ".", source: "(a name the server chooses)", below: true });
  }
  for (const u of out === null ? urls : []) {
    const file = urlName(u);
    if (file !== null) files.push({ path: dir === null ? file : `${dir}/${file}`, source: u });
  }
  return files;
}

/**
 * Downloaders that save under a name the server gives (Content-Disposition) or the URL's: axel
 * below `-o DIR` (or as `-o FILE`), HTTPie's and xh's `--download` below the cwd unless `-o FILE`
 * names it; without `--download`, `-o FILE` is the file they write.
 */
export function serverNamedFiles(argv: Word[]): NamedFile[] {
  const name = basename(argv[0]?.value ?? "");
  // (axel's getopt_long and HTTPie's argparse take a long name abbreviated: `--out F`, `--down`.)
  const args = argv.slice(1).map((w) => {
    const m = w.kind === "static" ? /^(--[\w-]{2,})(=.*)?$/s.exec(w.value) : null;
    const full = m && ["--output", "--download"].find((o) => o.startsWith(m[1]));
    return full && full !== m[1] ? literal(full + (m[2] ?? "")) : w;
  });
  let out: string | null | undefined;
  let download = name === "axel";
  let operand = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : null;
    let got: [string, number] | null;
    if (v === null) operand = true;
    else if ((got = valueOf(args, i, "--output", "-o"))) {
      out = args[i + got[1] - 1].kind === "static" ? got[0] : null;
      i += got[1] - 1;
    } else if (v === "--download" || (name !== "axel" && /^-[a-zA-Z]*d/.test(v))) download = true;
    else if (!v.startsWith("-")) operand = true;
  }
  const source = `(what ${name} downloads)`;
  if (out !== undefined) {
    return [{ path: out, source }, ...(out === null ? [] : [{ path: out, source, below: true }])];
  }
  return download && operand
    ? [{ path: ".", source: `${source}: a name the server chooses`, below: true }]
    : [];
}

/** wget's short options that take a value (1.21's `wget --help`): the rest of a cluster, or the next word. */
const WGET_VALUED = "ABDIOPQRTUXaeilnotw";

/**
 * Whether a word not known with this known start may be `--execute`'s or `--use-askpass`'s
 * (`-qe"$X"`, `--use-a=$P`, `-q$X`), not another option's value (`-U"Firefox $V"`).
 */
function mayExecute(prefix: string): boolean {
  const glued = gluedStart(prefix, WGET_GRAMMAR, wgetWord);
  if (glued) return /^(-e|--execute|--use-askpass)$/.test(glued.name);
  if (prefix.startsWith("--")) {
    const name = prefix.replace(/=.*$/s, "");
    return ["--execute", "--use-askpass"].some((o) => o.startsWith(name)) ||
      /^--(ex|use-a)/.test(name);
  }
  return /^-[a-zA-Z0-9]*$/.test(prefix) && prefix !== "";
}

/**
 * The programs wget runs by its options: the askpass program of `--use-askpass=PROG` (or `-e
 * use_askpass=PROG`, also glued in a cluster, `-qeuse_askpass=PROG`; long names abbreviated as
 * getopt_long takes them, `--use-a=PROG`), given the prompt. (A wgetrc of its choosing,
 * `--config=FILE`, may name one: where it writes is not known already, so it is asked about.)
 */
function wgetCommands(stage: Stage, run: Runner): void {
  wgetStartupFiles(stage, run);
  const args = stage.argv.slice(1);
  const askpass = (value: Word) => run.command(value, "program", "wget --use-askpass");
  // (wget2's plugins: code it loads, a file or a name found in directories.)
  const plugin = (value: Word) =>
    run.stage([unknownWord(`(the plugin ${value.text} wget2 loads)`)], "wget2 --plugin");
  const execute = (given: Word) => {
    const setting = given.kind === "static" ? wgetrcSetting(given.value) : null;
    if (given.kind !== "static") askpass(unknownWord(given.text));
    else if (setting?.[0] === "useaskpass") askpass(literal(setting[1]));
    else if (/^(plugin|localplugin|plugindirs)$/.test(setting?.[0] ?? "")) plugin(given);
  };
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.kind !== "static") {
      // (`--use-askpass=$P`, `-e "$X"`, `-qe"$X"`, `-q$X`: a program not known; not `-U"Fire $V"`.)
      if (mayExecute(w.prefix)) askpass(unknownWord(w.text));
      continue;
    }
    const v = w.value;
    if (v === "--") break;
    if (v.startsWith("--")) {
      // (getopt_long takes a prefix of a name: `--use-a=PROG`, `--exec CMD`.)
      const eq = v.indexOf("=");
      const name = eq < 0 ? v : v.slice(0, eq);
      const opt = name.length > 2 && "--use-askpass".startsWith(name)
        ? askpass
        : name.length > 2 && "--execute".startsWith(name)
        ? execute
        : /^--(plugin|plugin-dirs|local-plugin)$/.test(wgetWord(name))
        ? plugin
        : null;
      if (opt === null) continue;
      const given = eq >= 0 ? literal(v.slice(eq + 1)) : args[++i];
      if (given) opt(given);
    } else if (/^-[^-]/.test(v)) {
      // A cluster: its first letter that takes a value takes the rest, or the next word.
      for (let k = 1; k < v.length; k++) {
        if (!WGET_VALUED.includes(v[k])) continue;
        const given = k + 1 < v.length ? literal(v.slice(k + 1)) : args[++i];
        if (v[k] === "e" && given) execute(given);
        break;
      }
    }
  }
}

/**
 * A config line: `--opt value`, `opt = value`, `opt: value`, `opt value` or the option alone
 * (curl skips any run of blanks, `=` and `:` after the name: `output == f`, `opt :=: f`).
 */
const CURL_LINE = /^\s*(?:--)?([A-Za-z][\w-]*)[\s=:]*(.*)$/;

/** A config line's value: double-quoted with curl's escapes, else up to the first blank. */
function curlValue(text: string): string | null {
  if (!text.startsWith('"')) return text.split(/\s/)[0];
  let out = "";
  for (let i = 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') return out;
    if (c !== "\\") out += c;
    else {out += ({ t: "\t", n: "\n", r: "\r", v: "\v" } as Record<string, string>)[text[++i]] ??
        text[i] ?? "";}
  }
  return null;
}

/** The words a curl config text stands for on the command line (null: a line not read). */
export function curlConfigWords(text: string): Word[] | null {
  const out: Word[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (/^-[A-Za-z]/.test(line)) {
      // (A short option: `-o file`, its value after a blank.)
      const [opt, ...rest] = line.split(/\s+/);
      const value = rest.length ? curlValue(rest.join(" ")) : null;
      out.push(literal(opt), ...(value === null ? [] : [literal(value)]));
      continue;
    }
    const m = CURL_LINE.exec(line);
    if (!m) return null;
    const value = m[2] === "" ? null : curlValue(m[2]);
    if (m[2] !== "" && value === null) return null;
    out.push(literal("--" + m[1]), ...(value === null ? [] : [literal(value)]));
  }
  return out;
}

/**
 * A config file of a curl command line (`-K FILE`, `-sKFILE`, `-#K FILE`, `--conf FILE`; null: a
 * word not known), and the words it takes: from `at` to `end`, the cluster's letters before the
 * `K` left as `before`.
 */
interface CurlConfig {
  file: Word | null;
  at: number;
  end: number;
  before: Word[];
}

/** The config files of a curl command line (see `CurlConfig`). */
function curlConfigs(args: Word[]): CurlConfig[] {
  const out: CurlConfig[] = [];
  for (const t of curlOptions(args)) {
    const w = args[t.at];
    if (t.kind === "dynamic") {
      // (`-sK"$F"`, `--con$X`: a config may be named.)
      if (/^(-[^-]*K|--(c(o(n(f(i(g)?)?)?)?)?)?$)/i.test(w.prefix)) {
        out.push({ file: null, at: t.at, end: t.at + 1, before: [] });
      }
    } else if (t.kind === "valued" && (t.name === "-K" || t.name === "--config")) {
      const v = w.value;
      const letters = t.name === "-K" ? v.slice(0, v.length - (t.glued?.length ?? 0) - 1) : "-";
      out.push({
        file: t.glued !== undefined
          ? literal(v.slice(-t.glued.length))
          : t.valueAt === undefined
          ? null
          : args[t.valueAt],
        at: t.at,
        end: t.valueAt === undefined ? t.at + 1 : t.valueAt + 1,
        before: letters === "-" ? [] : [literal(letters)],
      });
    }
  }
  return out;
}

/**
 * curl's config files (`-K FILE`, `-K -` for standard input): their lines are options of the
 * same operation as the command line's, judged as curl given them where `-K` is
 * (`upload-file = ~/.ssh/id_rsa`; `remote-name` with the command line's URL), a config they name
 * in its place in turn. A file read as it will be when the command runs, a here-document, what
 * `echo` pipes in; one not known is a command not known.
 */
function curlCommands(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  if (curlConfigs(args).length) {
    // (`-q` first: the default config is judged once, with the command line as given.)
    const q = args[0]?.kind === "static" && args[0].value.startsWith("-q") ? [] : [literal("-q")];
    for (const words of withConfigs(args, stage, run, 0)) {
      run.stage([stage.argv[0], ...q, ...words], CURL_CONFIG);
    }
  }
  curlrc(stage, run);
}

const CURL_CONFIG = "curl --config";
/** How deep curl's config files may name more before it is not known; how many ways they read. */
const CURL_CONFIG_DEPTH = 4;
const CURL_CONFIG_WAYS = 16;

/**
 * curl's words with the options of their configs in place of each `-K FILE` (each way a piped
 * text may be); a config not known is a stage not known, its options left out.
 */
function withConfigs(args: Word[], stage: Stage, run: Runner, depth: number): Word[][] {
  const configs = curlConfigs(args);
  if (!configs.length) return [args];
  let ways: Word[][] = [[]];
  let from = 0;
  for (const c of configs) {
    const parts: Word[][] = [];
    const given = (text: string) => {
      const words = curlConfigWords(text);
      if (words === null || depth >= CURL_CONFIG_DEPTH) {
        run.stage([unknownWord("(the options of a curl config)")], CURL_CONFIG);
      } else parts.push(...withConfigs(words, stage, run, depth + 1));
    };
    if (c.file === null) run.stage([unknownWord("(a curl config not known)")], CURL_CONFIG);
    else if (c.file.kind === "static" && c.file.value === "-") {
      input(stage, run, CURL_CONFIG, given);
    } else {
      // (A config a config names is read as the command line's `-K FILE` is: a file it opens.)
      if (depth > 0 && c.file.kind === "static") opens(c.file.value, run, CURL_CONFIG);
      fileCommands(c.file, run, CURL_CONFIG, given);
    }
    if (!parts.length) parts.push([]);
    const before = [...args.slice(from, c.at), ...c.before];
    ways = ways.flatMap((w) => parts.map((p) => [...w, ...before, ...p]))
      .slice(0, CURL_CONFIG_WAYS);
    from = c.end;
  }
  return ways.map((w) => [...w, ...args.slice(from)]);
}

/**
 * curl's default config (unless its first word is `-q…` or `--disable`): `~/.curlrc`, else
 * `~/.config/curlrc` (where `CURL_HOME` and `XDG_CONFIG_HOME` do not say otherwise: a stage that
 * sets them runs code not known, env.ts). Its options are judged as curl given them before its
 * own words (`-q` first, so it is not read again); one not known is a command not known.
 */
function curlrc(stage: Stage, run: Runner): void {
  const first = stage.argv[1];
  if (first?.kind === "static" && (first.value.startsWith("-q") || first.value === "--disable")) {
    return;
  }
  const home = run.home(null);
  for (const path of [`${home}/.curlrc`, `${home}/.config/curlrc`]) {
    const text = home === null ? null : run.settings(path);
    const words = text === null ? null : curlConfigWords(text);
    if (words === null) {
      run.stage([unknownWord(`(the options of ${path})`)], "curlrc");
      return;
    }
    if (words.length) {
      run.stage([stage.argv[0], literal("-q"), ...words, ...stage.argv.slice(1)], "curlrc");
      return;
    }
  }
}

/** The downloaders. */
export const DOWNLOADER_PROGRAMS: Program[] = [
  {
    names: ["wget", "wget2"],
    options: WGET_GRAMMAR,
    text: wgetText,
    namedFiles: downloadedFiles,
    optionCommands: wgetCommands,
  },
  {
    names: ["curl"],
    options: CURL_GRAMMAR,
    text: curlText,
    namedFiles: downloadedFiles,
    optionCommands: curlCommands,
  },
  // (And HTTPie's and xh's downloads: httpie.ts, with the files their request items read.)
  { names: ["axel"], namedFiles: serverNamedFiles },
];
