/**
 * go's settings from its environment and from its settings file, `$GOENV` (default
 * `~/.config/go/env`), which `go env -w NAME=VALUE` writes and every later go command reads: the
 * ones that name a program (`CC`, `CXX`, `GOCACHEPROG`, `GOAUTH=command …`, the C flags cgo gives
 * the compiler) are judged as what they run, `GOFLAGS` and the places as the environment's are;
 * `GOPROXY`, `GOPRIVATE` and the like change nothing.
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

/** Whether a go stage is `go env -w` or `go env -u`, which write go's settings file. */
export function goEnvWrites(argv: readonly Word[]): boolean {
  return argv[1]?.value === "env" && argv.slice(2).some((w) => /^--?[wu]$/.test(w.value));
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
  } else if (GO_PROGRAM.test(name) && value.trim()) {
    // (Split at blanks, as go splits it, and given cgo's sources.)
    const words = value.trim().split(/\s+/).map(literal);
    run.stage(
      [...words, literal(name === "PKG_CONFIG" ? "(its packages)" : "(cgo's sources).c")],
      origin,
    );
  } else if (CGO_FLAGS.test(name) && value.trim()) {
    run.stage([literal("cc"), ...value.trim().split(/\s+/).map(literal)], origin);
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
 * What go's settings make it run: the variables set before it (`CC=…`, `CGO_LDFLAGS=…`; others
 * are the environment's, expand.ts), and each `NAME=VALUE` `go env -w` writes for later go
 * commands, judged as the environment's too (exported for them).
 */
export function goSettings(stage: Stage, run: Runner): void {
  for (const w of stage.assignments ?? []) goSetting(w, run, false);
  if (!goEnvWrites(stage.argv)) return;
  for (const w of stage.argv.slice(2)) {
    if (w.kind !== "static" && !w.prefix.includes("=") && !w.prefix.startsWith("-")) {
      run.stage([unknownWord(`(the settings ${w.text} writes)`)], "go env -w");
    } else if (!w.value.startsWith("-")) goSetting(w, run, true);
  }
}
