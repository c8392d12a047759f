/**
 * The paths a word carries inside it: an option's or a setting's value (`--opt=F`, `dd of=F`,
 * `--secret id=x,src=F`), a file named with `@` or `<` (`@F`, `name=@F`), a path after a
 * `TYPE:` prefix (`OPEN:/x`), and the values glued to short options (`sort -o.env`, `-C./dir`),
 * read with the program's grammar where the registry knows it.
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { lettersKnown } from "../programs/argv.ts";
import { programOf } from "../programs/registry.ts";

const SETTING_FILE = /(?:^|,)(?:src|source|from|file|path|dest)=([^,]+)/;
const KEYED = /^[\w.-]+=([\s\S]+)$/;

/**
 * The path an option or assignment carries: `--opt=value`, `-o=value`, `key=value` (`dd of=/x`),
 * or a path glued to short options (`-o/tmp/x`, `-C./dir`). A file named to be read in with `@`
 * or `<` counts too: `@file` (curl -d, response files), `name=@file` and `name=<file` (curl -F,
 * gh api -F), `name:=@file` (httpie), `--data=@file`, `-d@file`, and a path after a `TYPE:` prefix
 * (`OPEN:/etc/x`, `file:./k`). Null when it carries none or a grammar reads it (`lettersRead`).
 */
export function embeddedValue(value: string, lettersRead = false): string | null {
  // (Each form has a character most words lack: the patterns are tried only on words with it.)
  const eq = value.includes("=")
    ? /^(?:--?)?[A-Za-z0-9_][\w.\[\]-]*:?=([\s\S]+)$/.exec(value)
    : null;
  if (eq) {
    const v = /^[@<][^@<]/.test(eq[1]) ? eq[1].slice(1) : eq[1];
    // (A file in a list of settings, `--secret id=x,src=F`, `-o type=tar,dest=F`, or a key's,
    // `--from-file=key=F`.)
    const inner = v.includes("=")
      ? SETTING_FILE.exec(v) ?? (v.includes(",") ? null : KEYED.exec(v))
      : null;
    if (inner) return inner[1];
    // (A `TYPE:PATH` value: `--cov-report=json:.pi/settings.json`.)
    const typed = v.includes(":") ? TYPED_PATH.exec(v) : null;
    return typed ? typed[1] : v;
  }
  const first = value.charCodeAt(0);
  if (first === 64 && /^@[^@{]/.test(value)) return value.slice(1); // @
  if (first !== 45) {
    // A path after a `TYPE:` prefix (socat's `OPEN:/x`, `file:~/k`, `x:./y`): only a value shaped
    // as a path; a URL's `//`, a port or a name after a colon (`TCP:host:80`) is none.
    const typed = value.includes(":") ? TYPED_PATH.exec(value) : null;
    if (typed) return typed[1];
    // `file:NAME` names a file whatever its shape (`openssl -pass file:.env`).
    return /^file:[^/]/i.test(value) ? value.slice(5) : null;
  }
  if (lettersRead || !value.includes("/")) return null; // -
  const glued = /^-[A-Za-z]+[@<]?((?:\/|\.\.?\/|~\/)[\s\S]*)$/.exec(value);
  // (`-Iproto/`, `-oout/`: a name and its trailing slash, not the root; see `gluedValues`.)
  if (glued && /^\/+$/.test(glued[1]) && value.length - glued[1].length > 3) return null;
  return glued ? glued[1] : null;
}

/**
 * The values glued to short options (`sort -o.env`, `cp -tkeys`, `cp -rtsecrets`, `xargs
 * -akeys/id_rsa`, `tar -xf a.tar -C.pi`): each is a word the program may open, as the same value
 * in a word of its own is; `at` is the argv position. Of a program whose options are known, the
 * rest of a cluster after the first letter that takes a value, whatever it holds; after a letter
 * the grammar does not know, the rest too (it may take one), and the letters after it read on.
 * Of a program whose options are not known, any letter of a word's leading letters may be such
 * an option: the rest of the word after each (`-o.env`, `-tkeys`, `-Dt.pi/x`; a bare name is
 * judged where it is there or protected, as any operand is).
 * A value of punctuation alone (`-t,`, `-F:`) names no file worth a lookup; a number may (`sort
 * -o4` writes `4`, which may be a symlink). One the word's embedded value names is not repeated.
 */
export function gluedValues(argv: Word[]): { at: number; value: string }[] {
  // (Most stages have no such word: no grammar asked then.)
  let any = false;
  for (let i = 1; i < argv.length && !any; i++) {
    const w = argv[i];
    any = w.kind === "static" && w.value.length > 2 && w.value[0] === "-" && w.value[1] !== "-";
  }
  if (!any) return [];
  const program = programOf(argv[0]);
  if (program?.wholeOptions) return [];
  const grammar = program?.options;
  const out: { at: number; value: string }[] = [];
  const values = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  const add = (at: number, value: string, v = values[at]!) => {
    if (/[\w./~$]/.test(value) && embeddedValue(v, lettersKnown(grammar, v)) !== value) {
      out.push({ at: at + 1, value });
    }
  };
  if (!grammar) {
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v === "--") break;
      if (v === null || !/^-[A-Za-z][^-=][^=]*$/.test(v)) continue;
      // The value may start after any letter of a leading run (`-Dt.pi/x`: `-D -t .pi/x`).
      const letters = /^-[A-Za-z]*/.exec(v)![0].length;
      // (A word that is a name's letters and a trailing slash, `-Iproto/`, `-oout/`, names that
      // directory: its run taken for flags alone, the last taking `/`, is a guess too far; of
      // one or two letters, `-o/`, `-xC/`, the root is kept.)
      const named = letters > 3 && /^\/+$/.test(v.slice(letters));
      for (let j = 2; j <= letters && j < v.length; j++) {
        if (!(named && j === letters)) add(i, v.slice(j));
      }
    }
    return out;
  }
  // A cluster's letters as the grammar reads them (a word another option takes as its value is
  // read too: one more place looked at, never one fewer).
  const valued = (grammar.valued ?? "") + (grammar.gluedOnly ?? "");
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === "--") break;
    if (v === null || v.length < 3 || v[0] !== "-" || v[1] === "-") continue;
    for (let j = 1; j < v.length - 1; j++) {
      const c = v[j];
      if (valued.includes(c)) {
        add(i, v.slice(j + 1));
        break;
      }
      // (A letter not known may take the rest as its value, or be a flag: both are read.)
      if (grammar.flags !== undefined && !grammar.flags.includes(c)) add(i, v.slice(j + 1));
    }
  }
  return out;
}

/**
 * `TYPE:path`: a name, a colon, then a path by its shape (absolute, `~/`, `./`, `../`, or a
 * relative one with a directory: pytest's `--cov-report=json:.pi/settings.json`).
 */
const TYPED_PATH = /^[A-Za-z][\w+.-]*:((?:\/(?!\/)|~\/|\.\.?\/|[\w.-]+\/)[\s\S]*)$/;
