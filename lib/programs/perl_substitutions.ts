/**
 * The Perl statements a renamer's expression is reproduced from exactly: `s/RE/TO/` (flags `g`
 * and `i`) and `y/ABC/XYZ/` (or `tr`), where RE and TO are of a subset of Perl's syntax this
 * module translates to a JavaScript regex that matches as Perl's does on the name's bytes
 * (`.` is `[^\n]`, `$` also before a last newline, `\s` ASCII white space). Anything else (a
 * POSIX class, `\Q`, `\U`, `$10`, a variable, a named group, a lookbehind, code) is not known.
 *
 * @module
 */

/** A part of a replacement: text, or the group of that number (0: `$&`). */
type Part = string | number;

/** One statement reproduced: a substitution or a transliteration. */
export type Edit = {
  /** The regex, without `g` (tested as it stands). */
  re: RegExp;
  /** `g`: every match. */
  global: boolean;
  /** The replacement's parts, and its text where it has no group. */
  parts: Part[];
  text: string | null;
  /** The regex as Perl reads it. */
  perl: string;
  /** Whether a match may hold a `/`, and whether it looks past itself (`(?=…)`). */
  slash: boolean;
  look: boolean;
} | { from: string; to: string };

/** Delimiters that are no regex syntax and do not change how the parts are read. */
const DELIMITERS = "/,#!:%~=";
/** Characters that are themselves in both languages, outside a class. */
const LITERAL = /[A-Za-z0-9_ ,=:%~#!<>&;'"-]/;
/** Punctuation an escape makes literal in both. */
const ESCAPED = /[\\.\-_/()[\]{}*+?^$|,=:%~#!&;<>'"@]/;
/** White space as Perl's `\s` has it on bytes. */
const SPACE = "\\t\\n\\v\\f\\r ";

/** The text of one delimited part of a statement from `at`, and where it ends. */
function delimited(code: string, at: number, d: string): [string, number] | null {
  let out = "";
  for (let i = at; i < code.length; i++) {
    if (code[i] === "\\" && code[i + 1] === d) {
      out += d === "/" ? "\\/" : "\\" + d;
      i++;
    } else if (code[i] === "\\") {
      out += code.slice(i, i + 2);
      i++;
    } else if (code[i] === d) return [out, i + 1];
    else out += code[i];
  }
  return null;
}

/** A character class's body from `at` (after `[`) in JavaScript, and where it ends. */
function classBody(re: string, at: number): [string, number] | null {
  let i = at;
  let out = "";
  if (re[i] === "^") out += re[i++];
  if (re[i] === "]") return null;
  for (; i < re.length && re[i] !== "]"; i++) {
    const c = re[i];
    if (c === "\\") {
      const e = re[++i];
      // (A class escape at a range's end is read otherwise in each.)
      const range = out.length > 1 && out.endsWith("-") && !out.endsWith("\\-");
      if (/[dws]/.test(e) && (range || (re[i + 1] === "-" && re[i + 2] !== "]"))) return null;
      if (e === "d" || e === "w") out += "\\" + e;
      else if (e === "s") out += SPACE;
      else if (e !== undefined && /[\\\]\-./^]/.test(e)) out += "\\" + e;
      else return null;
    } else if (LITERAL.test(c) || /[.*+?(){}|/]/.test(c)) out += c === "/" ? "\\/" : c;
    else return null;
  }
  return i < re.length ? [out, i + 1] : null;
}

/** A regex in Perl's syntax as JavaScript's, its group count and what it may touch, or null. */
export function perlRegex(
  re: string,
): { js: string; groups: number; slash: boolean; look: boolean } | null {
  let js = "";
  let groups = 0;
  let slash = false;
  let look = false;
  if (re === "") return null; // (Perl's empty regex is the last one matched.)
  for (let i = 0; i < re.length; i++) {
    const c = re[i];
    if (c === "\\") {
      const e = re[++i] ?? "";
      if (/^[dwDWbBnt]$/.test(e)) js += "\\" + e;
      else if (e === "s") js += `[${SPACE}]`;
      else if (e === "S") js += `[^${SPACE}]`;
      else if (ESCAPED.test(e)) js += /[\w,=:%~#!&;<>'"@-]/.test(e) ? e : "\\" + e;
      else return null;
      if (/[DWS/]/.test(e)) slash = true;
    } else if (c === ".") {
      js += "[^\\n]";
      slash = true;
    } else if (c === "$") {
      if (i + 1 < re.length && !/[|)]/.test(re[i + 1])) return null;
      js += "(?=\\n?$)";
    } else if (c === "{") {
      const q = /^\{\d+(?:,\d*)?\}/.exec(re.slice(i));
      if (!q) return null;
      js += q[0];
      i += q[0].length - 1;
    } else if (c === "(") {
      if (re[i + 1] !== "?") groups++;
      else if (/^\?[=!]/.test(re.slice(i + 1, i + 3))) look = true;
      else if (re[i + 2] !== ":") return null;
      js += c;
    } else if (c === "[") {
      const body = classBody(re, i + 1);
      if (!body) return null;
      js += `[${body[0]}]`;
      if (new RegExp(`[${body[0]}]`).test("/")) slash = true;
      i = body[1] - 1;
    } else if (c === "/") {
      js += "\\/";
      slash = true;
    } else if (/[\^*+?)|]/.test(c) || LITERAL.test(c)) js += c;
    else return null;
  }
  return { js, groups, slash, look };
}

