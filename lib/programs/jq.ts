/**
 * jq and yq: query languages that can open files from inside their expression. yq's `load`,
 * `load_str`, `load_xml`, … read the file they name (`yq -n 'load_str("/etc/shadow")'`); jq's
 * `import`/`include` read modules and data files from its search path. Named files are judged as
 * targets; one that cannot be known (`load(.path)`, a module path) is an unknown file.
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { Program } from "./spec.ts";

/**
 * A yq file-loading call and its argument: a string literal the call closes after (`load(".x")`),
 * or anything else (`load(".e" + "nv")`, `load(.path)`: a file not known).
 */
const YQ_LOAD = /\bload(?:_[a-z0-9]+)?\s*\(\s*(?:("(?:[^"\\]|\\.)*")\s*\)|([^)]*))/g;

/** The files yq's expressions load. */
function yqLoads(argv: Word[]): { path: string | null; source: string }[] {
  const out: { path: string | null; source: string }[] = [];
  for (const [i, w] of argv.entries()) {
    // An expression from a file (`--from-file F`): it is read, and the files its loads name
    // are not known.
    if (i > 0 && /^(--from-file|--expression-file)(=|$)/.test(w.value)) {
      const file = w.value.includes("=")
        ? w.value.slice(w.value.indexOf("=") + 1)
        : argv[i + 1]?.value;
      if (file) out.push({ path: file, source: w.text });
      out.push({ path: null, source: `(files the expression of ${w.text} may load)` });
    }
    if (i === 0) continue;
    // An expression evaluated from a string or the environment (`eval(strenv(X))`): what it loads
    // is not known.
    if (/\beval\s*\(/.test(w.value)) out.push({ path: null, source: `(files ${w.text} may load)` });
    // `-s EXPR`/`--split-exp EXPR` writes each document to a file the expression names.
    if (/^(--split-exp(=|$)|-[a-zA-Z]*s)/.test(w.value)) {
      out.push({ path: null, source: `(the files ${w.text} writes)` });
    }
    if (!w.value.includes("load")) continue;
    if (w.kind !== "static") {
      out.push({ path: null, source: w.text });
      continue;
    }
    for (const m of w.value.matchAll(YQ_LOAD)) {
      // (A literal with an escape: what yq makes of it is not read here.)
      const literal = m[1] === undefined || m[1].includes("\\") ? null : m[1].slice(1, -1);
      out.push({ path: literal, source: w.text });
    }
  }
  return out;
}

/** jq's module imports (`import "x" as y;`, `include "x";`): files from its search path. */
function jqModules(argv: Word[]): { path: string | null; source: string }[] {
  const out: { path: string | null; source: string }[] = [];
  for (const w of argv.slice(1)) {
    if (
      w.kind !== "static"
        ? /\b(import|include)\b/.test(w.text)
        : /\b(import|include)\s*"/.test(w.value)
    ) {
      out.push({ path: null, source: w.text });
    }
  }
  return out;
}

/** jq's options that take a name and a value (text both: `--arg v "$V"`). */
const JQ_TEXT_PAIRS = new Set(["--arg", "--argjson"]);
/** jq's options that take a name and a file (`--slurpfile v data.json`). */
const JQ_FILE_PAIRS = new Set(["--slurpfile", "--rawfile", "--argfile"]);
/** jq's options that take one value. */
const JQ_VALUED = new Set(["-L", "--indent", "--library-path"]);

/**
 * jq's text: its filter (its first operand, unless the filter comes from a file: `-f`,
 * `--from-file`), the names and values of `--arg`/`--argjson` and the names of `--slurpfile`/
 * `--rawfile` (their files stay files), and after `--args`/`--jsonargs` the operands after the
 * filter, which are strings (`$ARGS.positional`), not files. Options are read anywhere before
 * `--`; a word not known ends the reading (what follows may be files).
 */
function jqText(argv: Word[]): number[] {
  const out: number[] = [];
  let filter = false;
  let file = false; // (the filter's file is still to come: `jq -f prog.jq`, jq 1.6's first operand)
  let strings = false;
  let options = true;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") {
      if (!options || !w.text.startsWith("-")) {
        if (!filter) return out;
        if (strings && !file) out.push(i);
        file = false;
      }
      continue;
    }
    const v = w.value;
    if (options && v.startsWith("-") && v !== "-") {
      // (`-f` in a cluster too, `-nf FILE`: jq reads each letter of it.)
      if (/^-[A-Za-z]*f[A-Za-z]*$/.test(v) || v === "--from-file") filter = file = true;
      else if (v === "--args" || v === "--jsonargs") strings = true;
      else if (v === "--") options = false;
      else if (JQ_TEXT_PAIRS.has(v)) out.push(++i, ++i);
      else if (JQ_FILE_PAIRS.has(v)) out.push(++i), i++;
      else if (JQ_VALUED.has(v)) i++;
      continue;
    }
    if (file) file = false;
    else if (!filter) {
      filter = true;
      out.push(i);
    } else if (strings) out.push(i);
  }
  return out.filter((i) => i < argv.length);
}

/** yq's options that take a value. */
const YQ_VALUED = new Set([
  "-o",
  "-p",
  "-I",
  "-s",
  "--output-format",
  "--input-format",
  "--indent",
  "--split-exp",
]);

/**
 * yq's expression: its first operand (after `eval`/`e`/`eval-all`/`ea`). mikefarah's yq reads a
 * sole operand that names an existing file as its input (`yq .env` prints `.env`): one that may
 * be a path is no text then, and is judged as the file it may be.
 */
function yqExpression(argv: Word[]): number[] {
  const text: number[] = [];
  let command = false;
  let at = -1;
  const done = (sole: boolean) =>
    [...(at < 0 || (sole && /^[\w@%+=:,./~-]+$/.test(argv[at].value)) ? [] : [at]), ...text]
      .filter((i) => i < argv.length);
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") return done(false);
    const v = w.value;
    // (kislyuk's yq passes jq's options on: `--arg v "$V"`'s name and value are text, and what
    // follows `--args`/`--jsonargs` is all jq's, the filter and strings.)
    if (v === "--args" || v === "--jsonargs") {
      for (let j = i + 1; j < argv.length; j++) text.push(j);
      return done(false);
    }
    if (JQ_TEXT_PAIRS.has(v)) text.push(++i, ++i);
    else if (JQ_FILE_PAIRS.has(v)) text.push(++i), i++;
    else if (YQ_VALUED.has(v)) i++;
    else if (v.startsWith("-") && v !== "-") continue;
    else if (!command && at < 0 && /^(eval|e|eval-all|ea)$/.test(v)) command = true;
    else if (at < 0) at = i;
    else return done(false);
  }
  return done(true);
}

/** jq and yq. */
export const QUERY_PROGRAMS: Program[] = [
  { names: ["jq", "gojq", "jaq"], text: jqText, namedFiles: jqModules },
  {
    names: ["yq"],
    text: yqExpression,
    namedFiles: yqLoads,
    // yq -i writes the file it reads.
    readOnly: { "": { short: "is", long: ["--inplace", "--in-place", "--split-exp"] } },
  },
];
