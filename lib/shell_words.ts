/** Shell text as bash reads it: line continuations, escapes, ANSI-C strings, a fallback splitter. */

/**
 * Remove backslash-newline line continuations where bash removes them: everywhere except inside
 * single quotes, comments and the bodies of heredocs with a quoted delimiter. Bash joins
 * `r\<newline>m` into `rm` before it splits words; tree-sitter does not, so we join first.
 */
export function joinContinuations(src: string): string {
  if (!src.includes("\\\n")) return src;
  let out = "";
  let i = 0;
  let quote: "'" | '"' | "$'" | null = null;
  const pending: { delim: string; quoted: boolean; strip: boolean }[] = [];
  let atWordStart = true;
  while (i < src.length) {
    const ch = src[i];
    if (quote === "'") {
      out += ch;
      if (ch === "'") quote = null;
      i++;
      continue;
    }
    if (ch === "\\" && src[i + 1] === "\n" && quote !== "$'") {
      i += 2;
      continue;
    }
    if (ch === "\\" && i + 1 < src.length) {
      out += ch + src[i + 1];
      i += 2;
      atWordStart = false;
      continue;
    }
    if (quote) {
      out += ch;
      if ((quote === '"' && ch === '"') || (quote === "$'" && ch === "'")) quote = null;
      i++;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch === "'" && src[i - 1] === "$" ? "$'" : ch;
      out += ch;
      i++;
      atWordStart = false;
      continue;
    }
    if (ch === "#" && atWordStart) {
      const end = src.indexOf("\n", i);
      const stop = end === -1 ? src.length : end;
      out += src.slice(i, stop);
      i = stop;
      continue;
    }
    if (ch === "<" && src[i + 1] === "<" && src[i + 2] !== "<") {
      const m = /^<<(-?)[ \t]*(['"]?)([^\s'"<>;|&()]+)\2/.exec(src.slice(i));
      if (m) {
        pending.push({
          delim: m[3],
          quoted: m[2] !== "" || m[3].includes("\\"),
          strip: m[1] === "-",
        });
        out += m[0];
        i += m[0].length;
        atWordStart = false;
        continue;
      }
    }
    if (ch === "\n" && pending.length) {
      out += ch;
      i++;
      // Copy heredoc bodies; only unquoted ones get continuations joined.
      for (const doc of pending) {
        for (;;) {
          const end = src.indexOf("\n", i);
          const line = src.slice(i, end === -1 ? src.length : end);
          const bare = doc.strip ? line.replace(/^\t+/, "") : line;
          i = end === -1 ? src.length : end + 1;
          if (!doc.quoted && line.endsWith("\\") && end !== -1) {
            out += line.slice(0, -1);
            continue;
          }
          out += line + (end === -1 ? "" : "\n");
          if (bare === doc.delim || end === -1) break;
        }
      }
      pending.length = 0;
      atWordStart = true;
      continue;
    }
    out += ch;
    atWordStart = /[\s;&|()<>]/.test(ch);
    i++;
  }
  return out;
}

/** Remove quoting backslashes from an unquoted word: `\x` is `x`. */
export function unescapeUnquoted(text: string): string {
  return text.replace(/\\([\s\S])/g, "$1");
}

/** Remove the backslashes double quotes honour: `\$ \` \" \\` (others stay). */
export function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c));
}

/** Decode the body of an ANSI-C string `$'…'` as bash does. */
export function decodeAnsiC(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== "\\" || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const n = body[++i];
    const simple: Record<string, string> = {
      a: "\x07",
      b: "\b",
      e: "\x1b",
      E: "\x1b",
      f: "\f",
      n: "\n",
      r: "\r",
      t: "\t",
      v: "\v",
      "\\": "\\",
      "'": "'",
      '"': '"',
      "?": "?",
    };
    if (n in simple) {
      out += simple[n];
    } else if (n === "x") {
      const m = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1));
      if (m) {
        out += String.fromCharCode(parseInt(m[0], 16));
        i += m[0].length;
      } else out += "\\x";
    } else if (n === "u" || n === "U") {
      const m = new RegExp(`^[0-9a-fA-F]{1,${n === "u" ? 4 : 8}}`).exec(body.slice(i + 1));
      if (m) {
        out += String.fromCodePoint(parseInt(m[0], 16));
        i += m[0].length;
      } else out += "\\" + n;
    } else if (/[0-7]/.test(n)) {
      const m = /^[0-7]{1,3}/.exec(body.slice(i));
      out += String.fromCharCode(parseInt(m![0], 8) & 0xff);
      i += m![0].length - 1;
    } else if (n === "c" && i + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++i) & 0x1f);
    } else {
      out += "\\" + n;
    }
  }
  return out;
}

/** One simple command found by the fallback splitter. */
export interface FallbackStage {
  words: string[];
  text: string;
}

/**
 * The splitter used when tree-sitter cannot load: it splits only what it can split for sure
 * (plain words, `'…'`, `"…"` without expansions, and `| || && ; &` and newlines). Anything else
 * (expansions, substitutions, redirects, groups, escapes, heredocs) returns null: unknown.
 */
export function fallbackSplit(src: string): FallbackStage[] | null {
  const stages: FallbackStage[] = [];
  let words: string[] = [];
  let word: string | null = null;
  let start = 0;
  const flushStage = (end: number) => {
    if (word !== null) words.push(word);
    word = null;
    if (words.length) stages.push({ words, text: src.slice(start, end).trim() });
    words = [];
  };
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === " " || ch === "\t") {
      if (word !== null) words.push(word);
      word = null;
    } else if (ch === "'" || ch === '"') {
      const end = src.indexOf(ch, i + 1);
      if (end === -1) return null;
      const body = src.slice(i + 1, end);
      if (ch === '"' && /[$`\\!]/.test(body)) return null;
      word = (word ?? "") + body;
      i = end;
    } else if (ch === "\n" || ch === ";" || ch === "|" || ch === "&") {
      flushStage(i);
      if ((ch === "|" || ch === "&") && src[i + 1] === ch) i++;
      start = i + 1;
    } else if (/[$`\\<>(){}\[\]*?~#!=]/.test(ch)) {
      return null;
    } else {
      word = (word ?? "") + ch;
    }
  }
  flushStage(src.length);
  return stages;
}
