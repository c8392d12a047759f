/**
 * What strace does besides running the command (strace(1), 6.x). `-o '|CMD'` (or `!CMD`,
 * `--output`) pipes its output to a command run through a shell. Its tampering qualifiers change
 * what the traced program does: `-e inject=SET:…` rewrites the memory a system call reads
 * (`poke_enter=@arg2=HEX`: the path `openat` opens), replaces a call or its result, and `-e
 * fault=SET` makes calls fail (a `chdir` that fails leaves the next command where it was), so what
 * the command touches is not known. The others (`trace`, `read`/`write` dumps, `kvm`, `status`…)
 * only choose what is printed.
 *
 * Its options are read as getopt_long reads them: glued and in clusters (`-einject=…`,
 * `-qeinject=…`), long names abbreviated (`--inj=…`, `--inje SET`), up to the command (its `+`:
 * the first operand ends them).
 *
 * @example
 * ```ts
 * import { tampers } from "./strace.ts";
 * [tampers("inject=openat:error=ENOENT"), tampers("trace=file")];
 * // [true, false]
 * ```
 *
 * @module
 */
import type { Stage } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { Runner } from "./spec.ts";
import { literal, optionValue, unknownWord } from "./words.ts";

/** `-e` qualifiers that tamper with the traced program (their names as strace compares them). */
const TAMPERING = ["inject", "fault"];

/** Whether an `-e` expression tampers: `inject=…`, `fault=…` (the qualifier named exactly). */
export function tampers(expression: string): boolean {
  return TAMPERING.some((q) => expression.startsWith(q + "="));
}

/**
 * Whether an `-e` expression not known statically (`prefix` its known start) may tamper: any
 * whose qualifier is not yet written, or is written and tampers.
 */
function mayTamper(prefix: string): boolean {
  const eq = prefix.indexOf("=");
  return eq < 0 ? TAMPERING.some((q) => q.startsWith(prefix)) : tampers(prefix);
}

/** What strace does besides running its command (see the module), read with its `grammar`. */
export function straceEffects(stage: Stage, run: Runner, grammar: OptionGrammar): void {
  const args = stage.argv.slice(1);
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  const unknown = (why: string) =>
    run.stage([unknownWord(`(what strace ${why} makes the command open)`)], "strace");
  for (const t of readOptions(values, grammar)) {
    if (t.kind === "operand" || t.kind === "dynamic" || t.kind === "end") return;
    if (t.kind !== "valued") continue;
    const value = optionValue(t, args);
    if (!value) continue;
    if (t.name === "-o" || t.name === "--output") {
      if (/^[|!]/.test(value.value)) {
        run.shell(value.kind === "static" ? literal(value.value.slice(1)) : value, "strace -o");
      } else if (value.kind !== "static" && value.prefix === "") {
        run.shell(value, "strace -o");
      }
    } else if (t.name === "--inject" || t.name === "--fault") unknown(t.name);
    else if (t.name === "-e") {
      if (value.kind === "static" ? tampers(value.value) : mayTamper(value.prefix)) {
        unknown(`-e ${value.text}`);
      }
    }
  }
}
