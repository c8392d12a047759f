/**
 * xargs and GNU parallel: the command they run (after their own options; before `:::` for
 * parallel), completed by words known only at run time (their input), so it is a stage of its own
 * whose last word is unknown.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { Listing, ListingOf, Program, Runner } from "./spec.ts";
import {
  derived,
  eachAlone,
  type GivenInput,
  givenInput,
  listedLines,
  literal,
  unknownWord,
} from "./words.ts";
import { commandLines, pipesInput } from "./parallel_lines.ts";
import { knownRuns } from "./xargs_input.ts";

/**
 * xargs's options (GNU's and BSD's common ones): -i, -e and -l take an optional attached value
 * only; the others that take a value take the next word.
 */
const XARGS: OptionGrammar = {
  flags: "0oprtx",
  valued: "adEILnPs",
  gluedOnly: "iel",
  // deno-fmt-ignore
  longFlags: new Set(["--null", "--interactive", "--no-run-if-empty", "--verbose", "--exit",
    "--open-tty", "--show-limits", "--help", "--version"]),
  // deno-fmt-ignore
  longValued: new Set(["--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars",
    "--process-slot-var"]),
  // (`--replace[=R]`, `--eof[=E]`, `--max-lines[=N]`: a value only after `=`, as -i, -e, -l.)
  longOptional: new Set(["--replace", "--eof", "--max-lines"]),
  // (GNU's getopt_long: `--process-slot=PATH` is `--process-slot-var=PATH`.)
  abbreviations: true,
};

/** xargs's options, for its input's reader (xargs_input.ts). */
export const XARGS_GRAMMAR: OptionGrammar = XARGS;

/** GNU parallel's options that take a value (any other letter is a flag). */
const PARALLEL: OptionGrammar = {
  valued: "adEIjJLnNPsSC",
  gluedOnly: "i",
  // deno-fmt-ignore
  longValued: new Set(["--arg-file", "--delimiter", "--eof", "--replace", "--max-lines",
    "--max-args", "--max-procs", "--max-chars", "--jobs", "--sshlogin", "--colsep", "--joblog",
    "--results", "--tmpdir", "--workdir", "--halt", "--delay", "--timeout", "--retries",
    "--memfree", "--load", "--tagstring", "--basefile", "--return", "--env", "--arg-sep",
    "--arg-file-sep", "--extensionreplace", "--er", "--basenamereplace", "--bnr",
    "--dirnamereplace", "--dnr", "--basenameextensionreplace", "--bner", "--seqreplace",
    "--slotreplace", "--rpl", "--parens", "--profile"]),
  // deno-fmt-ignore
  longFlags: new Set(["--tty", "--open-tty", "--keep-order", "--verbose", "--dry-run", "--null",
    "--pipe", "--spreadstdin", "--pipe-part", "--pipepart", "--semaphore", "--quote", "--xapply", "--link", "--group", "--ungroup", "--line-buffer",
    "--bar", "--progress", "--eta", "--tag", "--will-cite", "--no-notice", "--shuf", "--silent",
    "--plus", "--plain"]),
};

/** How many options a reader does not know it follows both ways before it gives up. */
const UNKNOWN_OPTIONS = 4;

/**
 * The commands xargs (or parallel) may run: its words after its own options. Where an option is
 * one the grammar does not know, it may take the next word or not: both readings are kept (the
 * strictest verdict of the two decides), and past a few such options the command is not known.
 */
function commandsOf(args: Word[], grammar: OptionGrammar, unknowns = 0): Word[][] {
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  for (const t of readOptions(values, grammar)) {
    if (t.kind === "dynamic" || t.kind === "operand") return [args.slice(t.at)];
    if (t.kind === "end") return [args.slice(t.at + 1)];
    if (t.kind !== "unknown") continue;
    if (unknowns >= UNKNOWN_OPTIONS) return [[unknownWord(`(a command after ${args[t.at].text})`)]];
    const after = args.slice(t.at + 1);
    const out: Word[][] = [];
    for (const reading of [after, after.slice(1)]) {
      for (const cmd of commandsOf(reading, grammar, unknowns + 1)) {
        if (!out.some((c) => c.length === cmd.length && c.every((w, i) => w === cmd[i]))) {
          out.push(cmd);
        }
      }
    }
    return out;
  }
  return [[]];
}

