/**
 * The files a linker script names (ld(1) "Command Language"): the output it writes
 * (`OUTPUT(F)`), the inputs and libraries it reads (`INPUT(…)`, `GROUP(…)`, `AS_NEEDED(…)`,
 * `STARTUP(F)`), the directories it searches (`SEARCH_DIR(D)`) and the scripts it includes
 * (`INCLUDE F`); and those of an MRI script (`ld -c F`: `NAME F`, `LOAD F, …`, `INCLUDE F`).
 *
 * @module
 */

/** What a script names: the files it opens, and the scripts it includes (opened too). */
export interface ScriptNames {
  files: string[];
  includes: string[];
}

/** A script's commands that name files in parentheses (`AS_NEEDED` inside `INPUT`/`GROUP`). */
const NAMING =
  /\b(?:OUTPUT|INPUT|GROUP|STARTUP|SEARCH_DIR|AS_NEEDED)\s*\(((?:[^()]|\([^()]*\))*)\)/g;

/** The names in a command's parentheses: words, quoted or not; libraries (`-lc`) are none. */
function names(list: string): string[] {
  const out: string[] = [];
  for (const m of list.replace(/\bAS_NEEDED\s*\(/g, " ").matchAll(/"([^"]*)"|[^\s,()"]+/g)) {
    const name = m[1] ?? m[0];
    // (`=F` and `$SYSROOT/F` are in the sysroot, the system's files.)
    if (name === "" || name.startsWith("-l") || name.startsWith("=")) continue;
    if (name.startsWith("$SYSROOT")) continue;
    out.push(name);
  }
  return out;
}

/** The files a linker script's text names (comments left out). */
export function linkerScriptNames(text: string): ScriptNames {
  const s = text.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, " ");
  const files: string[] = [];
  for (const m of s.matchAll(NAMING)) files.push(...names(m[1]));
  const includes = [...s.matchAll(/\bINCLUDE\s+(?:"([^"]*)"|([^\s;"]+))/g)]
    .map((m) => m[1] ?? m[2]).filter((n) => n !== "");
  return { files, includes };
}

/** The files an MRI script's text names: `NAME` the output, `LOAD`, `ADDLIB` inputs. */
export function mriScriptNames(text: string): ScriptNames {
  const files: string[] = [];
  const includes: string[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*(NAME|LOAD|ADDLIB|INCLUDE)\s+([^*;]*)/i.exec(line);
    if (!m) continue;
    const words = m[2].split(/[\s,]+/).filter((w) => w !== "");
    if (m[1].toUpperCase() === "INCLUDE") includes.push(...words.slice(0, 1));
    else files.push(...(m[1].toUpperCase() === "NAME" ? words.slice(0, 1) : words));
  }
  return { files, includes };
}
