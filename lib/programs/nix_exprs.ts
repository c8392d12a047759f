/**
 * The Nix expressions nix's commands evaluate from their words: `nix eval|build|run|… --expr
 * EXPR`, `--apply EXPR` (a function the result is given to), `--arg NAME EXPR`, and `--file -`
 * (the expression of standard input); nix-instantiate's, nix-build's and nix-shell's operands
 * under `-E`/`--expr` (`-`: standard input), their `--arg NAME EXPR`, and nix-shell's `-p`
 * packages that are more than a name (each is an expression). Nix code reads files and, with
 * `allow-unsafe-native-code-during-evaluation`, runs commands (`builtins.exec`). A file of code
 * (`nix eval -f x.nix`, `nix-instantiate --eval x.nix`) is read where it lies.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { nixEval } from "./nix_exprs.ts";
 * const argv = ["nix", "eval", "--expr", "1 + 2"].map(literal);
 * nixEval({ argv, redirects: [] } as never);
 * // { interpreter: "nix", language: "nix", via: "--expr", source: "1 + 2", codeAt: 3 }
 * ```
 *
 * @module
 */
import type { Stage } from "../shell/model.ts";
import type { EvalShape } from "../types.ts";
import type { Program } from "./spec.ts";
import { type CodePiece, codeShape, stdinCode } from "./eval_shapes.ts";
import { literal } from "./words.ts";

/** The options that take two words (`--arg NAME EXPR`, `--option NAME VALUE`). */
const TWO = /^--(arg|argstr|option|override-input|override-flake)$/;

/** What `nix …` evaluates from its words (see the module). */
export function nixEval(stage: Stage): EvalShape | null {
  const argv = stage.argv;
  const pieces: CodePiece[] = [];
  let via = "";
  const add = (option: string, at: number) => {
    via ||= option;
    if (argv[at]) pieces.push({ word: argv[at], at });
  };
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i].kind === "static" ? argv[i].value : "";
    // (The words after these are the command's: `nix develop -c CMD…`, `nix run X -- ARGS`.)
    if (v === "--" || v === "-c" || v === "--command") break;
    const eq = /^--(expr|apply)=/.exec(v);
    if (eq) {
      via ||= `--${eq[1]}`;
      pieces.push({ word: literal(v.slice(eq[0].length)) });
    } else if (v === "--expr" || v === "--apply") add(v, ++i);
    else if (v === "--arg") add(v, i + 2);
    else if ((v === "-f" || v === "--file") && argv[i + 1]?.value === "-") {
      return stdinCode(stage, "nix");
    }
    if (TWO.test(v)) i += 2;
  }
  return codeShape(stage, "nix", via, pieces);
}

/** nix-instantiate's, nix-build's and nix-shell's options that take a word (`-A ATTR`). */
const LEGACY_VALUED =
  /^(-A|--attr|-I|--include|-o|--out-link|-j|--max-jobs|--cores|--add-root|--run|--command|--keep|--store|--eval-store|--log-format|--drv-link|--exclude|--max-silent-time|--timeout)$/;

/** A package nix-shell's `-p` names by its attribute alone (`python3`, `python3Packages.numpy`). */
const PACKAGE_NAME = /^[\w.+-]+$/;

/** What nix-instantiate, nix-build and nix-shell evaluate from their words (see the module). */
export function nixLegacyEval(stage: Stage): EvalShape | null {
  const argv = stage.argv;
  const exprs = argv.some((w) => w.value === "-E" || w.value === "--expr");
  const pieces: CodePiece[] = [];
  let via = "";
  let packages = false;
  const add = (option: string, at: number) => {
    via ||= option;
    if (argv[at]) pieces.push({ word: argv[at], at });
  };
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    const v = w.kind === "static" ? w.value : null;
    if (v === "-p" || v === "--packages") packages = true;
    else if (v === "--arg") add(v, i + 2);
    if (v !== null && TWO.test(v)) i += 2;
    else if (v !== null && LEGACY_VALUED.test(v)) i++;
    else if (v === "-") return stdinCode(stage, "nix");
    else if (v === null ? w.prefix.startsWith("-") : v.startsWith("-")) continue;
    else if (exprs) add(argv.find((x) => x.value === "-E") ? "-E" : "--expr", i);
    else if (packages && (v === null || !PACKAGE_NAME.test(v))) add("-p", i);
  }
  return codeShape(stage, "nix", via, pieces);
}

/** nix-instantiate and nix-build (nix and nix-shell: package_runners.ts). */
export const NIX_EXPR_PROGRAMS: Program[] = [
  { names: ["nix-instantiate", "nix-build"], evaluates: nixLegacyEval, codeOption: true },
];