/**
 * The words xargs reads from a program before it in the pipeline whose output is paths below
 * known places (`find src | xargs cat`): paths there (`lines`); with `-0`, each one whole (a
 * name with blanks is not split). Null when its input is anything else (a file given by `-a`, a
 * program that prints other text).
 */
function listedInput(stage: Stage, lines: Word[] | null): Word[] | null {
  const values = stage.argv.slice(1).map((a) => (a.kind === "static" ? a.value : null));
  let nul = false;
  for (const t of readOptions(values, XARGS)) {
    if (t.kind === "valued" && (t.name === "-a" || t.name === "--arg-file")) return null;
    if (t.kind === "flag" && (t.name === "-0" || t.name === "--null")) nul = true;
    if (t.kind !== "valued" && t.kind !== "flag") break;
  }
  if (!nul || !lines) return lines;
  return lines.map((w) => (w.listed ? { ...w, listed: { ...w.listed, whole: true } } : w));
}

/**
 * Whether each command xargs runs is given one item: `-I R` (`-i`, `--replace`: a line each) or
 * `-n 1` (`--max-args=1`), with no other of `-I`, `-n`, `-L` (`-l`, `--max-lines`) beside it (GNU
 * xargs lets the last win and warns; which one does is not read here).
 */
function oneItem(args: Word[]): boolean {
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  const limits: boolean[] = [];
  for (const t of readOptions(values, XARGS)) {
    if (t.kind !== "valued" && t.kind !== "flag") break;
    if (t.kind !== "valued") continue;
    const value = t.glued ?? (t.valueAt === undefined ? null : values[t.valueAt]);
    if (t.name === "-I" || t.name === "-i" || t.name === "--replace") limits.push(true);
    else if (t.name === "-n" || t.name === "--max-args") limits.push(value === "1");
    else if (t.name === "-L" || t.name === "-l" || t.name === "--max-lines") limits.push(false);
  }
  return limits.length === 1 && limits[0];
}

/**
 * The standard input of the commands xargs runs: with `-a FILE` (`--arg-file`) xargs reads its
 * words from FILE and leaves standard input to them; otherwise they get `/dev/null`, and with
 * `-o` (`--open-tty`) the terminal, `/dev/tty` reopened (man xargs): pi gives none, a runner
 * around it may (`script -qc 'xargs -o ugrep KEY'`).
 */
function xargsInput(args: Word[]): GivenInput {
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  let file = false;
  for (const t of readOptions(values, XARGS)) {
    if (t.kind === "flag" && (t.name === "-o" || t.name === "--open-tty")) return "terminal";
    if (t.kind === "valued" && (t.name === "-a" || t.name === "--arg-file")) file = true;
    if (t.kind !== "valued" && t.kind !== "flag") break;
  }
  return file ? "shared" : "nothing";
}

/**
 * The standard input of the commands GNU parallel runs (man parallel, `Job::start`): `--pipe`
 * (`--spreadstdin`) and `--pipepart` give each a block of it, `--semaphore` gives it whole;
 * otherwise `--tty` and `-o` (`--open-tty`) give them the terminal (`/dev/tty`); with `-a FILE`
 * (`--arg-file`) or `:::: FILE` its inputs come from files and standard input is given on, else
 * they get an empty one (`/dev/null` in older versions). Getopt::Long takes long options'
 * prefixes.
 */
