/**
 * fd (fdfind on Debian): the commands `-x`/`-X` run on what it finds, whether it follows the
 * links in the trees it searches (`-L`), and what it prints into a pipe (`fd -e py src | xargs
 * wc -l`): paths below its search paths, one to a line.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { namedBelow } from "./find.ts";
import type { Listing, Program, Runner } from "./spec.ts";
import { derived, listedLines, literal, unknownWord } from "./words.ts";

/**
 * fd's options (8 to 10). A letter or long option not here is unknown: fd refuses it, and what
 * it would print is not said. `-x`/`-X` take the rest of the command (see `fdCommands`).
 */
const FD: OptionGrammar = {
  flags: "HIusigFalLp01qhV",
  valued: "dEteSocjxX",
  // deno-fmt-ignore
  longFlags: new Set(["--hidden", "--no-hidden", "--no-ignore", "--ignore", "--unrestricted",
    "--no-ignore-vcs", "--ignore-vcs", "--no-ignore-parent", "--no-require-git",
    "--no-global-ignore-file", "--case-sensitive", "--ignore-case", "--glob", "--regex",
    "--fixed-strings", "--absolute-path", "--relative-path", "--list-details", "--follow",
    "--no-follow", "--full-path", "--print0", "--prune", "--quiet", "--show-errors",
    "--one-file-system", "--strip-cwd-prefix", "--help", "--version"]),
  // deno-fmt-ignore
  longValued: new Set(["--max-depth", "--min-depth", "--exact-depth", "--exclude", "--type",
    "--extension", "--size", "--changed-within", "--changed-before", "--change-newer-than",
    "--change-older-than", "--newer", "--older", "--owner", "--threads", "--max-results",
    "--color", "--search-path", "--ignore-file", "--batch-size", "--max-buffer-time", "--and",
    "--exec", "--exec-batch", "--base-directory", "--path-separator", "--format"]),
};

/**
 * The short letters a word of fd's options gives, in order, up to the one that takes the rest
 * as its value (`-Hx` is `-H -x`; `-tx` is `-t x`). A letter fd does not know is kept, and the
 * letters after it are read too (fd refuses it, but the reading stays on the safe side).
 */
function letters(w: Word): string {
  if (w.kind !== "static" || !/^-[^-]/.test(w.value)) return "";
  let out = "";
  for (const c of w.value.slice(1)) {
    out += c;
    if (FD.valued!.includes(c) && c !== "x" && c !== "X") break;
  }
  return out;
}

/** Where `-x`/`-X`/`--exec`/`--exec-batch` start a command in a word: the text after it, or null. */
function execAt(w: Word): string | null {
  if (w.kind !== "static") return null;
  const long = /^--exec(-batch)?(=|$)/.exec(w.value);
  if (long) return w.value.slice(long[0].length);
  const l = letters(w);
  const at = l.search(/[xX]/);
  return at < 0 ? null : w.value.slice(2 + at);
}

/** fd's words with its `-x`/`-X` commands taken out (each up to `;`), and those commands. */
function segments(args: Word[]): { rest: Word[]; commands: { option: Word; cmd: Word[] }[] } {
  const rest: Word[] = [];
  const commands: { option: Word; cmd: Word[] }[] = [];
  for (let i = 0; i < args.length; i++) {
    const glued = execAt(args[i]);
    if (glued === null) {
      rest.push(args[i]);
      continue;
    }
    // (The letters before it in a cluster stay fd's options: `-Hx` hides nothing.)
    const before = args[i].value.startsWith("--") ? "" : letters(args[i]).replace(/[xX].*$/, "");
    if (before) rest.push(literal("-" + before));
    const cmd: Word[] = glued ? [literal(glued)] : [];
    let j = i + 1;
    for (; j < args.length && !(args[j].kind === "static" && args[j].value === ";"); j++) {
      cmd.push(args[j]);
    }
    commands.push({ option: args[i], cmd });
    i = j;
  }
  return { rest, commands };
}

/** fd's placeholders (`{}`, `{/}`, `{//}`, `{.}`, `{/.}`): where a word has one, fd puts a path. */
const PLACEHOLDER = /\{(\/|\/\/|\.|\/\.)?\}/;

