/**
 * Small helpers the program modules share to read and make words and stages: a program's name, a
 * static word, a placeholder for a value known only at run time, a stage derived from another.
 *
 * @module
 */
import {
  type Listed,
  type Redirect,
  redirectsStdin,
  type Stage,
  type Word,
} from "../shell/model.ts";
import { cdInto } from "../shell/paths.ts";
import { shellQuote } from "../shell/words.ts";
import { runTimePattern } from "../shell/run_time_parts.ts";
import type { ListingOf, Runner } from "./spec.ts";
import { registryName } from "./other_names.ts";

/**
 * The basename of a static command word ("" when it is not static), as the program's own name
 * where it is another name of a known one (`grm` is `rm`: other_names.ts).
 */
export function programName(w: Word | undefined): string {
  if (!w || w.kind !== "static") return "";
  return registryName(w.value.slice(w.value.lastIndexOf("/") + 1));
}

/**
 * Whether a word not fully known is still one name, never an option or several words: its known
 * start is text that does not begin with `-`, and every expansion in it is inside double quotes
 * (`"v$VERSION"`, `fix/"$ISSUE"`, `"app:$SHA"`): a tag, a branch, an image name.
 */
export function quotedName(w: Word): boolean {
  if (w.kind === "static") return true;
  if (w.kind !== "dynamic" || w.prefix === "" || w.prefix.startsWith("-")) return false;
  let quoted = false;
  for (let i = 0; i < w.text.length; i++) {
    const c = w.text[i];
    if (c === "\\") i++;
    else if (c === '"') quoted = !quoted;
    else if (c === "'" && !quoted) {
      const end = w.text.indexOf("'", i + 1);
      if (end < 0) return false;
      i = end;
    } else if ((c === "$" || c === "`") && !quoted) return false;
  }
  return true;
}

/** A static word. */
export function literal(value: string): Word {
  return { value, kind: "static", prefix: value, text: value };
}

/** An option's value as `readOptions` read it: glued to it (`-ufoo`), or the word it took. */
export function optionValue(
  t: { glued?: string; valueAt?: number },
  args: Word[],
): Word | undefined {
  return t.glued !== undefined
    ? literal(t.glued)
    : t.valueAt === undefined
    ? undefined
    : args[t.valueAt];
}

/** A placeholder word for a value the program supplies at run time (xargs input, find's `{}`). */
export function unknownWord(text: string, prefix = ""): Word {
  return { value: text, kind: prefix ? "glob" : "dynamic", prefix, text };
}

/**
 * A path a program listed (see `Listing`): below `under`'s value (or its prefix, for a glob), its
 * last component `names` when given (shown in its text, which the protections read).
 */
export function listedWord(
  under: Word,
  names: string | undefined,
  what: string,
  listed: Listed = {},
): Word {
  const prefix = under.kind === "static"
    ? (under.value.endsWith("/") ? under.value : under.value + "/")
    : under.prefix;
  const text = `${prefix}(${what})/${names ?? ""}`;
  return { value: text, kind: "dynamic", prefix, text, listed };
}

/**
 * The words that stand for one line of what `source` prints, when that is paths of its listing
 * (`find src` prints paths below src): one word per listing, or null when it may print anything
 * else, or names a reader would split (blanks, quotes, backslashes).
 */
