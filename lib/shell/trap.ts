/**
 * `trap`, as bash reads it: the handler it sets and the signals it sets it for. A handler runs
 * later in this shell (before each command for `DEBUG`, after a failure for `ERR`, on a signal at
 * any time), so what it does reaches the commands after it, and where they run.
 *
 * @example
 * ```ts
 * import { trapHandler } from "./trap.ts";
 * import { staticWord } from "./model.ts";
 * trapHandler(["trap", "cd /x", "DEBUG"].map(staticWord))?.handler.value; // "cd /x"
 * trapHandler(["trap", "-p"].map(staticWord)); // null: it prints the traps
 * ```
 *
 * @module
 */
import type { Word } from "./model.ts";

/** `trap [-lpP] [--] HANDLER SIGNAL…`: the handler it sets, and for which signals; null for none. */
export function trapHandler(argv: Word[]): { handler: Word; signals: Word[] } | null {
  const args = argv.slice(1);
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") break;
    if (a.value === "--") {
      i++;
      break;
    }
    // `-p`/`-l`/`-P` print; a `-` alone (reset) or a signal is no option.
    if (/^-[lpP]+$/.test(a.value)) return null;
    if (!a.value.startsWith("-") || a.value === "-") break;
  }
  const handler = args[i];
  // (A lone operand is a signal to reset, `trap INT`; a `-` or "" handler sets nothing to run.)
  if (!handler || args.length === i + 1 && handler.kind === "static") return null;
  if (handler.kind === "static" && (handler.value === "-" || handler.value === "")) return null;
  return { handler, signals: args.slice(i + 1) };
}

/**
 * Whether a handler `trap` sets may run before a later command of the same shell: for any signal
 * but `EXIT` (which runs when the shell ends), or one not known.
 */
export function trapRunsLater(argv: Word[]): boolean {
  const set = trapHandler(argv);
  if (set === null) return false;
  // (A handler not known and no signal named: it may be either, a handler or a signal.)
  return set.signals.length === 0 ||
    set.signals.some((s) => s.kind !== "static" || !/^(SIG)?EXIT$|^0$/i.test(s.value));
}
