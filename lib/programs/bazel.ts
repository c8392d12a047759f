/**
 * Bazel (also through bazelisk, which runs it) and Buck: a target label (`//...`,
 * `//src/app:main`, `@repo//x:y`, buck's `cell//x:y`, `-//x/...` after `--`) names a package of the
 * workspace, never a file at `/`: text. What they build runs the project's own rules, as make's
 * recipes do, judged by the command and its directory. Option values stay what they are
 * (`--output_base=DIR`, `--disk_cache DIR`): a label-like word right after an option that may
 * take it is its value, judged as a path. `--run_under` and `--workspace_status_command` name
 * commands they run; an options file on the command line (`--bazelrc`) may name any (and
 * directories to write): a command not known. `bazel run //x -- ARGS`: the arguments go to the
 * program it built, judged as any program's.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Program, Runner } from "./spec.ts";
import { unknownWord } from "./words.ts";

/** A target label or pattern: `//pkg:name`, `@repo//pkg`, `cell//pkg`, `-//pkg/...`. */
const LABEL = /^-?@{0,2}[\w.~+-]*\/\/[^\s]*$/;

/** Options that surely take no value, so a label after one is a label. */
const FLAG =
  /^(--no\w+|-[ks]|--(keep_going|verbose_failures|subcommands|announce_rc|build_tests_only))$/;

/** Subcommands whose operands are all expressions or labels (`bazel query 'deps(//x)'`). */
const QUERIES = new Set(["query", "cquery", "aquery", "uquery", "targets", "audit"]);

/** The subcommand's position in argv (its first word not an option), or -1. */
function subcommandAt(argv: Word[]): number {
  return argv.findIndex((w, i) => i > 0 && !w.value.startsWith("-"));
}

/** The argv positions of labels and query expressions. */
function labels(argv: Word[]): number[] {
  const at = subcommandAt(argv);
  if (at < 0) return [];
  const sub = argv[at].value;
  const out: number[] = [];
  let dashes = false;
  for (let i = at + 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") continue;
    if (w.value === "--" && !dashes) {
      dashes = true;
      continue;
    }
    if (dashes) {
      // After `--`: what `run` passes on; target patterns (`-//x/...` excludes one) otherwise.
      if (sub !== "run" && LABEL.test(w.value)) out.push(i);
      continue;
    }
    const prev = argv[i - 1].value;
    const free = i === at + 1 || !prev.startsWith("-") || prev.includes("=") || FLAG.test(prev);
    if (!free || w.value.startsWith("-")) continue;
    if (LABEL.test(w.value) || QUERIES.has(sub)) out.push(i);
  }
  return out;
}

/** A value of an option (`--name=V` or `--name V`) before `--`, each one given. */
function optionValues(argv: Word[], name: string): Word[] {
  const out: Word[] = [];
  for (let i = 1; i < argv.length && argv[i].value !== "--"; i++) {
    const w = argv[i];
    if (w.value === name && argv[i + 1]) out.push(argv[++i]);
    else if (w.value.startsWith(`${name}=`)) {
      const value = w.value.slice(name.length + 1);
      out.push(w.kind === "static" ? { ...w, value, prefix: value } : unknownWord(w.text));
    }
  }
  return out;
}

/** The commands its options name, and an options file given on its command line. */
function optionCommands(stage: Stage, run: Runner): void {
  const argv = stage.argv;
  const origin = `${argv[0].value} option`;
  for (const name of ["--run_under", "--workspace_status_command"]) {
    for (const v of optionValues(argv, name)) {
      // (`--run_under=//tools:wrap`: a target it builds, as `bazel run` runs one.)
      if (!(v.kind === "static" && LABEL.test(v.value))) run.shell(v, origin);
    }
  }
  for (const f of [...optionValues(argv, "--bazelrc"), ...optionValues(argv, "--config-file")]) {
    if (f.value !== "/dev/null") {
      run.stage([unknownWord(`(the options of ${f.text}, which may run commands)`)], origin);
    }
  }
}

/** bazel, bazelisk, buck and buck2. */
export const BAZEL_PROGRAMS: Program[] = [
  { names: ["bazel", "bazelisk", "buck", "buck2"], text: labels, optionCommands },
];
