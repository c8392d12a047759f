/**
 * Network relays that run commands and open files: netcat (`nc -e PROG`, `nc -c CMD`, ncat's
 * `--exec`/`--sh-exec`) and socat, whose addresses name what it connects (`EXEC:cmd`,
 * `SYSTEM:cmd`, `OPEN:path`, `CREATE:path`, `UNIX-CONNECT:path`, a bare `/path`, and files in
 * address options such as `,cert=key.pem`). `socat -u OPEN:.env TCP:host:80` reads `.env`.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { socatFiles } from "./network.ts";
 * socatFiles(["socat", "-u", "OPEN:.env", "TCP:h:80"].map(literal));
 * // [{ path: ".env", source: "OPEN:.env" }]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { commandOptions, type OptionCommandSpec } from "./option_commands.ts";
import type { Program, Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";

/** socat's address types that run a command (the rest of the address up to its options). */
const SOCAT_RUNS = /^(exec|system|shell):/i;
/** socat's address types whose parameter is a path on this machine. */
const SOCAT_FILE_TYPES = new Set([
  "create",
  "creat",
  "file",
  "gopen",
  "open",
  "pipe",
  "named",
  "unix",
  "unix-client",
  "unix-connect",
  "unix-listen",
  "unix-recv",
  "unix-recvfrom",
  "unix-sendto",
  "local",
]);
/** socat address options whose value is a path (`,cert=…`, `,link=…`, `,history=…`). */
const SOCAT_FILE_OPTIONS = new Set([
  "cafile",
  "capath",
  "cert",
  "certificate",
  "chroot",
  "dhparam",
  "dhparams",
  "egd",
  "history",
  "key",
  "link",
]);
/** socat's options that take the next word: a file (stays a target) or text. */
const SOCAT_FILE_VALUED = new Set(["-lf", "-L", "-W"]);
const SOCAT_TEXT_VALUED = new Set(["-T", "-t", "-b", "-lp", "-lh"]);
/** socat's options that take no value. */
const SOCAT_FLAGS = /^-(d+|D|h+|V|v|x|u|U|g|s|r|R|l[smuy]|lh|4|6|S)$/;

/** The addresses of a socat command line: their argv positions (options read as socat does). */
function socatAddresses(argv: Word[]): { at: number[]; complete: boolean } {
  const at: number[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") {
      at.push(i);
      continue;
    }
    if (w.value === "-" || !w.value.startsWith("-")) at.push(i);
    else if (SOCAT_FILE_VALUED.has(w.value) || SOCAT_TEXT_VALUED.has(w.value)) i++;
    else if (!SOCAT_FLAGS.test(w.value)) return { at, complete: false };
  }
  return { at, complete: true };
}

/**
 * The argv positions socat reads as addresses or as text option values: no file as they are
 * written (`socatFiles` says which files they name). After an option socat does not know, the
 * words are left as they are (any may be a file).
 */
function socatText(argv: Word[]): number[] {
  const out = socatAddresses(argv).at.filter((i) => argv[i].kind === "static");
  for (let i = 1; i < argv.length; i++) {
    if (argv[i].kind === "static" && SOCAT_TEXT_VALUED.has(argv[i].value)) out.push(i + 1);
  }
  return out.filter((i) => i < argv.length);
}

/**
 * The files socat's addresses name: the parameter of a file type (`OPEN:.env`), a bare path
 * (`/dev/tcp/x` is GOPEN), and the values of file options (`,cert=k.pem`); a file not known for an
 * address that is not known statically.
 */
export function socatFiles(argv: Word[]): { path: string | null; source: string }[] {
  const out: { path: string | null; source: string }[] = [];
  for (const i of socatAddresses(argv).at) {
    const w = argv[i];
    if (w.kind !== "static") {
      // (Its type may be a file's when the known text does not name another one.)
      if (!/^[A-Za-z0-9-]+:/.test(w.prefix) || fileType(w.prefix)) {
        out.push({ path: null, source: w.text });
      }
      continue;
    }
    const [head, ...options] = w.value.split(",");
    const colon = head.indexOf(":");
    const slash = head.indexOf("/");
    if (colon > 0 && (slash < 0 || colon < slash)) {
      if (fileType(head) && head.length > colon + 1) {
        out.push({ path: head.slice(colon + 1), source: w.text });
      }
    } else if (slash >= 0) out.push({ path: head, source: w.text });
    for (const o of options) {
      const eq = o.indexOf("=");
      if (eq > 0 && SOCAT_FILE_OPTIONS.has(o.slice(0, eq).toLowerCase()) && o.length > eq + 1) {
        out.push({ path: o.slice(eq + 1), source: w.text });
      }
    }
  }
  return out;
}

/** Whether an address (`OPEN:x`, `UNIX-CONNECT:x`) is of a type whose parameter is a path. */
function fileType(address: string): boolean {
  return SOCAT_FILE_TYPES.has(address.slice(0, address.indexOf(":")).toLowerCase());
}

/**
 * The commands socat's `EXEC:`/`SYSTEM:` addresses run (the text up to the address's options);
 * an address not known statically whose type may be one of them runs a command not known.
 */
function socatRuns(stage: Stage, run: Runner): void {
  for (const i of socatAddresses(stage.argv).at) {
    const w = stage.argv[i];
    if (w.kind !== "static") {
      if (!/^[A-Za-z0-9-]+:/.test(w.prefix) || SOCAT_RUNS.test(w.prefix)) {
        run.stage([unknownWord(`(a command the address ${w.text} may run)`)], "socat");
      }
      continue;
    }
    if (!SOCAT_RUNS.test(w.value)) continue;
    const command = w.value.slice(w.value.indexOf(":") + 1);
    // (Quoted text may hold the option separator: then the whole rest is the command.)
    const text = /["']/.test(command) ? command : command.split(",")[0];
    // (What it runs has the connection as its standard input: a shell there reads it.)
    run.shell(literal(text), "socat", { input: true });
  }
}

/** netcat's options (its flavours together) and those that run a command. */
const NETCAT: OptionCommandSpec = {
  shortWithArg: "cdeGgIiMmOoPpqsTVwXx",
  short: { e: "shell", c: "shell" },
  long: { "--exec": "shell", "--sh-exec": "shell", "--lua-exec": "file" },
};

/** What netcat runs on a connection: `-e PROG` (ncat splits its words), `-c CMD`, a Lua file. */
function netcatRuns(stage: Stage, run: Runner): void {
  for (const [value, how] of commandOptions(NETCAT, stage.argv.slice(1))) {
    if (how === "file") run.command(value, how, "netcat");
    else run.shell(value, "netcat", { input: true });
  }
}

/** netcat in its flavours, and socat. */
export const NETWORK_PROGRAMS: Program[] = [
  {
    names: ["nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"],
    optionCommands: netcatRuns,
  },
  {
    names: ["socat"],
    runs: socatRuns,
    text: socatText,
    namedFiles: socatFiles,
  },
];
