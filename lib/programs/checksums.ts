/**
 * Programs that read files a list names: the checksum tools with `-c` (`md5sum -c SUMS` reads
 * every file SUMS names: `HASH  name`, `HASH *name`, `MD5 (name) = HASH`), and those that take
 * their names from a file (`file -f LIST`, `wc --files0-from=LIST`, `du --files0-from=LIST`).
 * A checksum list that can be read now (no other stage writes it) gives its names; any other list
 * names files not known (asked about, as `sort --files0-from`).
 *
 * @example
 * ```ts
 * import { checkedNames } from "./checksums.ts";
 * checkedNames("d41d8cd9  src/a.ts\nMD5(b)=d41d8cd9\n"); // ["src/a.ts", "b"]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { filesFromList } from "./file_lists.ts";
import type { NamedFile, NamedFilesGiven, Program } from "./spec.ts";

/** The checksum tools that check a list (coreutils', shasum). */
const CHECKSUMS = [
  "md5sum",
  "sha1sum",
  "sha224sum",
  "sha256sum",
  "sha384sum",
  "sha512sum",
  "b2sum",
  // (Perl's, macOS's: `shasum -a 256 -c SUMS`.)
  "shasum",
];
/** Their short options that take a value (b2sum's `-l BITS`, cksum's `-a ALGO`). */
const VALUED = "la";
/** Their long options that take a value. */
const LONG_VALUED =
  /^--(l|le|len|leng|lengt|length|a|al|alg|algo|algor|algori|algorit|algorith|algorithm)$/;

/** A name GNU writes escaped (a line starting `\`): `\\`, `\n`, `\r` in it. */
function unescaped(name: string): string {
  return name.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c === "r" ? "\r" : c));
}

/**
 * The tagged line: a tag (`MD5`, `SHA256`, `BLAKE2b-256`), at most one space, `(`, the name up
 * to the last `)`, blanks, `=`, blanks, the digest (coreutils' split_3 and bsd_split_3: `MD5(a)=h`
 * and `MD5 (a)\t=  h` too).
 */
const TAGGED = /^[A-Za-z0-9]+(?:-\d+)? ?\((.*)\)[ \t]*=[ \t]*[^)]*$/s;
/** shasum's tagged line (its `verify`): the name up to the last `) = HEX`. */
const SHASUM_TAGGED = /^SHA\S+ \((.+)\) = [\da-fA-F]/s;
/** An untagged line: the digest (hex or base64), a blank, the rest. */
const UNTAGGED = /^([A-Za-z0-9+/=]+)[ \t](.+)$/s;

/**
 * The files a checksum list names, as `-c` opens them: coreutils' split_3 (a `#` first is a
 * comment; blanks, then a `\` where GNU escaped the name; the tagged `ALGO (name) = HASH`; else
 * the digest, one blank (space or tab), then `*` or a space saying binary or text, else BSD's
 * reversed `HASH name`) and shasum's (`*`, ` `, `^` or `U` after the blank). Where they read a
 * line differently, both names. Null where a line is none of these (its names not known).
 */
export function checkedNames(text: string): string[] | null {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    if (raw.startsWith("#")) continue;
    const line = raw.replace(/\r$/, "").replace(/^[ \t]+/, "");
    if (line === "") continue;
    const escaped = line.startsWith("\\");
    const body = escaped ? line.slice(1) : line;
    const names = new Set<string>();
    for (const form of [TAGGED, SHASUM_TAGGED]) {
      const tagged = form.exec(body);
      if (tagged) names.add(tagged[1]);
    }
    // (A tag is no digest: not hex, shorter than any base64 one, cksum's shortest being 24.)
    const plain = UNTAGGED.exec(body);
    if (plain && !(names.size && !/^[\da-fA-F]+$/.test(plain[1]) && plain[1].length < 24)) {
      // (After the digest's blank, one of ` *^U` says the mode; BSD's reversed form has none,
      // and once a list has one, coreutils reads the rest of its lines so: both names.)
      const rest = plain[2];
      if (rest.length > 1 && " *^U".includes(rest[0])) names.add(rest.slice(1));
      names.add(rest);
    }
    if (!names.size) return null;
    for (const n of names) out.push(escaped ? unescaped(n) : n);
  }
  return out;
}

/** Whether a checksum tool's words ask it to check (`-c`, `--check`, `-wc`, `--ch`). */
function checks(values: (string | null)[]): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === "--") return false;
    if (v === null) continue;
    if (/^--c(h(e(c(k)?)?)?)?$/.test(v)) return true;
    if (LONG_VALUED.test(v)) i++;
    if (!/^-[A-Za-z]/.test(v)) continue;
    for (const c of v.slice(1)) {
      if (c === "c") return true;
      if (VALUED.includes(c)) {
        if (v.endsWith(c)) i++;
        break;
      }
    }
  }
  return false;
}

/**
 * What a checksum tool with `-c` reads besides its operands: the files each list names (a list
 * read now), else files not known; with no operand (or `-`), the list is its standard input.
 */
export function checkedFiles(argv: Word[], _stage?: Stage, given?: NamedFilesGiven): NamedFile[] {
  const values = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  if (!checks(values)) return [];
  const source = `${argv[0].value} -c`;
  const lists: (string | null)[] = [];
  let options = true;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null) lists.push(null);
    else if (options && v === "--") options = false;
    else if (options && v.startsWith("-") && v !== "-") {
      if (LONG_VALUED.test(v) || (/^-[^-]/.test(v) && VALUED.includes(v[v.length - 1]))) i++;
    } else lists.push(v);
  }
  if (!values.includes(null) && !lists.length) return [{ path: null, source, fromInput: true }];
  const out: NamedFile[] = [];
  for (const list of lists) {
    if (list === "-") {
      out.push({ path: null, source, fromInput: true });
      continue;
    }
    const text = list === null ? null : given?.read?.(list) ?? null;
    if (text === null) {
      out.push({ path: null, source });
      continue;
    }
    const names = checkedNames(text);
    if (names === null) {
      out.push({ path: null, source });
      continue;
    }
    // (It opens the names as written: `~` is a directory of that name.)
    for (const n of names) {
      out.push({ path: n.startsWith("~") ? `./${n}` : n, source });
    }
  }
  return out;
}

/** The checksum tools. */
export const CHECKSUM_PROGRAMS: Program[] = [
  ...CHECKSUMS.map((name): Program => ({ names: [name], namedFiles: checkedFiles })),
  // (cksum checks only tagged lists: `cksum -c`, coreutils 9.)
  { names: ["cksum"], namedFiles: checkedFiles },
];

const fileListed = filesFromList({ valued: ["-f", "--files-from"] });

/**
 * `file -f LIST` (`-bf LIST`, `--files-from`, abbreviated: `--files`; `-` standard input): the
 * names it reads.
 */
export function fileList(argv: Word[]): NamedFile[] {
  const named = fileListed(argv);
  if (named.length) return named;
  for (const w of argv.slice(1)) {
    if (w.kind !== "static" || w.value === "--") break;
    // (file's flags before `-f` in a cluster; a long option it begins.)
    if (/^-[bcdEhiklLNnprsSvzZ0]+f|^--fi(l(e(s(-(f(r(o(m)?)?)?)?)?)?)?)?(=|$)/.test(w.value)) {
      return [{ path: null, source: "file -f" }];
    }
  }
  return [];
}
/** `wc --files0-from=LIST`, `du --files0-from=LIST`. */
export const files0List = filesFromList({ valued: ["--files0-from"] });
