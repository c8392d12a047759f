/**
 * gpg's files by names it makes: without `--output`, decrypting (`--decrypt-files`, or no command,
 * where gpg guesses from the input) writes each operand without its `.gpg`/`.pgp`/`.asc` suffix,
 * and encrypting or signing (`-e`, `-c`, `-s`, `--encrypt-files`) writes it with `.gpg` (`.asc`
 * with `--armor`, `.sig` detached). `--decrypt` alone prints.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { gpgOutputs } from "./gpg.ts";
 * gpgOutputs(["gpg", "--decrypt-files", "a.env.gpg"].map(literal)); // [{ path: "a.env", … }]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { NamedFile, Program } from "./spec.ts";

/** gpg's options that take a value (the next word), as far as finding its operands needs them. */
const VALUED = new Set([
  "-r",
  "--recipient",
  "-u",
  "--local-user",
  "--default-key",
  "--homedir",
  "--keyring",
  "--secret-keyring",
  "--trustdb-name",
  "--passphrase",
  "--passphrase-file",
  "--passphrase-fd",
  "--status-fd",
  "--logger-fd",
  "--command-fd",
  "--cipher-algo",
  "--digest-algo",
  "--compress-algo",
  "-z",
  "--trust-model",
  "--keyserver",
  "--pinentry-mode",
  "--set-filename",
  "--comment",
]);
/** Commands that decrypt to a file named by the input, and those that make one with a suffix. */
const DECRYPTS = /^--decrypt-files$/;
const MAKES =
  /^(-[a-zA-Z]*[ecs][a-zA-Z]*|--(encrypt|symmetric|sign|clearsign|detach-sign|encrypt-files))$/;
/** Commands after which no file is made from an operand (`--list-keys`, `--verify`, `-d`). */
const OTHER =
  /^(-[a-zA-Z]*[dk][a-zA-Z]*|--(decrypt|verify|list-.*|import|export.*|recv-keys|fingerprint|gen-key|full-gen-key|edit-key|delete-.*|card-.*|version|help))$/;

/** What gpg writes by names it makes (see the module's notes). */
export function gpgOutputs(argv: Word[]): NamedFile[] {
  const operands: Word[] = [];
  let make = false;
  let armor = false;
  let detach = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    const v = w.kind === "static" ? w.value : w.prefix;
    if (v === "-o" || v === "--output" || v.startsWith("--output=")) return [];
    if (VALUED.has(v)) i++;
    else if (DECRYPTS.test(v)) continue;
    else if (OTHER.test(v)) return [];
    else if (MAKES.test(v)) {
      make = true;
      if (v === "--detach-sign" || /^-[a-zA-Z]*b/.test(v)) detach = true;
    } else if (v === "-a" || v === "--armor") armor = true;
    else if (!v.startsWith("-")) operands.push(w);
  }
  const source = "(the file gpg writes)";
  if (make) {
    const ext = detach ? ".sig" : armor ? ".asc" : ".gpg";
    return operands.map((w) => ({ path: w.kind === "static" ? w.value + ext : null, source }));
  }
  // (`--decrypt-files`, or no command: gpg guesses from the input, and decrypts an encrypted one
  // to a file.)
  return operands.map((w) => ({
    path: w.kind === "static" ? w.value.replace(/\.(gpg|pgp|asc)$/, "") : null,
    source,
  }));
}

/** gpg. */
export const GPG_PROGRAMS: Program[] = [{ names: ["gpg", "gpg2"], namedFiles: gpgOutputs }];
