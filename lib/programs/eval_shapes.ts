/**
 * The shapes of the inline code a program evaluates (`Program.evaluates`), for the programs whose
 * options give it (`pylint --init-hook CODE`, `nix eval --expr CODE`) and for code read from
 * standard input (`python3 <<'EOF'`, `cmake -P /dev/stdin <<<CODE`).
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { codeShape } from "./eval_shapes.ts";
 * const stage = { argv: ["nix", "eval", "--expr", "1"].map(literal), redirects: [] };
 * codeShape(stage as never, "nix", "--expr", [{ word: literal("1"), at: 3 }]);
 * // { interpreter: "nix", language: "nix", via: "--expr", source: "1", codeAt: 3 }
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { EvalShape } from "../types.ts";
import { programName, standardInput } from "./words.ts";

/** A piece of code: its word (the value glued to an option: a literal), and its argv position. */
export interface CodePiece {
  word: Word;
  /** The argv position of the word, when it is the code alone (`--expr CODE`). */
  at?: number;
}

/**
 * The code the pieces make, one after another (not known where one is not static); null for
 * none. Its `codeAt` is the first piece's word of its own.
 */
export function codeShape(
  stage: Stage,
  language: EvalShape["language"],
  via: string,
  pieces: CodePiece[],
): EvalShape | null {
  if (pieces.length === 0) return null;
  const known = pieces.every((p) => p.word.kind === "static");
  const at = pieces[0].at;
  return {
    interpreter: programName(stage.argv[0]),
    language,
    via,
    source: known ? pieces.map((p) => p.word.value).join("\n") : null,
    ...(at !== undefined ? { codeAt: at } : {}),
  };
}

/**
 * The code a program reads on its standard input: a heredoc's or here-string's text, not known
 * from a pipe or a descriptor; null where it reads none, or a file (a script, read where it lies).
 */
export function stdinCode(stage: Stage, language: EvalShape["language"]): EvalShape | null {
  const interpreter = programName(stage.argv[0]);
  const stdin = standardInput(stage);
  const doc = stdin.from === "document" ? stdin.redirect : undefined;
  if (doc) {
    const source = doc.body && doc.body.kind === "static" ? doc.body.value : null;
    return { interpreter, language, via: doc.kind, source };
  }
  if (stdin.from === "pipe" || stdin.from === "descriptor" || stdin.from === "several") {
    return { interpreter, language, via: "stdin", source: null };
  }
  return null;
}

/** The names of this machine's standard input as a file (`cmake -P /dev/stdin`). */
export const STDIN_FILES: ReadonlySet<string> = new Set([
  "/dev/stdin",
  "/dev/fd/0",
  "/proc/self/fd/0",
]);
