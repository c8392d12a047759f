/**
 * go's settings from its environment and from its settings file, `$GOENV` (default
 * `~/.config/go/env`), which `go env -w NAME=VALUE` writes and every later go command reads: the
 * ones that name a program (`CC`, `CXX`, `GOCACHEPROG`, `GOAUTH=command …`, the C flags cgo gives
 * the compiler) are judged as what they run, `GOFLAGS` and the places as the environment's are;
 * a `GOPROXY` naming a directory (`file:///DIR`) as the toolchains go may run from there
 * (`goToolchain`); `GOPRIVATE` and the like change nothing.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * goEnvWrites(["go", "env", "-w", "GOFLAGS=-mod=mod"].map(literal)); // true
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";

/** go's settings file where `$GOENV` names none (`os.UserConfigDir()`'s `go/env`). */
export const GO_ENV_FILE = "~/.config/go/env";

/** go's variables whose value is a program it runs (cgo's compilers, pkg-config, gccgo). */
const GO_PROGRAM = /^(CC|CXX|FC|AR|GCCGO|PKG_CONFIG)$/;
/** The flags cgo gives the C compiler and linker. */
const CGO_FLAGS = /^CGO_(CFLAGS|CPPFLAGS|CXXFLAGS|FFLAGS|LDFLAGS)$/;
/** Where go finds its own tools: code it runs. */
const GO_TOOLS = /^(GOROOT|GOTOOLDIR)$/;

/** go's flag package's true and false (`strconv.ParseBool`). */
const TRUE = /^(1|t|T|TRUE|true|True)$/;

/**
 * Whether a go stage is `go env -w` or `go env -u`, which write go's settings file: `-w`,
 * `--w`, `-w=true` (`=1`, `=t`, … as go's flag package takes a boolean; the last of a flag
 * counts, `-w=false` turns it off); a flag not known that may be one of them counts.
 */
export function goEnvWrites(argv: readonly Word[]): boolean {
  if (argv[1]?.value !== "env") return false;
  const on = { w: false, u: false };
  for (const a of argv.slice(2)) {
    const v = a.kind === "static" ? a.value : a.prefix;
    const m = /^--?([wu])(?:=([\s\S]*))?$/.exec(v);
    if (a.kind !== "static" && /^--?[wu](=|$)/.test(v)) return true;
    if (m) on[m[1] as "w" | "u"] = m[2] === undefined || TRUE.test(m[2]);
  }
  return on.w || on.u;
}

/** Whether a word of `go env` is one of its flags (`-w`, `--u=true`, `-json`), no setting. */
function goFlag(w: Word): boolean {
  return (w.kind === "static" ? w.value : w.prefix).startsWith("-");
}

/**
 * A value as go splits a list of words (cmd/internal/quoted's `Split`, for `CC`, `CXX`, the
 * `CGO_*FLAGS`, `GOFLAGS` in newer releases (older: at blanks alone), `-exec` and `-toolexec`): fields at blanks, one opened
 * by `'` or `"` running to the next of the same quote, the quotes removed, nothing escaped
 * (`'cp' '/h/.ssh/id_rsa'` is `cp` and `/h/.ssh/id_rsa`). A quote left open is go's error: the
 * fields at blanks then (go runs nothing).
 */
export function goSplit(value: string): string[] {
  const out: string[] = [];
  let i = 0;
  const blank = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r";
  while (i < value.length) {
    while (i < value.length && blank(value[i])) i++;
    if (i >= value.length) break;
    const q = value[i];
    if (q === "'" || q === '"') {
      const end = value.indexOf(q, i + 1);
      if (end === -1) return value.split(/[ \t\n\r]+/).filter(Boolean);
      out.push(value.slice(i + 1, end));
      i = end + 1;
      continue;
    }
    const start = i;
    while (i < value.length && !blank(value[i])) i++;
    out.push(value.slice(start, i));
  }
  return out;
}

/** One go setting (`NAME=VALUE`, set before go or written by `go env -w`): what it runs. */
function goSetting(w: Word, run: Runner, written: boolean): void {
  const eq = w.value.indexOf("=");
  if (eq <= 0) return;
  const name = w.value.slice(0, eq);
  const value = w.value.slice(eq + 1);
  const origin = `go ${name}`;
  if (w.kind !== "static" && (GO_PROGRAM.test(name) || /^(GOAUTH|GOCACHEPROG|CGO_)/.test(name))) {
    run.stage([unknownWord(`(what ${w.text} runs)`)], origin);
  } else if (GO_PROGRAM.test(name) && goSplit(value).some(Boolean)) {
    // (Split as go splits it, and given cgo's sources.)
    const words = goSplit(value).map(literal);
    run.stage(
      [...words, literal(name === "PKG_CONFIG" ? "(its packages)" : "(cgo's sources).c")],
      origin,
    );
  } else if (CGO_FLAGS.test(name) && goSplit(value).some(Boolean)) {
    run.stage([literal("cc"), ...goSplit(value).map(literal)], origin);
  } else if (name === "GOCACHEPROG" && value) {
    run.shell(literal(value), origin, { arguments: true });
  } else if (name === "GOAUTH") {
    // (`command PROG ARGS` runs it; `netrc`, `git DIR`, `off` are go's own.)
    for (const m of value.matchAll(/(?:^|;)\s*command\s+([^;]+)/g)) {
      run.shell(literal(m[1]), origin, { arguments: true });
    }
  } else if (written && GO_TOOLS.test(name)) {
    run.stage([unknownWord(`(the tools ${w.text} runs)`)], origin);
  } else if (written) run.environment([w]);
}

