/**
 * What is known about environment variables: which ones carry a command some program runs
 * (`PAGER`, `GIT_SSH_COMMAND`, `PROMPT_COMMAND`), which make a program load other code
 * (`LD_PRELOAD`, `NODE_OPTIONS`), and which cannot make a read-only command do more (`LANG`,
 * `TZ`). The one home of these facts: the expansion, the rule forms and the preset read them here.
 *
 * @example
 * ```ts
 * import { carriesCommand } from "./env.ts";
 * carriesCommand("PAGER=less -R"); // true
 * carriesCommand("LANG=C"); // false
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { literal } from "./words.ts";
import { arithmeticNames, withoutQuotedData } from "../shell/walk_values.ts";
import { packageVariable } from "./project_settings.ts";

/**
 * Environment variables whose value is a shell command some program runs: pagers, editors, ssh
 * commands, less's input filters, bash's prompt command.
 */
export const SHELL_ENV: ReadonlySet<string> = new Set([
  "PAGER",
  "GIT_PAGER",
  "MANPAGER",
  "SYSTEMD_PAGER",
  "GH_PAGER",
  "BAT_PAGER",
  "DELTA_PAGER",
  "PSQL_PAGER",
  "PERF_PAGER",
  // ack's pagers (`$ACK_PAGER_COLOR` where it prints in colour).
  "ACK_PAGER",
  "ACK_PAGER_COLOR",
  "EDITOR",
  "VISUAL",
  "GIT_EDITOR",
  // svn's editor (a shell line given the message file) and its merge tool.
  "SVN_EDITOR",
  "SVN_MERGE",
  "GIT_SEQUENCE_EDITOR",
  "SUDO_EDITOR",
  "GH_EDITOR",
  "FCEDIT",
  "GIT_SSH_COMMAND",
  "RSYNC_RSH",
  // just's chooser (`just --choose`), run with `sh -cu`.
  "JUST_CHOOSER",
  // rsync's daemon connections, svn's ssh tunnel.
  "RSYNC_CONNECT_PROG",
  "SVN_SSH",
  "PROMPT_COMMAND",
  "LESSOPEN",
  "LESSCLOSE",
  // less's global tags command (`-t TAG` runs `CMD -x TAG`) and its editor prototype (`v`).
  "LESSGLOBALTAGS",
  "LESSEDIT",
  // man -H, xdg-open and others run it with the URL.
  "BROWSER",
  // kubectl diff runs it with two directories; GNU parallel runs it as its ssh.
  "KUBECTL_EXTERNAL_DIFF",
  "PARALLEL_SSH",
]);
/** Environment variables whose value is a program some program runs (with arguments of its own). */
export const PROGRAM_ENV: ReadonlySet<string> = new Set([
  "GIT_SSH",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "GIT_EXTERNAL_DIFF",
  "GIT_PROXY_COMMAND",
  "CVS_RSH",
  // cargo's rustc, rustdoc and their wrappers (`CARGO_BUILD_…`: its `build.rustc`, …), and the
  // cargo cargo's subcommands and build scripts run.
  "RUSTC_WRAPPER",
  "RUSTC",
  "RUSTDOC",
  "CARGO_BUILD_RUSTC",
  "CARGO_BUILD_RUSTDOC",
  "CARGO_BUILD_RUSTC_WRAPPER",
  "CARGO",
  "npm_config_script_shell",
  "NPM_CONFIG_SCRIPT_SHELL",
  // less's file name expander; the shell less (and flock -c, parallel, script, sudo -s, …)
  // runs commands with (`$SHELL -c`: less's LESSOPEN and LESSCLOSE too).
  "LESSECHO",
  "SHELL",
]);
/**
 * Environment variables that make a program run commands from elsewhere: a file bash or sh
 * sources first; git settings (which can hold commands), git's own programs, another repository
 * or config directory (its hooks and settings), a template directory (hooks `git init` installs);
 * the directories programs are found in (`PATH=. ls` runs `./ls`) and bash's own tables of
 * command paths and aliases (`BASH_CMDS[ls]=/bin/rm`, as `hash -p` sets);
 * options read from the environment that can name commands (`MAKEFLAGS=--eval=…`,
 * `TAR_OPTIONS=--to-command=…`, `ZIPOPT=-TT…`, GNU parallel's `PARALLEL=--limit CMD`); psql's
 * start-up file (its `\!` runs commands); files of settings that name commands or where a program
 * writes (wget's `WGETRC` and `SYSTEM_WGETRC`, wget2's `WGET2RC` and `SYSTEM_WGET2RC`:
 * `output_document`, `use_askpass`; Mercurial's `HGRCPATH`: hooks), and
 * the directories programs find them in (`XDG_CONFIG_HOME`, `XDG_CONFIG_DIRS` and
 * `XDG_DATA_DIRS`: pip's `pip/pip.conf`, nvim's plugins; openssl's engines and providers): `HOME`
 * (`~/.gitconfig`'s `core.fsmonitor`, `~/.hgrc`'s hooks, `~/.kube/config`'s `exec`, `~/.curlrc`'s
 * `output`, `~/.npmrc`, `~/.gdbinit`, …),
 * `CURL_HOME`, `CARGO_HOME` (`config.toml`'s runners and wrappers), `GH_CONFIG_DIR`,
 * `PYTHONUSERBASE` (the user site's `.pth` files run code), less's lesskey files (`LESSKEYIN`, `LESSKEY`, …); and
 * `HISTFILESIZE`, whose assignment truncates the history file (`$HISTFILE`, a link followed);
 * rclone's and miniserve's options from the environment (`RCLONE_COPY_LINKS`, `MINISERVE_…`);
 * pytest's options (`PYTEST_ADDOPTS=--basetemp=.pi` removed `.pi`), cargo's credential providers
 * (commands), man's `MANROFFOPT` (`-U`: groff runs a page's `.sy` requests), and git's work tree
 * and object store (`GIT_WORK_TREE=.pi; git reset --hard` writes anything below it; the objects it
 * reads in place of others, `GIT_REPLACE_REF_BASE`, `GIT_GRAFT_FILE`), and where
 * gcc finds the programs it runs (`COMPILER_PATH`, `GCC_EXEC_PREFIX`), the options clang and gcc
 * take from the environment (clang's `CCC_OVERRIDE_OPTIONS='#+-Wl,-o,F'` adds, edits and removes
 * its options; gcc's `GCC_COMPARE_DEBUG` compiles again with the options it holds), perf's settings
 * file and where it finds its own programs (`PERF_CONFIG`: `annotate.objdump`; `PERF_EXEC_PATH`),
 * ack's settings file and options (`ACKRC`, `ACK_OPTIONS`: `--pager=CMD`), go's settings file
 * (`GOENV`: `GOFLAGS=-toolexec=PROG`, `CC`), and how less quotes the file names it puts in the
 * commands it runs (`LESSMETAESCAPE`, `LESSMETACHARS`: a name becomes shell text).
 * (The places programs write where a variable says are `PLACE_ENV`.)
 */