/** A replacement of text, `$1`…`$9`, `${1}`…`${9}` and `$&` (no more groups than `groups`). */
function perlReplacement(to: string, groups: number): Part[] | null {
  const out: Part[] = [];
  for (let i = 0; i < to.length; i++) {
    const rest = to.slice(i);
    const ref = /^\$(?:([1-9])(?!\d)|\{([1-9])\}|&)/.exec(rest);
    if (ref) {
      const n = Number(ref[1] ?? ref[2] ?? 0);
      if (n > groups) return null;
      out.push(n);
      i += ref[0].length - 1;
    } else if (/^\\[./_,=:%+~#!-]/.test(rest)) out.push(to[++i]);
    else if (/[\w .,=:%+~#!/-]/.test(to[i])) out.push(to[i]);
    else return null;
  }
  return out;
}

/** A `y/a-z/A-Z/` set as the characters it lists. */
function trSet(set: string): string | null {
  if (!/^[\w.-]*$/.test(set)) return null;
  let out = "";
  for (let i = 0; i < set.length; i++) {
    if (set[i + 1] === "-" && i + 2 < set.length) {
      const [a, b] = [set.charCodeAt(i), set.charCodeAt(i + 2)];
      if (b < a) return null;
      for (let c = a; c <= b; c++) out += String.fromCharCode(c);
      i += 2;
    } else out += set[i];
  }
  return out;
}

/** One `s///` statement as an edit, or null. */
function substitution(re: string, to: string, flags: string): Edit | null {
  const js = perlRegex(re);
  if (!/^[gi]*$/.test(flags) || js === null) return null;
  const parts = perlReplacement(to, js.groups);
  if (parts === null) return null;
  try {
    // (With `g`, after an empty match Perl tries the same place again for a match that is not
    // empty, where JavaScript moves on: `s/x??//g` removes every x in Perl, none in JavaScript.
    // A regex that may match nothing, or has a lazy quantifier, is not reproduced.)
    if (
      flags.includes("g") &&
      (/(?:[*+?}])\?/.test(re) || new RegExp(`^(?:${js.js})$`).test(""))
    ) return null;
    return {
      re: new RegExp(js.js, flags.includes("i") ? "i" : ""),
      global: flags.includes("g"),
      parts,
      text: parts.every((p) => typeof p === "string") ? parts.join("") : null,
      perl: re,
      slash: js.slash,
      look: js.look,
    };
  } catch {
    return null;
  }
}

/**
 * The statements of a Perl expression the renamer reproduces exactly, or null: `s/RE/TO/` with
 * flags `g` and `i` only, `y/ABC/XYZ/` (or `tr`) without flags, separated by `;`.
 */
export function perlEdits(code: string): Edit[] | null {
  const out: Edit[] = [];
  let i = 0;
  while (i < code.length) {
    const m = /^[\s;]*(s|y|tr)(.)/s.exec(code.slice(i));
    if (!m) return /^[\s;]*$/.test(code.slice(i)) && out.length ? out : null;
    const d = m[2];
    if (!DELIMITERS.includes(d)) return null;
    const re = delimited(code, i + m[0].length, d);
    const to = re && delimited(code, re[1], d);
    if (!re || !to) return null;
    const flags = /^[a-z]*/.exec(code.slice(to[1]))![0];
    i = to[1] + flags.length;
    if (m[1] === "s") {
      const edit = substitution(re[0], to[0], flags);
      if (!edit) return null;
      out.push(edit);
    } else {
      const [from, into] = [trSet(re[0]), trSet(to[0])];
      if (flags || from === null || into === null || into.length === 0) return null;
      out.push({ from, to: into.padEnd(from.length, into[into.length - 1]) });
    }
  }
  return out.length ? out : null;
}

/** A name's UTF-8 bytes, one character each (Perl reads a name as bytes). */
function bytesOf(name: string): string {
  return String.fromCharCode(...new TextEncoder().encode(name));
}

/** A name after the edits, or null where it is no UTF-8 text. */
export function edited(name: string, edits: Edit[]): string | null {
  let out = bytesOf(name);
  for (const e of edits) {
    if ("re" in e) {
      const re = e.global ? new RegExp(e.re.source, e.re.flags + "g") : e.re;
      out = out.replace(
        re,
        (...m: unknown[]) =>
          e.parts.map((p) => (typeof p === "string" ? p : (m[p] as string | undefined) ?? "")).join(
            "",
          ),
      );
    } else out = [...out].map((c) => (e.from.includes(c) ? e.to[e.from.indexOf(c)] : c)).join("");
  }
  try {
    const bytes = Uint8Array.from(out, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