/**
 * What go's settings make it run: its settings file (`goEnvFile`), the variables set before it (`CC=…`, `CGO_LDFLAGS=…`; others
 * are the environment's, expand.ts), and each `NAME=VALUE` `go env -w` writes for later go
 * commands, judged as the environment's too (exported for them).
 */
export function goSettings(stage: Stage, run: Runner): void {
  const file = goEnvFile(run);
  if (file) goToolchain(stage, run, file);
  for (const w of stage.assignments ?? []) goSetting(w, run, false);
  if (!goEnvWrites(stage.argv)) return;
  for (const w of stage.argv.slice(2)) {
    if (w.kind !== "static" && !w.prefix.includes("=") && !goFlag(w)) {
      run.stage([unknownWord(`(the settings ${w.text} writes)`)], "go env -w");
    } else if (!goFlag(w)) goSetting(w, run, true);
  }
}

/**
 * go's settings file as a go command finds it (`$GOENV`, `off` for none; else
 * `$XDG_CONFIG_HOME/go/env`, `~/.config/go/env`): each `NAME=VALUE` line judged as `go env -w`
 * writing it is (the user's own file as it is; one another stage of the command writes first,
 * `go env -w` too, is not known).
 */
function goEnvFile(run: Runner): Map<string, string> | null {
  const settings = new Map<string, string>();
  const named = run.variable("GOENV");
  if (named === "off") return settings;
  const config = run.variable("XDG_CONFIG_HOME");
  const home = run.home(null);
  const path = named ||
    (config?.startsWith("/")
      ? `${config}/go/env`
      : home === null
      ? null
      : `${home}/.config/go/env`);
  const text = path === null ? "" : run.settings(path);
  if (text === null) {
    run.stage([unknownWord(`(the settings of ${path})`)], "go env");
    return null;
  }
  for (const line of text.split("\n")) {
    // (As go reads it: blank lines and `#` comments skipped, the name trimmed, the value as is.)
    const t = line.trim();
    const eq = t.indexOf("=");
    if (!t || t.startsWith("#") || eq <= 0) continue;
    settings.set(t.slice(0, eq).trim(), t.slice(eq + 1));
    goSetting(literal(`${t.slice(0, eq).trim()}=${t.slice(eq + 1)}`), run, true);
  }
  return settings;
}

/**
 * A go setting as a go command finds it: set before it (null: not known), else the
 * environment's, else its settings file's (`file`), else undefined (GOROOT's `go.env` default).
 */
function goValue(
  name: string,
  stage: Stage,
  run: Runner,
  file: Map<string, string>,
): string | null | undefined {
  const a = stage.assignments?.findLast((w) => w.value.startsWith(`${name}=`));
  if (a) return a.kind === "static" ? a.value.slice(name.length + 1) : null;
  return run.variable(name) ?? file.get(name);
}

/**
 * The toolchain a go command may switch to (go.dev/doc/toolchain): unless `GOTOOLCHAIN` is
 * `local` (or `path`, `NAME+path`, which look only in `PATH`), a version `GOTOOLCHAIN` or a
 * `go`/`toolchain` line of go.mod or go.work asks for is downloaded from `GOPROXY` and run. Where
 * `GOPROXY` names a directory (`file:///DIR`, any entry of its list), that is
 * `DIR/golang.org/toolchain/@v/…`, a place the agent may have written, and its checksum is no
 * guard (a `GOSUMDB` of the agent's; go.dev/issue/79070 and 81834 in the releases before their
 * fixes): a program run from there. A `GOPROXY` not known may name one.
 */
function goToolchain(stage: Stage, run: Runner, file: Map<string, string>): void {
  const toolchain = goValue("GOTOOLCHAIN", stage, run, file);
  if (toolchain === "local" || (toolchain && /(^|\+)path$/.test(toolchain))) return;
  // (One set before go is judged with the others, expand.ts.)
  if (stage.assignments?.some((w) => w.value.startsWith("GOPROXY="))) return;
  goProxyToolchains(goValue("GOPROXY", stage, run, file), run);
}

/**
 * The toolchains go may download from the directories a `GOPROXY` value names (null: a value
 * not known, which may name one) and run: each judged as a program run from
 * `DIR/golang.org/toolchain/@v` (running a file is reading it; `goToolchain`).
 */
export function goProxyToolchains(proxy: string | null | undefined, run: Runner): void {
  const origin = "go's toolchain";
  const opens = literal(`(${origin} runs)`);
  if (proxy === null) {
    run.stage([opens, unknownWord("(a toolchain from a GOPROXY not known)")], origin);
    return;
  }
  for (const entry of (proxy ?? "").split(/[,|]/).map((e) => e.trim())) {
    if (!/^file:/i.test(entry)) continue;
    const m = /^file:\/\/[^/]*(\/.*)$/i.exec(entry);
    let dir: string | null = null;
    try {
      dir = m ? decodeURIComponent(m[1]).replace(/\/+$/, "") : null;
    } catch { /* (not known) */ }
    const place = `${dir}/golang.org/toolchain/@v`;
    run.stage([opens, dir ? literal(place) : unknownWord(`(a toolchain from ${entry})`)], origin);
  }
}