export const CODE_ENV =
  /^(PATH|BASH_CMDS|BASH_ALIASES|BASH_ENV|ENV|GIT_CONFIG_PARAMETERS|GIT_CONFIG_COUNT|GIT_CONFIG_(KEY|VALUE)_\d+|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|GIT_CONFIG|GIT_EXEC_PATH|GIT_DIR|GIT_WORK_TREE|GIT_COMMON_DIR|GIT_OBJECT_DIRECTORY|GIT_ALTERNATE_OBJECT_DIRECTORIES|GIT_REPLACE_REF_BASE|GIT_GRAFT_FILE|GIT_TEMPLATE_DIR|XDG_CONFIG_HOME|XDG_CONFIG_DIRS|XDG_DATA_DIRS|OPENSSL_ENGINES|OPENSSL_MODULES|MAKEFLAGS|MFLAGS|GNUMAKEFLAGS|TAR_OPTIONS|ZIPOPT|PSQLRC|MANOPT|(SYSTEM_)?WGET2?RC|HGRCPATH|PARALLEL|BASHOPTS|SHELLOPTS|HOME|CURL_HOME|CARGO_HOME|GH_CONFIG_DIR|PYTHONUSERBASE|LESSKEYIN|LESSKEY|LESSKEY_SRC|LESSKEY_CONTENT|LESSKEYIN_SYSTEM|LESSKEY_SYSTEM|LESSKEY_CONTENT_SYSTEM|HISTFILESIZE|RCLONE_\w+|MINISERVE_\w+|PYTEST_ADDOPTS|COVERAGE_RCFILE|CARGO_REGISTR\w*_CREDENTIAL_PROVIDERS?|CARGO_CREDENTIAL_ALIAS_\w+|GOENV|MANROFFOPT|COMPILER_PATH|GCC_EXEC_PREFIX|CCC_OVERRIDE_OPTIONS|GCC_COMPARE_DEBUG|PERF_CONFIG|PERF_EXEC_PATH|ACKRC|ACK_OPTIONS|LESSMETAESCAPE|LESSMETACHARS)$/;
