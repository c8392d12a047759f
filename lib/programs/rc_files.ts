/**
 * Files of settings a variable or an option names that make a package manager or openssl write
 * elsewhere or run code, read as they will be when the command runs: a gemrc (`gem --config-file
 * F`, `GEMRC=F:G`: `gem: --install-dir DIR` and each command's options, judged as gem given them),
 * a condarc (`CONDARC`, `MAMBARC`: `pkgs_dirs`, `envs_dirs`), a pip.conf (`PIP_CONFIG_FILE`, and
 * the environment's own, `.venv/pip.conf` for `.venv/bin/pip`: `target`, `prefix`, `cache-dir`,
 * `log` and the other places it writes, `python`, a program it runs) and an OpenSSL config (`openssl … -config F`, `OPENSSL_CONF`: `RANDFILE`, written back at
 * exit; a CA's `database`, `serial`, `new_certs_dir`; the engines and providers it loads;
 * `.include`). A file that cannot be read as it will be (another stage may write it, a value not
 * known) or a value the program expands (`$VAR`) is a command not known; `/dev/null` and settings
 * that place nothing change nothing.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Program, Runner } from "./spec.ts";
import { shlexWords } from "./project_settings.ts";
import { literal, opensFile, unknownWord } from "./words.ts";
import { gemExec } from "./gem_exec.ts";

/** A file's text as it will be, or null when that cannot be known ("" for `/dev/null`). */
function settingsText(file: Word, run: Runner): string | null {
  if (file.kind !== "static") return null;
  return file.value === "/dev/null" ? "" : run.settings(file.value);
}

/** A command not known, for settings that cannot be read. */
function notKnown(what: string, run: Runner, origin: string): void {
  run.stage([unknownWord(`(what ${what} names)`)], origin);
}

