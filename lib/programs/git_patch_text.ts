/**
 * How git writes a patch's names and binary contents (git-diff(1), "extended header lines";
 * git-apply(1)): a name with unusual characters in C-style quotes (`"a/k\tx"`, bytes above 0x7f
 * in octal), and `GIT binary patch` hunks (`literal N` / `delta N`, then lines of zlib-deflated
 * data in base85, each led by a letter giving its length).
 *
 * @example
 * ```ts
 * import { unquotedName } from "./git_patch_text.ts";
 * unquotedName('"a/k\\tx"');
 * // "a/k\tx"
 * ```
 *
 * @module
 */
import { inflateSync } from "node:zlib";

const ESCAPES: Record<string, number> = {
  a: 7,
  b: 8,
  t: 9,
  n: 10,
  v: 11,
  f: 12,
  r: 13,
  '"': 34,
  "\\": 92,
};

/** A name as git writes it, its C-style quotes undone (unquoted: as written, trimmed). */
export function unquotedName(raw: string): string {
  const text = raw.trim();
  if (text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) return text;
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== "\\") {
      bytes.push(...new TextEncoder().encode(c));
      continue;
    }
    const next = body[++i] ?? "";
    const octal = /^[0-3][0-7]{2}/.exec(body.slice(i, i + 3));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 2;
    } else if (next in ESCAPES) bytes.push(ESCAPES[next]);
    else bytes.push(...new TextEncoder().encode("\\" + next));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/**
 * The names a `diff --git A B` line gives, quotes undone: both quoted, one, or neither; where
 * neither is and a name has a space, the split where both names are the same past their first
 * `/` (git's `git_header_name`), else the last space. Null where the line is none.
 */
export function gitHeaderNames(line: string): [string, string] | null {
  if (!line.startsWith("diff --git ")) return null;
  const rest = line.slice(11);
  const quoted = /^("(?:[^"\\]|\\.)*")(?: (.+))?$/.exec(rest);
  if (quoted) {
    return quoted[2] === undefined ? null : [unquotedName(quoted[1]), unquotedName(quoted[2])];
  }
  const last = /^(.+?) ("(?:[^"\\]|\\.)*")$/.exec(rest);
  if (last) return [last[1], unquotedName(last[2])];
  const tail = (s: string) => s.slice(s.indexOf("/") + 1);
  let at = -1;
  for (let i = rest.indexOf(" "); i >= 0; i = rest.indexOf(" ", i + 1)) {
    if (tail(rest.slice(0, i)) === tail(rest.slice(i + 1))) {
      at = i;
      break;
    }
    at = i;
  }
  return at < 0 ? null : [rest.slice(0, at), rest.slice(at + 1)];
}

const BASE85 =
  "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
const DIGIT = new Map([...BASE85].map((c, i) => [c, i]));

/** The largest content read: a symlink's target is at most PATH_MAX (4096) bytes. */
const LIMIT = 4096;

/** The bytes of base85 lines (each led by its length: `A`–`Z` 1–26, `a`–`z` 27–52), or null. */
function base85(lines: string[]): Uint8Array | null {
  const out: number[] = [];
  for (const line of lines) {
    const c = line.charCodeAt(0);
    const len = c >= 65 && c <= 90 ? c - 64 : c >= 97 && c <= 122 ? c - 70 : 0;
    const body = line.slice(1);
    if (len === 0 || body.length % 5 !== 0 || body.length / 5 !== Math.ceil(len / 4)) return null;
    const bytes: number[] = [];
    for (let i = 0; i < body.length; i += 5) {
      let acc = 0;
      for (let j = i; j < i + 5; j++) {
        const d = DIGIT.get(body[j]);
        if (d === undefined) return null;
        acc = acc * 85 + d;
      }
      if (acc > 0xffffffff) return null;
      bytes.push(acc >>> 24, (acc >>> 16) & 255, (acc >>> 8) & 255, acc & 255);
    }
    out.push(...bytes.slice(0, len));
    if (out.length > LIMIT * 2) return null;
  }
  return new Uint8Array(out);
}

/**
 * The content a `GIT binary patch` hunk gives (`lines`: from its `literal N` or `delta N` line to
 * the blank line after its data), as text; null where it cannot be read: a delta (against the
 * content before, not read here), data not decoded or larger than a link's target can be.
 */
export function binaryLiteral(lines: string[]): string | null {
  const m = /^literal (\d+)$/.exec(lines[0] ?? "");
  if (!m || Number(m[1]) > LIMIT) return null;
  const data = base85(lines.slice(1));
  if (data === null) return null;
  try {
    const raw = inflateSync(data, { maxOutputLength: LIMIT + 1 });
    return raw.length === Number(m[1]) ? new TextDecoder().decode(raw) : null;
  } catch {
    return null;
  }
}