/**
 * fd -x / -X run a command (its words up to `;`) on what it finds: the paths it lists (`{}`, or
 * appended when no word has a placeholder); a word with another placeholder (`{/}` is a bare
 * name, opened in the cwd) or the path inside other text is not known. A word not known may be
 * such an option (`fd "$p"` with `-xrm`): what it runs is not known then.
 */
function fdCommands(stage: Stage, run: Runner): void {
  for (const w of stage.argv.slice(1)) {
    if (w.kind === "dynamic") run.stage([unknownWord(`(a command ${w.text} may give fd)`)], "fd");
  }
  const { rest, commands } = segments(stage.argv.slice(1));
  if (!commands.length) return;
  const found = listedLines(derived(stage, [stage.argv[0], ...rest], "fd"), fdListing) ??
    [unknownWord("(what fd found)")];
  for (const { option, cmd } of commands) {
    if (!cmd.length) continue;
    const placed = cmd.some((w) => w.kind === "static" && PLACEHOLDER.test(w.value));
    const argv = cmd.flatMap((w) =>
      w.kind === "static" && w.value === "{}"
        ? found
        : w.kind === "static" && PLACEHOLDER.test(w.value)
        ? [unknownWord(w.value)]
        : [w]
    );
    run.stage(placed ? argv : [...argv, ...found], `fd ${option.value}`);
  }
}

/** fd follows the links inside what it searches (`-L`, `--follow`, in a cluster too). */
function fdFollows(argv: Word[]): boolean {
  return argv.slice(1).some((w) =>
    w.kind === "static" && (w.value === "--follow" || letters(w).includes("L"))
  );
}

/** Options that make fd print other than paths, or paths relative to another directory. */
// deno-fmt-ignore
const NOT_PATHS = new Set(["-l", "--list-details", "--format", "--base-directory",
  "--path-separator"]);

/**
 * What fd prints: paths below its search paths (the cwd when none is given), hidden names only
 * with `-H`/`-u`, and one `-e EXT` filters the names. Null when it runs commands on them, prints
 * details, colours, another separator, or an option or path is not known.
 */
function fdListing(stage: Stage): Listing[] | null {
  const args = stage.argv.slice(1);
  if (segments(args).commands.length) return null;
  const values = args.map((w) =>
    w.kind === "static" || (w.kind === "glob" && w.prefix !== "") ? w.value : null
  );
  let hidden = false;
  const extensions: string[] = [];
  const positional: Word[] = [];
  const paths: Word[] = [];
  for (const t of readOptions(values, FD)) {
    if (t.kind === "unknown" || t.kind === "dynamic") return null;
    if (t.kind === "operand") positional.push(args[t.at]);
    if (t.kind !== "flag" && t.kind !== "valued") continue;
    const value = t.glued ?? (t.valueAt === undefined ? undefined : values[t.valueAt]);
    if (NOT_PATHS.has(t.name) || value === undefined && t.kind === "valued") return null;
    if ((t.name === "-c" || t.name === "--color") && !/^(never|auto)$/.test(value ?? "")) {
      return null;
    }
    if (/^(-H|-u|--hidden|--unrestricted)$/.test(t.name)) hidden = true;
    if (t.name === "-e" || t.name === "--extension") extensions.push(value!);
    if (t.name === "--search-path") {
      if (t.glued !== undefined) return null; // (rare: not read)
      paths.push(args[t.valueAt!]);
    }
  }
  // The first operand is the pattern, the others are the paths it searches.
  paths.push(...positional.slice(1));
  if (paths.some((w) => w.value.startsWith("-"))) return null;
  const ext = extensions.length === 1 ? extensions[0].replace(/^\./, "") : null;
  const name = ext !== null && /^[\w.+-]+$/.test(ext) ? `*.${ext}` : undefined;
  const listings: Listing[] = (paths.length ? paths : [literal(".")]).flatMap((under) =>
    hidden ? namedBelow(under, name) : [{ under, names: name ?? "*" }]
  );
  if (fdFollows(stage.argv)) { for (const l of listings) l.follows = true; }
  // (With no path, fd prints the names below the cwd as they are: `-x`.)
  if (!paths.length) { for (const l of listings) l.bare = true; }
  return listings;
}

/** fd (fdfind on Debian). */
export const FD_PROGRAM: Program = {
  names: ["fd", "fdfind"],
  runs: fdCommands,
  followsLinks: fdFollows,
  lists: fdListing,
};
