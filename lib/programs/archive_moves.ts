/**
 * Archivers told to delete what they archive: `tar --remove-files` (or any abbreviation GNU tar
 * takes, `--rem`), `zip -m`/`--move` (also in a cluster, `-rm`), 7-Zip's `-sdel`, `rar m` and
 * `-df`/`-dr`, and the move commands of lha and arj (`lha m`, `arj m`). What they are given is
 * removed, a directory with all below it: a `replacesTrees` facet for each, and the command
 * `rm -r -- INPUTS` it stands for, so the rules about removing see it (an `optionCommands` facet).
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { zipMoves } from "./archive_moves.ts";
 * zipMoves(["zip", "-rm", "a.zip", "src"].map(literal)); // true
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { hasOption, type OptionGrammar, readOptions } from "./argv.ts";
import type { Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";

/** The static words after the program, up to `--` (null: a word not known). */
function options(argv: Word[]): (string | null)[] {
  const out: (string | null)[] = [];
  for (const w of argv.slice(1)) {
    if (w.kind === "static" && w.value === "--") break;
    out.push(w.kind === "static" ? w.value : null);
  }
  return out;
}

/** Whether `word` is `full` or a prefix of it at least `min` characters long (`--rem`). */
function abbreviates(word: string, full: string, min: number): boolean {
  const name = word.split("=")[0];
  return name.length >= min && full.startsWith(name);
}

/**
 * GNU tar's `--remove-files` ("remove files after adding them to the archive"), in any position
 * and abbreviated as tar takes it (`--rem` is the shortest no other option begins).
 */
export function tarRemovesFiles(argv: Word[]): boolean {
  return options(argv).some((w) => w !== null && abbreviates(w, "--remove-files", 5));
}

/** zip's options that take a value, so a cluster reads right (`-rm`, `-9mr`). */
const ZIP_GRAMMAR: OptionGrammar = { valued: "bntPZOs" };

/** zip's `-m`/`--move` (`--mo`: zip takes a long option's unique prefix): it deletes the originals. */
export function zipMoves(argv: Word[]): boolean {
  return hasOption(argv, ZIP_GRAMMAR, ["-m"]) ||
    options(argv).some((w) => w !== null && abbreviates(w, "--move", 4));
}

/** 7-Zip's `-sdel` switch ("delete files after compression"; switches in any case). */
export function sevenDeletes(argv: Word[]): boolean {
  return options(argv).some((w) => w !== null && /^-sdel$/i.test(w));
}

/**
 * rar's `m`/`mf` command (move to the archive), and its `-df` (delete after archiving) and `-dr`
 * (delete to the recycle bin) switches.
 */
export function rarMoves(argv: Word[]): boolean {
  const words = options(argv);
  const command = words.find((w) => w === null || !w.startsWith("-"));
  return command === null || /^mf?$/i.test(command ?? "") ||
    words.some((w) => w !== null && /^-d[fr]$/i.test(w));
}

/** lha's and arj's `m` command (move: add, then delete the originals), `-m` too for lha. */
export function moveCommand(argv: Word[]): boolean {
  const command = options(argv)[0];
  return command === null || /^-?m/i.test(command ?? "");
}

/** The removal an archiver makes of what it archives, judged as `rm -r -- INPUTS`. */
function removes(inputs: Word[], run: Runner, origin: string): void {
  const what = inputs.length ? inputs : [unknownWord("(the files it archives)")];
  run.stage([literal("rm"), literal("-r"), literal("--"), ...what], origin);
}

/** The words of the tokens `readOptions` reads as operands or cannot read (`$X`). */
function operands(argv: Word[], grammar: OptionGrammar): Word[] {
  const args = argv.slice(1);
  const values = args.map((w) => (w.kind === "static" ? w.value : null));
  return readOptions(values, grammar).filter((t) => t.kind === "operand" || t.kind === "dynamic")
    .map((t) => args[t.at]);
}

/** tar's valued options, as its operands are read (`-f ARCHIVE`, `--file ARCHIVE`, …). */
const TAR_GRAMMAR: OptionGrammar = {
  valued: "bCfFgHIKLNTVX",
  bundled: true,
  longValued: new Set(["--file", "--directory", "--files-from", "--exclude", "--transform"]),
};

/** `tar … --remove-files INPUTS` removes its inputs. */
export function tarRemoval(stage: Stage, run: Runner): void {
  if (tarRemovesFiles(stage.argv)) {
    removes(operands(stage.argv, TAR_GRAMMAR), run, "tar --remove-files");
  }
}

/** `zip -m ARCHIVE INPUTS` removes its inputs. */
export function zipRemoval(stage: Stage, run: Runner): void {
  if (zipMoves(stage.argv)) removes(operands(stage.argv, ZIP_GRAMMAR).slice(1), run, "zip -m");
}

/**
 * The removal of `COMMAND [SWITCHES] ARCHIVE INPUTS` (7-Zip, rar, lha, arj) when `moves` says it
 * deletes what it archives.
 */
export function commandRemoval(moves: (argv: Word[]) => boolean): (s: Stage, r: Runner) => void {
  return (stage, run) => {
    if (!moves(stage.argv)) return;
    // (The command is the first word; then the archive, then what it adds.)
    const words = stage.argv.slice(2).filter((w) =>
      w.kind !== "static" || !w.value.startsWith("-")
    );
    removes(words.slice(1), run, `${stage.argv[0].value} (moving into an archive)`);
  };
}