/**
 * Variables naming a place programs write below or to, wherever the variable is set (before the
 * program, exported first, alone): the XDG base directories for caches, state and data
 * (`XDG_CACHE_HOME=.pi ruff check` writes `.pi/ruff/…`), the temporary directory (`TMPDIR`,
 * `TMP`, `TEMP`), build and test tools' outputs and caches (`CARGO_TARGET_DIR`,
 * `CARGO_INSTALL_ROOT`, `GOBIN`, `GOCACHE`, `NODE_V8_COVERAGE`, `COVERAGE_FILE`, `DENO_DIR`,
 * `RUFF_CACHE_DIR`, `MYPY_CACHE_DIR`, `PYTHONPYCACHEPREFIX`), git's trace files and index
 * (`GIT_TRACE=.pi/x` appends to it; a number or `true` is a descriptor, no place), package
 * managers' install places and caches (`GEM_HOME`, `PIP_TARGET`, `PIP_CACHE_DIR`, `UV_CACHE_DIR`,
 * `CONDA_PKGS_DIRS`, …), and any `*_CACHE_DIR`.
 * The place is judged as a file the command opens there: a protected place asks, `.cache` does not;
 * a value a `$(mktemp …)` makes is the new place mktemp is judged for. (Places that hold settings
 * or code programs load, `XDG_CONFIG_HOME`, `HOME`, `CARGO_HOME`, are `CODE_ENV`; the plugins nvim
 * finds below `$XDG_DATA_HOME/nvim/site` are not looked for.)
 */
export const PLACE_ENV =
  /^(GIT_TRACE\w*|GIT_INDEX_FILE|XDG_CACHE_HOME|XDG_STATE_HOME|XDG_DATA_HOME|XDG_RUNTIME_DIR|TMPDIR|TMP|TEMP|TEMPDIR|CARGO_TARGET_DIR|CARGO_BUILD_TARGET_DIR|CARGO_BUILD_BUILD_DIR|CARGO_INSTALL_ROOT|GOBIN|GOCACHE|GOMODCACHE|GOPATH|NODE_V8_COVERAGE|COVERAGE_FILE|DENO_DIR|DENO_INSTALL_ROOT|PYTHONPYCACHEPREFIX|GEM_HOME|PIP_(TARGET|PREFIX|ROOT|SRC|LOG|LOG_FILE)|UV_(TOOL_DIR|TOOL_BIN_DIR|INSTALL_DIR|PYTHON_INSTALL_DIR|PROJECT_ENVIRONMENT)|CONDA_(PKGS_DIRS|ENVS_DIRS|ENVS_PATH)|[A-Z][A-Z0-9_]*_CACHE_DIR)$/;

/**
 * gcc's and cpp's variables (gcc(1) "Environment Variables") naming files: where the preprocessor
 * writes its dependencies (`DEPENDENCIES_OUTPUT`, `SUNPRO_DEPENDENCIES`: `FILE [TARGET]`), and the
 * directories it reads headers and the linker libraries from (`CPATH`, `C_INCLUDE_PATH`,
 * `CPLUS_INCLUDE_PATH`, `OBJC_INCLUDE_PATH`, `LIBRARY_PATH`: lists split at `:`), wherever set.
 */
