/**
 * Decoders that write files their input names: `uudecode` writes each encoded file to the name its
 * `begin MODE NAME` line gives (GNU's keeps a path as it is, absolute or with `..`; BSD's takes
 * its base name unless `-s`), unless `-o` names the output or `-p` prints it. The encoded text is
 * read where it is inline or a file (as it will be when the command runs); where it is not known
 * (a pipe, a file another stage writes), the name may be any path.
 *
 * @example
 * ```ts
 * import { decodedNames } from "./decoders.ts";
 * decodedNames("begin 644 out.bin\n#86)C\n`\nend\n"); // ["out.bin"]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { staticValue } from "./command_words.ts";
import type { NamedFile, NamedFilesGiven, Program, ReadFile } from "./spec.ts";
import { inputText } from "./words.ts";

/** GNU and BSD uudecode's options. */
const UUDECODE_OPTIONS: OptionGrammar = {
  flags: "cimprs",
  valued: "o",
  longFlags: new Set(["--help", "--version"]),
  longValued: new Set(["--output-file"]),
  abbreviations: true,
};

/** A `begin` line: its mode, then the name (to the end of the line). */
const BEGIN = /^begin(?:-base64)? [0-7]+ (.+?)\r?$/;

/** The names the `begin` lines of an encoded text give (`/dev/stdout` is no file). */
export function decodedNames(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const m = BEGIN.exec(line);
    if (m && m[1] !== "/dev/stdout") out.push(m[1]);
  }
  return out;
}

/** The encoded texts of the operands (`null`: not known) or, with none, of standard input. */
function encodedTexts(
  operands: string[],
  stage: Stage,
  read: ReadFile | undefined,
): (string | null)[] {
  if (operands.length) return operands.map((f) => (read ? read(f) : null));
  const input = inputText(stage, read);
  return input === undefined ? [] : [input];
}

/** What uudecode writes by the names its input gives (see the module's notes). */
function uudecodeFiles(argv: Word[], stage?: Stage, given?: NamedFilesGiven): NamedFile[] {
  const read = given?.read;
  if (!stage) return [];
  const args = argv.slice(1).map(staticValue);
  const source = "(the file uudecode writes)";
  const anywhere: NamedFile[] = [{ path: null, source }];
  const operands: string[] = [];
  for (const t of readOptions(args, UUDECODE_OPTIONS)) {
    if (t.kind === "dynamic" || t.kind === "unknown") return anywhere;
    if (t.kind === "operand") operands.push(args[t.at]!);
    // (`-o FILE` is the output, an argument; `-p` prints.)
    else if (t.name === "-o" || t.name === "--output-file" || t.name === "-p") return [];
  }
  const out: NamedFile[] = [];
  for (const text of encodedTexts(operands.filter((o) => o !== "-"), stage, read)) {
    if (text === null) return anywhere;
    for (const path of decodedNames(text)) out.push({ path, source });
  }
  return out;
}

/** uudecode. */
export const DECODER_PROGRAMS: Program[] = [
  { names: ["uudecode"], options: UUDECODE_OPTIONS, namedFiles: uudecodeFiles },
];
