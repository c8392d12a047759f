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

/** A yq file-loading call and its argument (a string literal, or anything else). */
const YQ_LOAD = /\bload(?:_[a-z0-9]+)?\s*\(\s*("(?:[^"\\]|\\.)*"|[^)]*)/g;

/** The files yq's expressions load. */
function yqLoads(argv: Word[]): { path: string | null; source: string }[] {
  const out: { path: string | null; source: string }[] = [];
  for (const w of argv.slice(1)) {
    if (!w.value.includes("load")) continue;
    if (w.kind !== "static") {
      out.push({ path: null, source: w.text });
      continue;
    }
    for (const m of w.value.matchAll(YQ_LOAD)) {
      const arg = m[1].trim();
      const literal = /^"((?:[^"\\]|\\.)*)"$/.exec(arg);
      out.push({ path: literal ? literal[1].replace(/\\(.)/g, "$1") : null, source: w.text });
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

/** jq and yq. */
export const QUERY_PROGRAMS: Program[] = [
  { names: ["jq", "gojq", "jaq"], namedFiles: jqModules },
  {
    names: ["yq"],
    namedFiles: yqLoads,
    // yq -i writes the file it reads.
    readOnly: { "": { short: "is", long: ["--inplace", "--in-place", "--split-exp"] } },
  },
];