export const COMPILER_ENV =
  /^(DEPENDENCIES_OUTPUT|SUNPRO_DEPENDENCIES|CPATH|C_INCLUDE_PATH|CPLUS_INCLUDE_PATH|OBJC_INCLUDE_PATH|LIBRARY_PATH)$/;

/**
 * The backup suffix and method cp, mv, install, ln and patch take from the environment: read
 * where a stage sets them before its program (backups.ts), not known where they are exported
 * first (`export SIMPLE_BACKUP_SUFFIX=.json; cp -b x .pi/settings` wrote `.pi/settings.json`).
 */
export const BACKUP_ENV = /^(SIMPLE_BACKUP_SUFFIX|VERSION_CONTROL)$/;
/**
 * Variables naming a file libpq (psql, pg_dump, …) reads: judged as a file the command opens
 * wherever they are set (before a program, exported first, alone), a service file's file
 * parameters too (libpq.ts).
 */
export const LIBPQ_FILE_ENV =
  /^PG(PASSFILE|SSLKEY|SSLCERT|SSLROOTCERT|SSLCRL|SSLCRLDIR|SERVICEFILE|SYSCONFDIR)$/;
/**
 * Variables naming a file of settings that may run commands or place writes (an AWS profile's
 * `credential_process`, a kubeconfig user's `exec`, a gemrc's `--install-dir`, an OpenSSL config's
 * `RANDFILE`, gpg's home and its `gpg.conf`): the file is read (settings_files.ts).
 */
export const SETTINGS_FILE_ENV =
  /^(AWS_CONFIG_FILE|AWS_SHARED_CREDENTIALS_FILE|KUBECONFIG|GEMRC|CONDARC|MAMBARC|PIP_CONFIG_FILE|OPENSSL_CONF|GNUPGHOME|RIPGREP_CONFIG_PATH)$/;
/**
 * git's switch that makes every pathspec match in any case (`GIT_ICASE_PATHSPECS`): read where a
 * stage sets it before git (git_pathspecs.ts) or the tool's environment holds it; exported or
 * assigned alone, the pathspecs of the git commands after it name every case spelling of
 * theirs, not followed (judged as a pathspec not known).
 */
export const PATHSPEC_ENV = /^GIT_ICASE_PATHSPECS$/;
/** Prompts: bash expands them (command substitutions too) when it shows them or traces. */
export const PROMPT_ENV = /^(PS0|PS1|PS2|PS4)$/;
/**
 * A command that sets PATH or bash's command tables other than by an assignment word: `read
 * PATH`, `for PATH in .`, `$((PATH=0))`, `a[PATH=0]=1`, `printf -v PATH`, a nameref to one
 * (`declare -n p=BASH_CMDS`). Not a read of one (`$PATH`, `${PATH}`).
 */