/** A scalar of YAML or INI as written (quotes taken off, a trailing comment dropped). */
function scalar(text: string): string {
  const t = text.trim();
  const q = /^(["'])(.*)\1$/.exec(t);
  return q ? q[2] : t.replace(/\s+#.*$/, "");
}

// ---------------------------------------------------------------------------------------------
// gem: gemrc (YAML)

/**
 * What a gemrc makes gem do: `gem: OPTIONS` (every command) and `COMMAND: OPTIONS`, judged as gem
 * given them (`--install-dir`, `--bindir` are places it writes); `:ssl_client_cert:` and
 * `:ssl_ca_cert:` are files it opens.
 */
function gemrcText(text: string, run: Runner, origin: string): void {
  for (const line of text.split(/\r?\n/)) {
    const m = /^(:?)([\w-]+):?\s*:\s*(.*)$/.exec(line);
    if (!m || !m[3].trim()) continue;
    if (m[1]) {
      if (/^ssl_(client|ca)_cert$/.test(m[2])) opensFile(scalar(m[3]), run, origin);
      continue;
    }
    const words = shlexWords(scalar(m[3]));
    if (words === null) {
      notKnown(`${origin}'s ${m[2]}`, run, origin);
      continue;
    }
    const command = m[2] === "gem" ? [] : [m[2]];
    run.stage(["gem", ...command, "--norc", ...words].map(literal), origin);
  }
}

/** A gemrc the command names: read as it will be, else a command not known. */
function gemrcFile(file: Word, run: Runner, origin: string): void {
  const text = settingsText(file, run);
  if (text === null) notKnown(`the gemrc ${file.text}`, run, origin);
  else gemrcText(text, run, origin);
}

/** `gem … --config-file F` (`--config-file=F`, anywhere in its words): what F makes gem do. */
export function gemSettings(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (v === "--") break;
    const m = /^--config-file(=|$)/.exec(v);
    if (!m) continue;
    const at = m[0].length;
    const file = m[1] ? { ...a, value: a.value.slice(at), prefix: a.prefix.slice(at) } : args[++i];
    if (file) gemrcFile(file, run, "gem --config-file");
  }
}

// ---------------------------------------------------------------------------------------------
// conda: condarc (YAML)

/** condarc keys whose values are places conda writes below (a list, or one). */
const CONDA_PLACES = /^(pkgs_dirs|envs_dirs|envs_path|root_prefix|default_prefix)$/;
/** condarc keys whose value is a file it opens. */
const CONDA_FILES = /^(client_ssl_cert|client_ssl_cert_key|ssl_verify)$/;

/** What a condarc makes conda (mamba) write or open. */
function condarcText(text: string, run: Runner, origin: string): void {
  let list = false;
  const place = (raw: string) => {
    const value = scalar(raw);
    if (/^(true|false)$/i.test(value)) return;
    if (value.includes("$")) notKnown(`${origin}'s ${value}`, run, origin);
    else opensFile(value, run, origin);
  };
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(#|$)/.test(line)) continue;
    const top = /^([\w-]+)\s*:\s*(.*)$/.exec(line);
    if (top) {
      list = CONDA_PLACES.test(top[1]) && !top[2].trim();
      const inline = /^\[(.*)\]$/.exec(top[2].trim());
      const named = CONDA_PLACES.test(top[1]) || CONDA_FILES.test(top[1]);
      if (named && inline) { for (const v of inline[1].split(",")) place(v); }
      else if (named && top[2].trim()) place(top[2]);
      continue;
    }
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (list && item) place(item[1]);
  }
}

// ---------------------------------------------------------------------------------------------
// pip: pip.conf (INI)

/** pip.conf keys (its long options) whose value is a place it writes. */
const PIP_PLACES = /^(target|prefix|root|cache-dir|log|log-file|src|report|wheel-dir|dest|d|t)$/;

/** What a pip.conf makes pip write or run: its places, and `python`, the interpreter it runs. */
function pipConfText(text: string, run: Runner, origin: string): void {
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([\w-]+)\s*[=:]\s*(.*?)\s*$/.exec(line);
    if (!m || /^\s*[#;[]/.test(line)) continue;
    const key = m[1].toLowerCase().replace(/_/g, "-");
    if (!PIP_PLACES.test(key) && key !== "python") continue;
    if (m[2].includes("$")) notKnown(`${origin}'s ${key}`, run, origin);
    else if (key === "python") run.stage([literal(m[2]), literal("(its arguments)")], origin);
    else opensFile(m[2], run, origin);
  }
}

/** A pip or python given by its path in an environment's `bin` (`.venv/bin/pip3`): X of X/bin. */
const ENV_BIN = /^(.*[^/])\/+bin\/+(pip|python)[\d.]*$/;

/** A variable as the stage finds it: set before it (null: not known), else the environment's. */
function assigned(stage: Stage, run: Runner, name: string): string | null | undefined {
  const a = stage.assignments?.findLast((w) => w.value.startsWith(`${name}=`));
  if (!a) return run.variable(name);
  return a.kind === "static" ? a.value.slice(name.length + 1) : null;
}

/**
 * The pip.conf files pip reads besides `PIP_CONFIG_FILE`'s, as they will be when the command
 * runs (`pip install`, `python -m pip`): its environment's, `sys.prefix/pip.conf` (X's of
 * `X/bin/pip` or `X/bin/python -m pip` where X is a virtual environment, else `$VIRTUAL_ENV`'s
 * as the command or the tool's environment sets it), judged as `PIP_CONFIG_FILE`'s (a project's
 * `.venv/pip.conf` with `target = ~/.ssh`); the user's and the system's
 * (`~/.config/pip/pip.conf`, `~/.pip/pip.conf`, `/etc/pip.conf`, `/etc/xdg/pip/pip.conf`): the
 * user's own, not known only where another stage of the command may write them first.
 * `PIP_CONFIG_FILE=/dev/null` makes pip read none.
 */
export function pipSiteSettings(stage: Stage, run: Runner): void {
  if (assigned(stage, run, "PIP_CONFIG_FILE") === "/dev/null") return;
  const program = stage.argv[0];
  const bin = program?.kind === "static" ? ENV_BIN.exec(program.value) : null;
  let prefix: string | null | undefined;
  if (bin && run.settings(`${bin[1]}/pyvenv.cfg`) !== "") prefix = bin[1];
  else if (!program?.value.includes("/")) prefix = assigned(stage, run, "VIRTUAL_ENV");
  if (prefix === null || prefix?.includes("$")) notKnown("VIRTUAL_ENV", run, "pip");
  else if (prefix) {
    const file = `${prefix.replace(/\/+$/, "")}/pip.conf`;
    const text = run.settings(file);
    if (text === null) notKnown(`the settings ${file}`, run, "pip");
    else if (text) pipConfText(text, run, file);
  }
  const home = run.home(null);
  const xdg = run.variable("XDG_CONFIG_HOME") || (home && `${home}/.config`);
  const own = [xdg && `${xdg}/pip/pip.conf`, home && `${home}/.pip/pip.conf`];
  for (const file of [...own, "/etc/pip.conf", "/etc/xdg/pip/pip.conf"]) {
    if (file && run.settings(file) === null) notKnown(`the settings ${file}`, run, "pip");
  }
}

// ---------------------------------------------------------------------------------------------
// openssl: openssl.cnf

/** OpenSSL config keys naming a file or directory it writes or opens (a CA's files, RANDFILE). */
const OPENSSL_FILES =
  /^(RANDFILE|dir|database|new_certs_dir|serial|crlnumber|certificate|private_key|certs|crl_dir|crl|oid_file)$/;
/** ... and the shared objects it loads (an engine's, a provider's). */
const OPENSSL_CODE = /^(dynamic_path|module|MODULE_PATH)$/;

/**
 * A value with OpenSSL's `$name`, `${name}`, `$section::name` expanded from what the file set so
 * far (the section's own, else the default section's); null when one is not known.
 */
function opensslValue(
  value: string,
  sections: Map<string, Map<string, string>>,
  section: string,
): string | null {
  let known = true;
  const out = value.replace(
    /\$(?:\{([\w.]+)(?:::([\w.]+))?\}|([\w.]+)(?:::([\w.]+))?)/g,
    (_, a, b, c, d) => {
      const [s, k] = (b ?? d) ? [a ?? c, b ?? d] : [null, a ?? c];
      const found = s !== null
        ? sections.get(s)?.get(k)
        : sections.get(section)?.get(k) ?? sections.get("")?.get(k);
      if (found === undefined) known = false;
      return found ?? "";
    },
  );
  return known ? out : null;
}

/** What an OpenSSL config makes openssl write, open or load (`depth`: includes so far). */
function opensslText(text: string, run: Runner, origin: string, depth: number): void {
  const sections = new Map<string, Map<string, string>>([["", new Map()]]);
  let section = "";
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(#|$)/.test(line)) continue;
    const head = /^\s*\[\s*([^\]]*?)\s*\]/.exec(line);
    if (head) {
      section = head[1];
      if (!sections.has(section)) sections.set(section, new Map());
      continue;
    }
    const include = /^\s*\.include\s*=?\s*(.*?)\s*$/.exec(line);
    const m = include ? null : /^\s*([\w.]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!include && !m) continue;
    const raw = include ? include[1] : scalar(m![2]).replace(/\s+#.*$/, "");
    const value = opensslValue(raw, sections, section);
    if (m) sections.get(section)!.set(m[1], value ?? raw);
    const key = m?.[1] ?? ".include";
    if (!include && !OPENSSL_FILES.test(key) && !OPENSSL_CODE.test(key)) continue;
    if (value === null) {
      notKnown(`${origin}'s ${key} = ${raw}`, run, origin);
      continue;
    }
    // (A relative path is the cwd's, as openssl opens it.)
    if (include) opensslFile(literal(value), run, origin, depth + 1);
    else if (OPENSSL_CODE.test(key)) run.stage([literal(value), literal("(its code)")], origin);
    else opensFile(value, run, origin);
  }
}

/** An OpenSSL config file (or directory of them, for `.include`), read as it will be. */
function opensslFile(file: Word, run: Runner, origin: string, depth: number): void {
  const text = depth > 3 ? null : settingsText(file, run);
  if (text === null) notKnown(`the OpenSSL config ${file.text}`, run, origin);
  else opensslText(text, run, origin, depth);
}

/** `openssl CMD … -config F` (also `--config`, `-config=F`): what F makes openssl do. */
export function opensslSettings(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    const m = /^--?config(=|$)/.exec(v);
    if (!m) continue;
    const at = m[0].length;
    const file = m[1] ? { ...a, value: a.value.slice(at), prefix: a.prefix.slice(at) } : args[++i];
    if (file) opensslFile(file, run, "openssl -config", 0);
  }
}

// ---------------------------------------------------------------------------------------------

/** The variables naming such a file, and how each is read. */
const READERS: Record<string, (text: string, run: Runner, origin: string) => void> = {
  GEMRC: gemrcText,
  CONDARC: condarcText,
  MAMBARC: condarcText,
  PIP_CONFIG_FILE: pipConfText,
};

/**
 * `GEMRC=F:G`, `CONDARC=F`, `PIP_CONFIG_FILE=F`, `OPENSSL_CONF=F`: what the files they name make
 * their programs do (GEMRC's list each).
 */
export function rcVariable(variable: string, file: Word, run: Runner): void {
  const origin = `env ${variable}`;
  if (variable === "OPENSSL_CONF") {
    opensslFile(file, run, origin, 0);
    return;
  }
  const files = variable === "GEMRC" && file.kind === "static"
    ? file.value.split(":").filter(Boolean).map(literal)
    : [file];
  for (const f of files) {
    const text = settingsText(f, run);
    if (text === null) notKnown(`the settings ${f.text}`, run, origin);
    else READERS[variable](text, run, origin);
  }
}

/** The variables `rcVariable` reads. */
export const RC_FILE_ENV = /^(GEMRC|CONDARC|MAMBARC|PIP_CONFIG_FILE|OPENSSL_CONF)$/;

/** gem and openssl: the settings files their options name. */
export const RC_FILE_PROGRAMS: Program[] = [
  // (And the command `gem exec` runs: gem_exec.ts.)
  {
    names: ["gem"],
    optionCommands: (stage, run) => {
      gemSettings(stage, run);
      gemExec(stage, run);
    },
  },
  { names: ["openssl"], optionCommands: opensslSettings },
];