function parallelInput(options: Word[], inputs: Word[]): GivenInput {
  const values = options.map((a) => (a.kind === "static" ? a.value : null));
  if (pipesInput(options)) return "shared";
  let file = inputs.some((w) => /^::::\+?$/.test(w.value));
  let tty = false;
  for (const t of readOptions(values, PARALLEL)) {
    if (t.kind === "operand" || t.kind === "end") break;
    const long = /^--([a-z-]{2,})/.exec(t.name)?.[1];
    if (long && "semaphore".startsWith(long)) return "shared";
    if (t.name === "-a" || long && PARALLEL_FILES.some((o) => o.startsWith(long))) file = true;
    if (t.name === "-o" || long && ["tty", "open-tty"].some((o) => o.startsWith(long))) tty = true;
  }
  return tty ? "terminal" : file ? "shared" : "nothing";
}

/** parallel's options that read its inputs from a file (`--arg-file`). */
const PARALLEL_FILES = ["arg-file", "argfile"];

/**
 * What xargs prints when the command it runs lists what it is given (`… | xargs grep -l x`
 * prints names of the paths it reads): that command's listing, given the words xargs reads.
 * Null when the command (or one of its readings) may print anything else, or xargs runs none
 * (it echoes its input on one line).
 */
function xargsListing(stage: Stage, listingOf: ListingOf): Listing[] | null {
  const input = listedInput(stage, stage.input ? listedLines(stage.input, listingOf) : null);
  if (!input) return null;
  const args = stage.argv.slice(1);
  const out: Listing[] = [];
  for (const cmd of commandsOf(args, XARGS)) {
    const ran = cmd.length ? derived(stage, filled(cmd, args, input), "xargs") : null;
    const listed = ran ? listingOf(givenInput(ran, xargsInput(args))) : null;
    if (!listed) return null;
    out.push(...listed);
  }
  return out;
}

/**
 * The placeholder of `-I R`, `-iR`/`-i`, `--replace=R`/`--replace` (`{}`), if xargs replaces one
 * ("" when it does and R is not known).
 */
function placeholder(args: Word[]): string | null {
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  let found: string | null = null;
  for (const t of readOptions(values, XARGS)) {
    if (t.kind === "valued" && t.name === "-I") {
      found = t.glued ?? (t.valueAt === undefined ? "" : values[t.valueAt] ?? "");
    } else if (t.kind === "valued" && t.name === "--replace") found = t.glued ?? "{}";
    else if (t.kind === "valued" && t.name === "-i") found = t.glued ?? "{}";
    else if (t.kind !== "valued" && t.kind !== "flag") break;
  }
  return found;
}

/**
 * The command with what xargs reads put in: appended, or where a word is the placeholder of
 * `-I` (a word with the placeholder and other text is not known: `{}/../x` leaves the place).
 */
function filled(cmd: Word[], args: Word[], input: Word[] | null): Word[] {
  const unknown = unknownWord("(xargs input)");
  const r = input ? placeholder(args) : null;
  if (r === "") return [...cmd, unknown];
  // (No word with the placeholder: the words are judged as if appended, which is no less.)
  if (r === null || !input || !cmd.some((w) => w.value.includes(r))) {
    return [...cmd, ...(input ?? [unknown])];
  }
  return cmd.flatMap((w) =>
    w.kind === "static" && w.value === r
      ? input
      : w.kind === "static" && w.value.includes(r)
      ? [unknownWord(w.value)]
      : [w]
  );
}

/**
 * The command `xargs -I R` runs for one known item: R replaced by it wherever it stands in the
 * command's words (`{}/key`); null where there is no placeholder.
 */
function replaced(cmd: Word[], args: Word[], items: Word[]): Word[] | null {
  const r = placeholder(args);
  if (!r || !cmd.length || items.length !== 1) return null;
  const item = items[0].value;
  return cmd.map((w) =>
    w.kind === "static" && w.value.includes(r) ? literal(w.value.replaceAll(r, item)) : w
  );
}

/**
 * The inputs of `parallel ::: A B` with no command: each runs as a command line (another `:::`
 * or `::::` combines them with more inputs, which no one can know).
 */
