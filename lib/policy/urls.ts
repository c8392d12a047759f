/**
 * URLs in arguments and tool inputs: which words are URLs, and the local path a `file:` URL names.
 *
 * @example
 * ```ts
 * import { fileUrlPath, URL_RE } from "./urls.ts";
 * URL_RE.test("http://localhost:3000/x"); // true
 * fileUrlPath("file:///etc/x%20y"); // "/etc/x y"
 * ```
 *
 * @module
 */

/** A URL: a scheme and `//`. */
export const URL_RE = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

/**
 * The local path of a `file:` URL (`file:///etc/x`, `file://localhost/etc/x`, `file:/etc/x`), its
 * query and fragment dropped, as a URL parser reads it.
 */
export function fileUrlPath(url: string): string {
  const rest = url.replace(/^file:(\/\/(localhost(?=\/))?)?/i, "").replace(/[?#][\s\S]*$/, "");
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}

/**
 * Whether a word shaped as a URL may still be a path where it is a program's operand (`cat`,
 * `cp`): bash and the program read `x://a/../.env` as `x:`, `a`, `..`, `.env`, which is the cwd's
 * `.env`. So where the word has a `..` after its scheme, or where a directory named as its scheme
 * (`x:`) is there now (`exists`: whether a name in a cwd exists).
 */
export function urlMayBePath(value: string, exists: (name: string) => boolean): boolean {
  const colon = value.indexOf(":");
  return /(^|\/)\.\.(\/|$)/.test(value.slice(colon + 1)) || exists(value.slice(0, colon + 1));
}
