/**
 * The words bash gives a meaning of their own in a command's place: its reserved words and its
 * declaration builtins. The one list of them: the analysis, the plain-command reader, the
 * fallback splitter and the programs layer all read it from here.
 *
 * @module
 */

/** bash's reserved words: they open or close a compound command, or time or negate a pipeline. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "case",
  "esac",
  "for",
  "select",
  "while",
  "until",
  "do",
  "done",
  "in",
  "function",
  "time",
  "coproc",
  "{",
  "}",
  "!",
  "[[",
  "]]",
]);

/**
 * Reserved words that run the command after them (`time -p cmd`, `coproc NAME cmd`):
 * tree-sitter reads them as the name of a plain command.
 */
export const COMMAND_PREFIXES: ReadonlySet<string> = new Set(["time", "coproc"]);

/**
 * Whether bash reads a word, unquoted in a command's place, as a reserved word that is no command
 * prefix (`in` is reserved only after `for NAME` and `case WORD`).
 */
export function isReservedCommandWord(word: string): boolean {
  return RESERVED_WORDS.has(word) && !COMMAND_PREFIXES.has(word) && word !== "in";
}

/** Builtins that assign the variables named in their arguments: `export PAGER='less -R'`. */
export const DECLARATION_BUILTINS: ReadonlySet<string> = new Set([
  "export",
  "declare",
  "typeset",
  "local",
  "readonly",
]);

/**
 * bash's builtins (`help`): a name bash runs itself, never looked up in PATH, unless `enable -n`
 * turns the builtin off.
 */
export const BUILTINS: ReadonlySet<string> = new Set(
  (". : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare " +
    "dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill " +
    "let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt " +
    "source suspend test times trap true type typeset ulimit umask unalias unset wait").split(" "),
);