export const SETS_LOOKUP =
  /\b(?:read|mapfile|readarray|getopts|for|select|printf\s+-v)\b[^;&|\n]*?(?<![$\w{])(?:PATH|BASH_CMDS|BASH_ALIASES)\b|(?:^|[\s;&(\[,])(?:PATH|BASH_CMDS|BASH_ALIASES)\s*(?:\[[^\]]*\])?\s*(?:[-+*/%^|&]|<<|>>)?=(?!=)|(?:^|\s)-n\s+\w+=['"]?(?:PATH|BASH_CMDS|BASH_ALIASES)\b/;

/**
 * cargo's settings from the environment judged as the settings they stand for (cargo.ts): an
 * alias (`CARGO_ALIAS_<NAME>`), a linker (`CARGO_TARGET_<TRIPLE>_LINKER`, `CARGO_HOST_LINKER`).
 */
export const CARGO_ALIAS_ENV = /^CARGO_(ALIAS_\w+|TARGET_\w+_LINKER|HOST_(\w+_)?LINKER)$/;
/**
 * The variables holding rustc's and rustdoc's flags for cargo (`CARGO_ENCODED_…`: split at
 * `\x1f`; `-C linker=PROG` runs PROG): judged as rustc given them (cargo.ts).
 */
export const RUST_FLAGS_ENV =
  /^(RUSTFLAGS|RUSTDOCFLAGS|CARGO_ENCODED_RUST(DOC)?FLAGS|CARGO_BUILD_RUST(DOC)?FLAGS|CARGO_TARGET_\w+_RUST(DOC)?FLAGS|CARGO_HOST_(\w+_)?RUST(DOC)?FLAGS)$/;

/** Whether a variable is a cargo setting judged as the setting it stands for (cargo.ts). */
export function cargoEnv(name: string): boolean {
  return CARGO_ALIAS_ENV.test(name) || RUST_FLAGS_ENV.test(name);
}

/** Whether a variable holds or names code some program runs (`PS4`, `GIT_EDITOR`, `PATH`). */
function codeVariable(name: string): boolean {
  let known = codeVariables.get(name);
  if (known === undefined) {
    if (codeVariables.size >= 4096) codeVariables.clear();
    codeVariables.set(name, known = carriesCommand(`${name}=$(x)`));
  }
  return known;
}
/** codeVariable's answers (loop variables' names repeat: `f`, `i`, `line`). */
const codeVariables = new Map<string, boolean>();

/** Where a command may set a variable by its name other than by an assignment word. */
const SETS_BY_NAME = /\$\{[A-Za-z_]\w*(?:\[[^\]]*\])?:?=|\w\[[^\]]*\]\+?=|\b(?:for|select)\s/;

/**
 * The option letters of the builtins that set variables by name that take a value (`read -p
 * PROMPT`), and the ones whose value is a name (`read -a NAME`, `printf -v NAME`).
 */
const NAME_SETTERS = new Map<string, { valued: string; names: string; operands: number }>([
  ["read", { valued: "dinNptu", names: "a", operands: 0 }],
  ["mapfile", { valued: "dnOsuCc", names: "", operands: 0 }],
  ["readarray", { valued: "dnOsuCc", names: "", operands: 0 }],
  ["printf", { valued: "", names: "v", operands: -1 }],
  ["getopts", { valued: "", names: "", operands: 1 }],
  ["unset", { valued: "", names: "", operands: 0 }],
]);
/** The builtins that may declare a nameref (`declare -n y=x`). */
const DECLARERS = new Set(["declare", "typeset", "local", "readonly", "export"]);

/**
 * The names a stage sets by name (`read PS4`, `printf -v PS4`, `mapfile PS4`, `unset PATH`, a
 * nameref's target: `declare -n p=PS4`), into `out`; false when one is not known (`read $x`, `declare
 * -n y=$x`, a nameref given no target, which its first assignment sets).
 */
function namesSet(stage: Stage, out: string[]): boolean {
  const name = stage.argv[0];
  if (name?.kind !== "static") return true;
  const spec = NAME_SETTERS.get(name.value);
  // (Most stages are no such builtin: nothing to read.)
  if (!spec && !DECLARERS.has(name.value)) return true;
  const args = stage.argv.slice(1);
  if (spec) {
    let operand = 0;
    for (let i = 0; i < args.length; i++) {
      const w = args[i];
      if (w.kind === "static" && w.value.startsWith("-") && w.value.length > 1) {
        const letters = w.value.slice(1);
        for (let k = 0; k < letters.length; k++) {
          const c = letters[k];
          if (!spec.valued.includes(c) && !spec.names.includes(c)) continue;
          const value = k < letters.length - 1 ? literal(letters.slice(k + 1)) : args[++i];
          if (spec.names.includes(c) && value) {
            if (value.kind !== "static") return false;
            out.push(value.value);
          }
          break;
        }
        continue;
      }
      // (printf's operands are its format and arguments; getopts's second is the name.)
      if (spec.operands < 0 || (spec.operands > 0 && operand++ !== spec.operands)) continue;
      // (Unsetting takes code away, but for PATH: commands are then looked for in the cwd. A
      // glob names what it matches: `unset a[2]` is no PATH.)
      if (name.value === "unset" && w.kind === "glob" && !w.prefix.startsWith("P")) continue;
      if (name.value === "unset" && /^(?!PATH\[)[A-Za-z_]\w*\[/.test(w.prefix)) continue;
      if (w.kind !== "static") return false;
      if (name.value !== "unset" || w.value === "PATH") out.push(w.value);
    }
    return true;
  }
  if (!DECLARERS.has(name.value)) return true;
  if (!args.some((w) => w.kind === "static" && /^-\w*n/.test(w.value))) return true;
  for (const w of args) {
    if (w.kind === "static" && w.value.startsWith("-")) continue;
    const m = /^[A-Za-z_]\w*=([A-Za-z_]\w*)$/.exec(w.value);
    if (w.kind !== "static" || !m) return false;
    out.push(m[1]);
  }
  return true;
}

/** `let` as a word (not `delete`, `complete`). */
const LET = /(?:^|[^\w-])let\b/;

/**
 * Whether a command sets a variable that holds or names code (a prompt, an editor, git's
 * settings, `BASH_ENV`, `PATH`) other than by an assignment word, where the value is not seen:
 * `read PS4`, `printf -v PS4`, `mapfile PS4`, `for PS4 in …`, `${GIT_EDITOR:=…}`, an element
 * (`PS4[0]=…`), `unset PATH`, a nameref to one (`declare -n p=PS4`), or a name not known (`printf
 * -v $x`, `declare -n y=$x`, a nameref given no target).
 */
export function setsCodeVariable(command: string, stages: readonly Stage[]): boolean {
  const names: string[] = [];
  for (const s of stages) if (!namesSet(s, names)) return true;
  // (Arithmetic sets numbers, which may be paths too: `((HOME=0))`, `let HISTFILESIZE=0`.)
  if (command.includes("((") || command.includes("$[") || LET.test(command)) {
    // (Not in a here-document's text: `print((a, b))` in a script is no arithmetic.)
    let text = command;
    for (const s of stages) {
      for (const r of s.redirects) if (r.body) text = text.replace(r.body.text, " ");
    }
    const code = withoutQuotedData(text).replace(/\blet\b([^;&|\n]*)/g, "(($1))");
    const assigned = arithmeticNames(code, { unclosed: "stop" });
    if (assigned === null) return true;
    names.push(...assigned);
  }
  if (!SETS_BY_NAME.test(command)) return names.length > 0 && names.some(codeVariable);
  if (command.includes("${")) {
    for (const m of command.matchAll(/\$\{([A-Za-z_]\w*)(?:\[[^\]]*\])?:?=/g)) names.push(m[1]);
  }
  if (command.includes("]")) {
    for (const m of command.matchAll(/(?:^|[\s;&|(])([A-Za-z_]\w*)\[[^\]]*\]\+?=/g)) {
      names.push(m[1]);
    }
  }
  if (command.includes("for ") || command.includes("select ")) {
    for (const m of command.matchAll(/\b(?:for|select)\s+([A-Za-z_]\w*)\s+in\b/g)) names.push(m[1]);
  }
  return names.length > 0 && names.some(codeVariable);
}

/**
 * Whether a command sets PATH, bash's command tables or another variable that holds code other
 * than by an assignment word whose value is seen (`SETS_LOOKUP`, `setsCodeVariable`). `seen`: the
 * texts of the `PATH=…` words whose directories the caller follows (`searchedDirs`), which are no
 * such setting wherever they appear (what else sets PATH is arithmetic, `read`, a name: never an
 * absolute directory).
 */
export function setsCodeOtherwise(
  command: string,
  stages: readonly Stage[],
  seen?: ReadonlySet<string>,
): boolean {
  if (command.includes("PATH") || command.includes("BASH_")) {
    let text = command;
    for (const t of seen ?? []) text = text.replaceAll(t, " ");
    if (SETS_LOOKUP.test(text)) return true;
  }
  return setsCodeVariable(command, stages);
}

/**
 * The directories a `PATH=value` (or `PATH+=value`) word makes bash look command names up in, in
 * order, with `$PATH` standing for the tool's own (`toolPath`): `PATH="$HOME/.local/bin:$PATH"`,
 * `PATH=$PATH:/usr/local/go/bin`. Null where one is not known: an empty or relative entry (the
 * cwd where the name is looked up: `PATH=.:$PATH`, `PATH=bin:$PATH`), another variable's value
 * not known, `$PATH` when the tool's is not known, a quote or escape that may make `$PATH` mere
 * text (`'$PATH'` names a directory of that name).
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * searchedDirs({ ...literal("PATH=/opt/x/bin:$PATH"), kind: "dynamic" }, "/usr/bin:/bin");
 * // ["/opt/x/bin", "/usr/bin", "/bin"]
 * ```
 */
export function searchedDirs(assignment: Word, toolPath: string | undefined): string[] | null {
  const m = /^PATH(\+?)=/.exec(assignment.value);
  if (m === null || assignment.kind === "glob") return null;
  const value = (m[1] ? "$PATH" : "") + assignment.value.slice(m[0].length);
  // (Unknown parts keep their source text: a `$` the text may have made otherwise is not read.)
  if (value.includes("$") && /['\\`]|\$['"(]/.test(assignment.text)) return null;
  const dirs: string[] = [];
  for (const entry of value.split(":")) {
    if (entry === "$PATH" || entry === "${PATH}") {
      if (toolPath === undefined) return null;
      for (const d of toolPath.split(":")) {
        if (!d.startsWith("/")) return null;
        dirs.push(d);
      }
    } else if (entry.startsWith("/") && !entry.includes("$")) dirs.push(entry);
    else return null;
  }
  return dirs;
}

/** An element of bash's tables of command paths and aliases: `BASH_CMDS[ls]=/bin/rm`. */
export const COMMAND_TABLE_ELEMENT = /^(BASH_CMDS|BASH_ALIASES)\[/;
/** xz's options from the environment (`XZ_OPT=--files xz -d`: the names it writes, unseen). */
export const XZ_OPTIONS = /^(XZ_OPT|XZ_DEFAULTS)$/;
/**
 * less's options from the environment: an initial command there (`+!cmd`) runs at start, a log
 * file it names (`-o F`) is written.
 */
export const LESS_OPTIONS = /^(LESS|SYSTEMD_LESS)$/;

/** The name of a `NAME=value` / `NAME+=value` word. */
export const ASSIGNED = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;

/**
 * A function bash takes from its environment (`env 'BASH_FUNC_ls%%=() { …; }' bash -c ls`): a
 * later bash runs the body when the name is called.
 */
export const EXPORTED_FUNCTION = /^BASH_FUNC_([^=]+)%%=/;
/** A word `env` and its kin read as an assignment: `NAME=value`, or an exported function. */
export const ENV_ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*|BASH_FUNC_[^=]+%%)=/;

/**
 * The variables named for the commands they hold, by the conventions programs follow:
 * `KUBE_EDITOR`, `HGEDITOR`, `SYSTEMD_EDITOR`, `AWS_PAGER`, `GH_BROWSER`, cargo's
 * `CARGO_TARGET_X_RUNNER` hold a command line.
 */
const SHELL_ENV_NAMES = /^[A-Z][A-Z0-9_]*(EDITOR|PAGER)$|^[A-Z][A-Z0-9_]*_(BROWSER|RUNNER)$/;
/** ... and `*_WRAPPER`, `*_ASKPASS` a program (cargo's `CARGO_TARGET_X_RUNNER`: words, above). */
const PROGRAM_ENV_NAMES = /^[A-Z][A-Z0-9_]*_(WRAPPER|ASKPASS)$/;

/** Whether a variable's value is a shell command some program runs (a pager, an editor, …). */
export function shellVariable(name: string): boolean {
  return SHELL_ENV.has(name) || SHELL_ENV_NAMES.test(name);
}

/** Whether a variable's value is a program some program runs with arguments of its own. */
export function programVariable(name: string): boolean {
  return PROGRAM_ENV.has(name) || PROGRAM_ENV_NAMES.test(name);
}

/** Whether a `NAME=value` text assigns a variable whose value some program runs. */
export function carriesCommand(assignment: string): boolean {
  if (EXPORTED_FUNCTION.test(assignment) || COMMAND_TABLE_ELEMENT.test(assignment)) return true;
  const m = ASSIGNED.exec(assignment);
  if (m === null) return false;
  // (A `$` or `` ` `` in a prompt as written may be or make a substitution: `PS4=$x`,
  // `PS4=\$\(…\)`, `PS4=$'\x24(…)'`.)
  if (PROMPT_ENV.test(m[1])) return /[$`]/.test(assignment);
  // (less's initial commands, and its options naming files: `-o`/`-O` a log it writes, `-k` a
  // lesskey file, `-T` a tags file, `--log-file`, `--tag-file`.)
  if (LESS_OPTIONS.test(m[1])) return /\+|[oOkT]|tag/.test(assignment.slice(m[0].length));
  // (xz reads its options from these first: `--files` takes the names of files it writes from
  // its input.)
  if (XZ_OPTIONS.test(m[1])) return assignment.includes("--files");
  // (node's options for every node process: `--require`, `--import` load code, `--cpu-prof-dir`
  // and kin write files; judged as node given them.)
  if (m[1] === "NODE_OPTIONS" || m[1] === "GOFLAGS") return true;
  // (The options a libpq client sends the server: settings that make it load a library.)
  if (m[1] === "PGOPTIONS") return true;
  // (go's module proxy: a directory it names holds the toolchains go may download and run.)
  if (m[1] === "GOPROXY") return /file:|[$`]/i.test(assignment.slice(m[0].length));
  // (cargo's aliases and rustc's flags: judged as the setting they stand for.)
  if (m[1].startsWith("CARGO_") || m[1].includes("RUST")) {
    if (cargoEnv(m[1])) return true;
  }
  return shellVariable(m[1]) || programVariable(m[1]) || CODE_ENV.test(m[1]) ||
    PLACE_ENV.test(m[1]) || SETTINGS_FILE_ENV.test(m[1]) || packageVariable(m[1]) ||
    BACKUP_ENV.test(m[1]) || PATHSPEC_ENV.test(m[1]) || LIBPQ_FILE_ENV.test(m[1]) ||
    COMPILER_ENV.test(m[1]);
}

/**
 * Environment variables that make a program run or load other code: an assignment of one is part
 * of the command rules are matched against (`LD_PRELOAD=x ls` is not `ls`).
 */
export const RISKY_ENV =
  /^(LD_\w*|DYLD_\w*|PATH|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|IFS(?=\+?=.)|GIT_\w*|PYTHON(PATH|STARTUP|HOME)|NODE_OPTIONS|NODE_PATH|PERL5?(OPT|LIB)|RUBY(OPT|LIB)|\w*_CONFIG(_\w*)?|EDITOR|VISUAL|PAGER|GIT_PAGER|LESSOPEN|LESSCLOSE|LESSGLOBALTAGS|LESSEDIT|LESSECHO|SHELL|MANPAGER)(\+?=)/;

/**
 * Environment assignments that cannot make a read-only command do more (locale, time zone,
 * colours, terminal size); `PAGER=cat`-style pagers too, and an empty `IFS` (`IFS= read -r f`
 * splits nothing). Anything else (`LD_PRELOAD`, `PATH`,
 * `GIT_EXTERNAL_DIFF`, `RIPGREP_CONFIG_PATH`, `BASH_ENV`, ...) can make it run other code.
 */
export function harmlessAssignment(assignment: string): boolean {
  return HARMLESS_ENV.test(assignment) || PAGER_ENV.test(assignment) || assignment === "IFS=";
}
const HARMLESS_ENV = /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|CLICOLOR|FORCE_COLOR|COLUMNS|LINES)=/;
const PAGER_ENV = /^(PAGER|GIT_PAGER|MANPAGER)=(cat|less)?$/;