function parallelInputs(inputs: Word[], run: Runner): void {
  for (const w of inputs) {
    if (w.kind === "static" && /^::::?\+?$/.test(w.value)) {
      run.stage([unknownWord(`(commands made with the inputs after ${w.value})`)], "parallel");
      return;
    }
    run.shell(w, "parallel");
  }
}

/**
 * The options whose values are Perl parallel runs: `--rpl 'TAG PERL'` defines a replacement string
 * as Perl, `--parens` the delimiters of `{= =}` (any word may hold Perl then); Getopt::Long takes
 * a prefix (`--rp`, `--pa`).
 */
const PERL_OPTIONS = /^--(?:rpl?|pa(?:r(?:e(?:ns?)?)?)?)(?:=|$)/;

/**
 * The options parallel reads before its own words (man parallel, "PROFILE FILES"): each
 * `-J NAME` (`--profile`) file `~/.parallel/NAME`, else `~/.parallel/config` (the directory
 * `$PARALLEL_HOME` where set), then `$PARALLEL`; split at blanks (lines starting with `#` are
 * comments). Null where one is not known (a file another stage may write, a profile by path).
 */
function parallelSettings(args: Word[], run: Runner): Word[] | null {
  const home = run.variable("PARALLEL_HOME") ?? (run.home(null) ?? "") + "/.parallel";
  const profiles: (string | null)[] = [];
  for (let i = 0; i < args.length; i++) {
    const m = /^(?:-J|--profile(?:=|$)|--prof(?:i(?:le?)?)?(?:=|$))(.*)$/s.exec(args[i].value);
    if (!m || args[i].kind !== "static") continue;
    const name = m[1] !== "" ? m[1] : args[++i]?.kind === "static" ? args[i].value : null;
    profiles.push(name === null || name.includes("/") ? null : `${home}/${name}`);
  }
  if (!profiles.length) profiles.push(`${home}/config`);
  const texts = profiles.map((f) => (f === null || !home.startsWith("/") ? null : run.settings(f)));
  if (texts.includes(null)) return null;
  const lines = [...texts, run.variable("PARALLEL") ?? ""].join("\n").split("\n");
  const words = lines.filter((l) => !/^\s*#/.test(l)).join(" ").split(/\s+/);
  return words.filter((w) => w !== "").map(literal);
}

/**
 * Code parallel runs besides its command: a `{= perl expression =}` replacement string (in the
 * command, `--tagstring`, …) and the values of `PERL_OPTIONS` are Perl; an `-S`/`--sshlogin` that is a command line (`-S 'rm x'`)
 * is run as the ssh command, the remote command after it.
 */
function parallelCode(args: Word[], run: Runner): void {
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.value.includes("{=") || PERL_OPTIONS.test(w.value)) {
      run.stage([unknownWord(`(the Perl of ${w.text})`)], "parallel");
    }
    const login = /^(?:-S|--sshlogin=?|--sshl[a-z]*=?)(.*)$/s.exec(w.value);
    if (!login) continue;
    const value = login[1] !== "" ? literal(login[1]) : args[i + 1];
    if (value && /\s/.test(value.value) && !/^\d+\//.test(value.value)) {
      run.shell(value.kind === "static" ? value : unknownWord(value.text), "parallel --sshlogin");
    }
  }
}

/**
 * The variables xargs sets in the environment of the command it runs: `--process-slot-var=NAME`
 * exports NAME as the number of the slot running it (`0` where one runs at a time, else a number
 * not known). The assignments are the command's, judged as `NAME=0 cmd` is (`PATH=0` looks
 * commands up in `./0`). A name not known is a variable not known.
 */
