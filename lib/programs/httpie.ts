/**
 * HTTPie (`http`, `https`) and xh (`xh`, `xhs`; also installed as `http`): `[METHOD] URL
 * [REQUEST_ITEM …]`. A request item is split at its first separator (the longest one that starts
 * there; a `\` escapes the character after it): `field@F` uploads F (`;type=MIME`, xh's
 * `;filename=NAME` after it are no part of the path), `Header:@F`, `param==@F`, `field=@F` and
 * `field:=@F` read their value from F, and `@F` (no key) sends F as the body. Each expands a
 * leading `~` to the home (HTTPie's `os.path.expanduser`, xh's `expand_tilde`). The items are
 * the words after the URL (after the METHOD too, a first word of letters only before another),
 * not the options' values. What they download is downloaders.ts's `serverNamedFiles`.
 *
 * @example
 * ```ts
 * import { requestItemFiles } from "./httpie.ts";
 * import { literal } from "./words.ts";
 * requestItemFiles(["http", "-f", "POST", "h", "f@~/k;type=text/plain"].map(literal));
 * // [{ path: "~/k", source: "http (a request item's file: f@~/k;type=text/plain)" }]
 * ```
 *
 * @module
 */
import { basename } from "node:path";
import type { Word } from "../shell/model.ts";
import type { NamedFile, Program } from "./spec.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { serverNamedFiles } from "./downloaders.ts";

/**
 * The options of HTTPie 3 and xh 0.2x that take a value (`--name VALUE`, `-o F`): their values
 * are no request items. (One not listed is read as taking none, so its value is an item more,
 * judged as one: a word is never taken from the items.)
 */
const GRAMMAR: OptionGrammar = {
  valued: "aAopPs",
  longValued: new Set([
    "--auth",
    "--auth-type",
    "--bearer",
    "--boundary",
    "--cert",
    "--cert-key",
    "--cert-key-pass",
    "--ciphers",
    "--default-scheme",
    "--format-options",
    "--generate",
    "--history-print",
    "--http-version",
    "--interface",
    "--max-headers",
    "--max-redirects",
    "--output",
    "--pretty",
    "--print",
    "--proxy",
    "--raw",
    "--resolve",
    "--response-charset",
    "--response-mime",
    "--session",
    "--session-read-only",
    "--ssl",
    "--style",
    "--timeout",
    "--unix-socket",
    "--unstable-m-sig-alg",
    "--unstable-m-sig-comp",
    "--unstable-m-sig-id",
    "--unstable-m-sig-key",
    "--verify",
  ]),
};

/**
 * The separators of request items, longest first at a place; HTTPie's `;` (an empty header) is
 * none of xh's, which splits `h;x@F` at the `@`.
 */
const SEPARATORS = [":=@", "==@", ":@", "=@", "==", ":=", "=", "@", ":", ";"];
/** The separators whose value is a file's name. */
const FILE_SEPARATORS = new Set([":=@", "==@", ":@", "=@", "@"]);

/** The separator an item is split at (HTTPie's way, or xh's) and the value after it, or null. */
function splitItem(item: string, xh: boolean): { sep: string; value: string } | null {
  for (let i = 0; i < item.length; i++) {
    const c = item[i];
    // (An escaped character, or a `\` before another, starts no separator.)
    if (c === "\\") {
      i++;
      continue;
    }
    if (c !== ":" && c !== "=" && c !== "@" && (c !== ";" || xh)) continue;
    const sep = SEPARATORS.find((s) => item.startsWith(s, i))!;
    return { sep, value: item.slice(i + sep.length) };
  }
  return null;
}

/**
 * A value with its escapes removed: `\` before `:;=@` is that character (xh's `\\` a `\` too);
 * before another it stays.
 */
function unescaped(value: string, xh: boolean): string {
  if (!value.includes("\\")) return value;
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    const next = value[i + 1];
    if (c !== "\\" || next === undefined) out += c;
    else {
      out += ":;=@".includes(next) || (xh && next === "\\") ? next : c + next;
      i++;
    }
  }
  return out;
}

/** The files one item names, read HTTPie's way and xh's (`http` may be either). */
function itemPaths(item: string): string[] {
  const paths = new Set<string>();
  for (const xh of [false, true]) {
    const split = splitItem(item, xh);
    if (!split || !FILE_SEPARATORS.has(split.sep)) continue;
    const value = unescaped(split.value, xh);
    for (const p of split.sep === "@" ? uploadPaths(value) : [value]) paths.add(p);
  }
  return [...paths];
}

/**
 * The paths an upload's value may name: HTTPie's part before the first `;type=`, xh's after its
 * last `;type=` and `;filename=` are taken off the end.
 */
function uploadPaths(value: string): string[] {
  const httpie = value.split(";type=")[0];
  let xh = value;
  const params = [";type=", ";filename="];
  while (params.length) {
    const at = Math.max(...params.map((p) => xh.lastIndexOf(p)));
    if (at < 0) break;
    params.splice(params.findIndex((p) => xh.startsWith(p, at)), 1);
    xh = xh.slice(0, at);
  }
  return httpie === xh ? [xh] : [httpie, xh];
}

/** A path with its `~` expanded as they expand it (`~user` is HTTPie's: not known); "" for none. */
function expanded(path: string): string | null {
  if (!path.startsWith("~")) return path;
  if (path === "~" || path === "~/") return "";
  return path.startsWith("~/") ? path : null;
}

/** The files the request items of an `http`/`xh` stage read (see the module). */
export function requestItemFiles(argv: Word[]): NamedFile[] {
  const name = basename(argv[0]?.value ?? "");
  const args = argv.slice(1);
  const tokens = readOptions(args.map((w) => (w.kind === "dynamic" ? null : w.value)), GRAMMAR);
  // (A word not known is judged as a word: it takes its place here.)
  const positional = tokens.filter((t) => t.kind === "operand" || t.kind === "dynamic");
  if (positional.length < 2) return [];
  const first = args[positional[0].at];
  const method = first.kind !== "dynamic" && /^[A-Za-z]+$/.test(first.value);
  const out: NamedFile[] = [];
  for (const t of positional.slice(method ? 2 : 1)) {
    const w = args[t.at];
    // (Words not known are judged by their own targets.)
    if (w.kind === "dynamic" || !w.value.includes("@")) continue;
    for (const p of itemPaths(w.value)) {
      const path = expanded(p);
      if (path !== "") out.push({ path, source: `${name} (a request item's file: ${w.value})` });
    }
  }
  return out;
}

/** HTTPie and xh. */
export const HTTPIE_PROGRAMS: Program[] = [
  {
    names: ["http", "https", "xh", "xhs"],
    namedFiles: (argv) => [...serverNamedFiles(argv), ...requestItemFiles(argv)],
  },
];