export function listedLines(
  source: Stage,
  listingOf: ListingOf,
  opts: { whole?: boolean } = {},
): Word[] | null {
  const listings = listingOf(source);
  if (!listings || listings.some((l) => /[\s"'\\]/.test(l.names ?? ""))) return null;
  const what = `paths ${programName(source.argv[0])} lists`;
  return listings.map((l) => {
    if (l.exact) return l.under;
    const listed: Listed = {};
    if (l.noLinks) listed.noLinks = true;
    if (l.noHidden) listed.noHidden = true;
    if (l.tracked) listed.tracked = true;
    if (l.bare) listed.bare = true;
    if (opts.whole) listed.whole = true;
    // (A lister that follows links prints paths through links of any name.)
    if (l.names && !l.follows) listed.names = l.names;
    return listedWord(l.under, l.names, what, listed);
  });
}

/**
 * The commands a program runs once per path it lists, each given one (`find -exec sh -c '…' _
 * {} \;`, `xargs -I{}`, `xargs -n 1`), where `argv` has the words that stand for one path
 * (`listed`, as `listedLines` gives them) in a placeholder's place: a shell's, one command per
 * word with that word `alone` (its `"$1"` is then known: that path); another program's, `argv`
 * as it is (each word judged as one of its arguments, which is no less).
 */
export function eachAlone(argv: Word[], listed: readonly Word[]): Word[][] {
  const name = programName(argv[0]);
  if (name !== "bash" && name !== "sh" && name !== "dash") return [argv];
  const slots = new Set(listed);
  // (No listed word in its words: the placeholder was inside other text, not known as it stands.)
  if (!listed.length || !argv.some((w) => slots.has(w))) return [argv];
  const out: Word[][] = [];
  for (const one of listed) {
    const alone = one.listed ? { ...one, listed: { ...one.listed, alone: true as const } } : one;
    const cmd: Word[] = [];
    let k = 0;
    while (k < argv.length) {
      // (A run of the listed words, in order, is one placeholder's.)
      if (argv[k] === listed[0] && listed.every((l, i) => argv[k + i] === l)) {
        cmd.push(alone);
        k += listed.length;
      } else cmd.push(argv[k++]);
    }
    if (cmd.some((w) => slots.has(w))) return [argv];
    out.push(cmd);
  }
  return out;
}

/**
 * The words bash makes of what a listing prints in an unquoted `$(…)` (`wc -l $(git ls-files)`),
 * as xargs gets them: paths below the listed places, split at blanks. bash also globs each field,
 * so a listed name holding `*` stands for other names there (a tracked `secrets/*` for an
 * untracked `secrets/key`, `src/*` for a path through a link, `.*` under `dotglob`): what the
 * listing says of links, hidden files and the index does not hold. Its names glob does where it
 * is a literal name or prefix and suffix (`-name '*.ts'`): a field so made is so after globbing.
 * Null where it may print anything else.
 */
export function splitLines(source: Stage, listingOf: ListingOf): Word[] | null {
  return listedLines(source, listingOf)?.map((w) => {
    if (!w.listed) return w;
    const names = w.listed.names;
    if (names && LITERAL_SUFFIX.test(names)) return { ...w, listed: { names } };
    // (The names glob is in the word's text, which the protections read: dropped there too.)
    const text = names ? w.text.slice(0, w.text.length - names.length) : w.text;
    return { ...w, value: text, text, listed: {} };
  }) ?? null;
}

/**
 * A name glob that is a literal name, or a literal prefix and suffix around one `*`
 * (`*.ts`, `.*.ts`, `btree*.c`): bash's glob of a name it matches starts and ends so too.
 */
const LITERAL_SUFFIX = /^[^*?[\]\\()|@+!]*\*?[^*?[\]\\()|@+!]*$/;

/**
 * Words as one line of shell text: `argv`, each static word quoted so the line reads back as those
 * words (a container runs them as they are), a word not known statically as its source text (one
 * word of unknown value); `joined`, their values joined by blanks (ssh sends that to the remote
 * shell, which reads it again), the unknown parts of a value kept as written (`$X`).
 */
export function commandLine(words: Word[], form: "argv" | "joined"): Word {
  const parts = words.map((w) =>
    form === "joined" ? w.value : w.kind !== "static" ? w.text : shellQuote(w.value)
  );
  return literal(parts.join(" "));
}

/**
 * The command lines a program runs from its words after `from` when its options could not all
 * be read (an option not known may take the next word or not): one from each word on that is
 * static, so whichever one the command starts at is judged.
 */
export function linesFrom(words: Word[], from: number, form: "argv" | "joined"): Word[] {
  const out: Word[] = [];
  for (let i = from; i < words.length; i++) {
    if (words[i].kind === "static") out.push(commandLine(words.slice(i), form));
  }
  return out;
}

/**
 * What a stage's standard input (fd 0) is, as bash sets it up: its one redirect of fd 0 (a
 * here-document or here-string, a file, a descriptor), else the pipe before it, else nothing (pi
 * gives a command no terminal to read). `/dev/null` and a closed fd 0 give nothing. Two redirects
 * of fd 0 are `several`: the later one wins, and the walk does not keep their order.
 */
export type StandardInput =
  | { from: "document"; redirect: Redirect }
  | { from: "file"; redirect: Redirect }
  | { from: "descriptor" | "several"; redirect?: Redirect }
  | { from: "pipe" | "nothing"; redirect?: undefined };

/** What feeds a stage's standard input (see `StandardInput`). */
export function standardInput(stage: Stage): StandardInput {
  let found: Redirect | undefined;
  for (const r of stage.redirects) {
    if (!redirectsStdin(r)) continue;
    if (found) return { from: "several", redirect: r };
    found = r;
  }
  if (!found) return { from: stage.piped ? "pipe" : "nothing" };
  if (found.kind === "heredoc" || found.kind === "herestring") {
    return { from: "document", redirect: found };
  }
  const op = found.op.replace(/^\d+/, "");
  if (found.kind === "dup") {
    return op.endsWith("-") ? { from: "nothing" } : { from: "descriptor", redirect: found };
  }
  if (found.target?.kind === "static" && found.target.value === "/dev/null") {
    return { from: "nothing" };
  }
  // `<FILE` and `<>FILE` read the file; `0>FILE` and `0<&WORD` are not a file read as commands.
  return op === "<" || op === "<>"
    ? { from: "file", redirect: found }
    : { from: "descriptor", redirect: found };
}

/**
 * How a command a stage runs (`bash -c`, `eval`, awk's `system()`) gets standard input: one
 * whose own input is neither redirected nor a pipe within its text shares the stage's, its
 * redirects of fd 0 (`bash -c sh <<<'rm x'` feeds `sh`) or its pipe (with the stage that writes
 * it). `connection`: the stage's input is a stream no one reads here (`nc -e`, awk's `print |
 * "cmd"`), given to every command it runs.
 */
export function inheritInput(outer: Stage, connection = false): (inner: Stage) => Stage {
  if (connection) return (s) => (s.piped ? s : { ...s, piped: true });
  const own = outer.redirects.filter(redirectsStdin);
  const terminal = outer.terminal === true;
  if (!own.length && !outer.piped && !terminal) return (s) => s;
  return (s) => {
    if (s.piped) return s;
    const mine = s.redirects.filter(redirectsStdin);
    // (`< /dev/stdin` is the terminal still: `script -qc 'ugrep KEY < /dev/stdin'`.)
    if (mine.length) return terminal && mine.every(sameInput) ? { ...s, terminal } : s;
    const t = terminal ? { ...s, terminal } : s;
    if (own.length) return { ...t, redirects: [...own, ...s.redirects] };
    if (!outer.piped) return t;
    return outer.input ? { ...t, piped: true, input: outer.input } : { ...t, piped: true };
  };
}

/** The names of standard input itself (a redirect from them leaves it as it was). */
const SAME_INPUT = /^(?:\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/** Whether a redirect of fd 0 leaves it as it was (`< /dev/stdin`). */
function sameInput(r: Redirect): boolean {
  return r.kind === "read" && r.target?.kind === "static" && SAME_INPUT.test(r.target.value);
}

/**
 * The shell a program starts when it is given no command (`unshare`, `sudo -s`, `nix-shell`): a
 * stage `sh` with the program's standard input, which runs its commands as `sh` alone would (a
 * here-document's are read, a pipe's are not known, with no input nothing runs).
 */
export function startsShell(
  run: Pick<Runner, "stage">,
  origin: string,
  cwds?: (string | null)[],
): void {
  run.stage([literal("sh")], origin, cwds);
}

/** The here-document or here-string that is a stage's standard input, if one is. */
export function inputDocument(stage: Stage): Redirect | undefined {
  const input = standardInput(stage);
  return input.from === "document" ? input.redirect : undefined;
}

/**
 * The text a stage reads on its standard input where it is known: a here-document's body, or a
 * file's as `read` gives it (see `Program.namedFiles`); null where it is not known (a pipe, a
 * descriptor, a file not read); undefined where it reads nothing.
 */
export function inputText(
  stage: Stage,
  read: ((path: string) => string | null) | undefined,
): string | null | undefined {
  const input = standardInput(stage);
  if (input.from === "nothing") return undefined;
  if (input.from === "document") {
    const body = input.redirect.body;
    return body?.kind === "static" ? body.value : null;
  }
  const target = input.from === "file" ? input.redirect.target : undefined;
  return target?.kind === "static" && read ? read(target.value) : null;
}

/** A stage run by `stage`: its redirects and pipe, other words, another origin, maybe other cwds. */
export function derived(
  stage: Stage,
  argv: Word[],
  origin: string,
  cwds?: (string | null)[],
): Stage {
  return {
    argv,
    redirects: stage.redirects,
    text: stage.text,
    origin,
    cwds: cwds ?? stage.cwds,
    piped: stage.piped,
    ...(stage.terminal ? { terminal: true } : {}),
    ...(stage.unknownVars ? { unknownVars: stage.unknownVars } : {}),
  };
}

/**
 * The stage with no standard input: no pipe, and no redirect of fd 0 (what xargs runs reads
 * `/dev/null`, not the pipe or the file xargs reads its words from).
 */
export function withoutInput(stage: Stage): Stage {
  if (
    !stage.piped && !stage.input && !stage.terminal && !stage.redirects.some(redirectsStdin)
  ) return stage;
  const { piped: _piped, input: _input, terminal: _terminal, ...rest } = stage;
  return { ...rest, redirects: stage.redirects.filter((r) => !redirectsStdin(r)) };
}

/**
 * What standard input a runner gives what it runs (`Runner.alone`, `Runner.terminal`): the
 * stage's own (`shared`), none (`nothing`: xargs's `/dev/null`), a terminal it opens in place
 * of the stage's (`terminal`: `xargs -o`'s `/dev/tty`), or a terminal of its own that the
 * stage's input feeds (`pty`: script's, unbuffer's).
 */
export type GivenInput = "shared" | "nothing" | "terminal" | "pty";

/** A stage a runner runs, with the standard input it gives it (see `GivenInput`). */
export function givenInput(stage: Stage, given: GivenInput): Stage {
  if (given === "shared") return stage;
  if (given === "nothing") return withoutInput(stage);
  return { ...(given === "terminal" ? withoutInput(stage) : stage), terminal: true };
}

/** The cwds after `cd dir` from each of `cwds` (unknown when `dir` is not static). */
export function chdir(cwds: (string | null)[], dir: Word): (string | null)[] {
  if (dir.kind !== "static" || runTimePattern(dir.value) !== null) return [null];
  return cwds.map((c) => (c === null ? null : cdInto(c, dir.value, true)[0]));
}

/**
 * A stage that opens the file a program's settings or language name (`read_text('~/.ssh/x')`,
 * `tokenFile: f`), judged where it lies: `~` as the home directory, as the program expands it.
 */
export function opensFile(path: string, run: Runner, origin: string): void {
  const name = `(${origin} opens)`;
  if (!path) return;
  if (path === "~" || path.startsWith("~/")) {
    run.shell(literal(`${shellQuote(name)} ~/${shellQuote(path.slice(2) || ".")}`), origin);
  } else run.stage([literal(name), literal(path)], origin);
}