function slotVariables(args: Word[]): Word[] {
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  const names: (string | null)[] = [];
  let parallel = false;
  for (const t of readOptions(values, XARGS)) {
    if (t.kind !== "valued" && t.kind !== "flag") break;
    if (t.kind !== "valued") continue;
    const value = t.glued ?? (t.valueAt === undefined ? null : values[t.valueAt]);
    if (t.name === "--process-slot-var") names.push(value);
    if (t.name === "-P" || t.name === "--max-procs") parallel = value !== "1";
  }
  return names.map((name) => {
    if (name === null || !/^[A-Za-z_]\w*$/.test(name)) {
      return unknownWord("(a variable --process-slot-var names)=");
    }
    if (!parallel) return literal(`${name}=0`);
    return { value: `${name}=`, kind: "dynamic", prefix: `${name}=`, text: `${name}=$slot` };
  });
}

/** xargs and parallel. */
export const XARGS_PROGRAMS: Program[] = [
  {
    names: ["xargs"],
    options: XARGS,
    lists: xargsListing,
    runs: (stage, run) => {
      const listed = listedInput(stage, run.listed());
      // (Else what xargs reads of text the gate knows: the items of each command it runs.)
      const known = listed ? null : knownRuns(stage, XARGS);
      const given = xargsInput(stage.argv.slice(1));
      if (given !== "shared") run = run.alone(given === "terminal");
      const env = slotVariables(stage.argv.slice(1));
      if (env.length) run.environment(env);
      for (const cmd of commandsOf(stage.argv.slice(1), XARGS)) {
        const args = stage.argv.slice(1);
        const line = cmd.length ? cmd : [literal("echo")];
        const argvs = known
          ? known.map((items) => replaced(cmd, args, items) ?? filled(line, args, items))
          : listed && oneItem(args)
          ? eachAlone(filled(line, args, listed), listed)
          : [filled(line, args, listed)];
        for (const argv of argvs) {
          if (env.length) {
            const ran = derived(stage, argv, "xargs");
            run.more({ ...givenInput(ran, given), assignments: env });
          } else run.stage(argv, "xargs");
        }
      }
    },
  },
  {
    // GNU parallel: the command comes before `:::`; what follows (or stdin) fills it in. With
    // no command, each input is a command line: the words after `:::`, else lines of stdin or
    // of the files after `::::`.
    names: ["parallel"],
    runs: (stage, run) => {
      const args = stage.argv.slice(1);
      // (`:::+` and `::::+` link their inputs to the ones before: separators all the same.)
      const end = args.findIndex((a) => a.kind === "static" && /^:::+\+?$/.test(a.value));
      const before = end >= 0 ? args.slice(0, end) : args;
      const quoted = readOptions(before.map((a) => a.kind === "static" ? a.value : null), PARALLEL)
        .some((t) => t.name === "-q" || t.name === "--quote");
      // (The options of its profile files and `$PARALLEL` come first.)
      const settings = parallelSettings(before, run);
      if (settings === null) run.stage([unknownWord("(the options of ~/.parallel)")], "parallel");
      else if (settings.length) parallelCode(settings, run);
      const inputs = end >= 0 ? args.slice(end) : [];
      for (const cmd of commandsOf(before, PARALLEL)) {
        const options = [...settings ?? [], ...before.slice(0, before.length - cmd.length)];
        // (Options not known may be any: its standard input may be given on.)
        const given = settings === null ? "shared" : parallelInput(options, inputs);
        const r = given === "shared" ? run : run.alone(given === "terminal");
        // The words of the command are joined into a shell line (`-q` quotes each one).
        if (cmd.length && !quoted && cmd.every((w) => w.kind === "static")) {
          commandLines(cmd, options, end >= 0 ? inputs : null, r);
        } else if (cmd.length) r.stage([...cmd, unknownWord("(parallel input)")], "parallel");
        else if (end >= 0 && /^:::\+?$/.test(args[end].value)) {
          parallelInputs(args.slice(end + 1), r);
        } else r.stage([unknownWord("(commands parallel reads)")], "parallel");
      }
      parallelCode(end >= 0 ? args.slice(0, end) : args, run);
    },
  },
];
