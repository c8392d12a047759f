/**
 * Servers that run a command for each network connection, as `nc -l -e` does: the super-servers
 * (ipsvd's `tcpsvd`/`udpsvd`, ucspi-tcp's `tcpserver`, s6's `s6-tcpserver`: `HOST PORT PROG…`,
 * the connection on the program's standard input and output) and the web terminals and socket
 * servers (`websocketd [opts] CMD…`, `ttyd [opts] CMD…`, `gotty [opts] CMD…`: what a browser sends
 * is the command's input). They listen: whoever connects drives the command, so it is judged as
 * run with a standard input no one reads here (a shell there runs commands not known: `tcpsvd 0
 * 4444 sh`), where it runs (`ttyd -w DIR`), with the arguments a client may add (`ttyd -a`,
 * `gotty --permit-arguments`) not known. websocketd's `--dir`/`--cgidir` serve the programs of a
 * directory (commands not known) and `--staticdir` the files below one. telnetd runs its login
 * program for each connection (`telnetd -l /bin/sh` serves a shell); inetd and xinetd the
 * programs their configuration names.
 *
 * @example
 * ```ts
 * import { SHELL_SERVER_PROGRAMS } from "./shell_servers.ts";
 * SHELL_SERVER_PROGRAMS.flatMap((p) => p.names).includes("tcpsvd");
 * // true
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { Program, Runner } from "./spec.ts";
import { chdir, commandLine, literal, optionValue, unknownWord } from "./words.ts";

/** How one server reads its words before the command it serves. */
interface ServerSpec {
  /** Its options (getopt-style), or, for a Go program, its flags: `-name`/`--name`, `=value` or the next word. */
  grammar?: OptionGrammar;
  /** Go's flag package: the flags that take a value, and those that take none. */
  goValued?: ReadonlySet<string>;
  goFlags?: ReadonlySet<string>;
  /** Operands before the command (`HOST PORT`). @default 0 */
  operands?: number;
  /** Options whose value is the directory the command runs in. */
  cwd?: string[];
  /** Options with which a client adds arguments of its own to the command. */
  clientArgs?: string[];
  /** Options whose value is a directory of programs it serves (each run for a client). */
  programDirs?: string[];
  /** Options whose value is a directory of files it serves. */
  fileDirs?: string[];
  /** Options whose value is the program it runs for each connection (telnetd's `-l LOGIN`). */
  login?: string[];
  /** It takes no command after its options (telnetd): an operand there is not known. */
  noCommand?: boolean;
}

/** One option read: its name (as written, `-p`/`--port`; a Go flag with `--`), and its value. */
interface Read {
  name: string;
  value?: Word;
}

/** A server's options and where its command starts; null where that is not known. */
function readServer(w: ServerSpec, args: Word[]): { options: Read[]; start: number } | null {
  const options: Read[] = [];
  let operands = w.operands ?? 0;
  if (w.grammar) {
    const values = args.map((a) => (a.kind === "static" ? a.value : null));
    for (const t of readOptions(values, w.grammar)) {
      if (t.kind === "unknown" || (t.kind === "dynamic" && operands > 0)) return null;
      if (t.kind === "end") return operands > 0 ? null : { options, start: t.at + 1 };
      if (t.kind === "operand" || t.kind === "dynamic") {
        if (operands-- > 0) continue;
        return { options, start: t.at };
      }
      options.push({ name: t.name, value: t.kind === "valued" ? optionValue(t, args) : undefined });
    }
    return { options, start: args.length };
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") return null;
    if (a.value === "--") return { options, start: i + 1 };
    if (!a.value.startsWith("-") || a.value === "-") return { options, start: i };
    const m = /^--?([\w-]+)(=(.*))?$/s.exec(a.value);
    if (!m) return null;
    const name = "--" + m[1];
    if (w.goFlags?.has(name)) options.push({ name });
    else if (w.goValued?.has(name)) {
      const value = m[2] !== undefined ? literal(m[3]) : args[++i];
      if (!value) return null;
      options.push({ name, value });
    } else return null;
  }
  return { options, start: args.length };
}

/** What a server runs for each connection (see the module). */
function serves(name: string, w: ServerSpec, stage: Stage, run: Runner): void {
  const origin = `${name} (for each connection)`;
  const args = stage.argv.slice(1);
  const read = readServer(w, args);
  if (read === null) {
    run.stage([unknownWord(`(what ${name} serves)`)], origin);
    return;
  }
  let cwds = stage.cwds;
  let clientArgs = false;
  for (const o of read.options) {
    if (w.clientArgs?.includes(o.name)) clientArgs = true;
    if (!o.value) continue;
    if (w.cwd?.includes(o.name)) cwds = chdir(cwds, o.value);
    if (w.programDirs?.includes(o.name)) {
      run.stage([unknownWord(`(the programs of ${o.value.text} ${name} serves)`)], origin);
    }
    if (w.fileDirs?.includes(o.name)) {
      run.stage([literal(`(${name} serves the files below)`), o.value], origin, cwds);
    }
    if (w.login?.includes(o.name)) {
      run.shell(commandLine([o.value], "argv"), origin, { input: true, cwds });
    }
  }
  const command = args.slice(read.start);
  if (!command.length) return;
  if (w.noCommand) {
    run.stage([unknownWord(`(what ${name} serves)`)], origin);
    return;
  }
  const words = clientArgs ? [...command, unknownWord("(the arguments a client adds)")] : command;
  run.shell(commandLine(words, "argv"), origin, { input: true, cwds });
}

/** ipsvd's `tcpsvd`/`udpsvd [-hEv] [-c N] [-C N:MSG] [-b N] [-u USER] [-l NAME] [-i DIR|-x CDB] [-t SEC] HOST PORT PROG…`. */
const IPSVD: ServerSpec = { grammar: { flags: "hEv", valued: "cCbulixt" }, operands: 2 };
/** ucspi-tcp's `tcpserver [-1UXpPhHrRoOdDqQv] [-c N] [-x CDB] [-B BANNER] [-g GID] [-u UID] [-b N] [-l NAME] [-t SEC] HOST PORT PROG…`. */
const TCPSERVER: ServerSpec = {
  grammar: { flags: "1UXpPhHrRoOdDqQv46", valued: "cxBgublt" },
  operands: 2,
};
/** s6's `s6-tcpserver [-qQv] [-46] [-1] [-c N] [-C N] [-b N] [-G GIDS] [-g GID] [-u UID] [-U] IP PORT PROG…`. */
const S6_TCPSERVER: ServerSpec = {
  grammar: { flags: "qQv461U", valued: "cCbGgu" },
  operands: 2,
};
/** ttyd's options (1.7, getopt_long). */
const TTYD: ServerSpec = {
  grammar: {
    flags: "aWR6SOoqBvhx",
    valued: "piUcHugswIbPfFtTCKAmd",
    // deno-fmt-ignore
    longValued: new Set(["--port", "--interface", "--socket-owner", "--credential", "--auth-header", "--uid", "--gid", "--signal", "--cwd", "--index", "--base-path", "--ping-interval", "--srv-buf-size", "--terminal-type", "--client-option", "--ssl-cert", "--ssl-key", "--ssl-ca", "--max-clients", "--debug"]),
    // deno-fmt-ignore
    longFlags: new Set(["--url-arg", "--writable", "--readonly", "--ipv6", "--ssl", "--check-origin", "--once", "--exit-no-conn", "--browser", "--version", "--help"]),
    abbreviations: true,
  },
  cwd: ["-w", "--cwd"],
  clientArgs: ["-a", "--url-arg"],
};
/** websocketd's flags (Go's flag package). */
const WEBSOCKETD: ServerSpec = {
  // deno-fmt-ignore
  goValued: new Set(["--port", "--address", "--dir", "--staticdir", "--cgidir", "--loglevel", "--sslcert", "--sslkey", "--maxforks", "--passenv", "--header", "--header-ws", "--header-http", "--closems", "--origin", "--redirport", "--uri"]),
  // deno-fmt-ignore
  goFlags: new Set(["--devconsole", "--binary", "--ssl", "--sameorigin", "--reverselookup", "--version", "--license", "--help"]),
  programDirs: ["--dir", "--cgidir"],
  fileDirs: ["--staticdir"],
};
/** gotty's flags (Go's flag package, by urfave/cli: `-w`, `--permit-write`). */
const GOTTY: ServerSpec = {
  // deno-fmt-ignore
  goValued: new Set(["--address", "--a", "--port", "--p", "--credential", "--c", "--random-url-length", "--tls-crt", "--tls-key", "--tls-ca-crt", "--index", "--title-format", "--reconnect-time", "--max-connection", "--timeout", "--width", "--height", "--ws-origin", "--term", "--close-signal", "--close-timeout", "--config", "--path"]),
  // deno-fmt-ignore
  goFlags: new Set(["--permit-write", "--w", "--random-url", "--r", "--tls", "--t", "--reconnect", "--once", "--permit-arguments", "--enable-idle-alert", "--quiet", "--help", "--h", "--version", "--v"]),
  clientArgs: ["--permit-arguments"],
};

/**
 * telnetd's options in its flavours: busybox's `telnetd [-KFiS] [-l LOGIN] [-f ISSUE] [-p PORT]
 * [-b ADDR] [-w SEC]`, inetutils' `-E`/`--exec-login=PROG`, netkit's `in.telnetd -L PROG`, and
 * utelnetd's `[-p PORT] [-i IF] [-l LOGIN] [-d]`. The login program (`/bin/login` unless one is
 * named) runs for each connection, the connection its terminal: `-l /bin/sh` serves a shell.
 */
const TELNETD: ServerSpec = {
  grammar: {
    flags: "KFiSdhnUX",
    valued: "lfpbwELa",
    // deno-fmt-ignore
    longValued: new Set(["--exec-login", "--authmode", "--server-principal", "--disable-auth-type"]),
    // deno-fmt-ignore
    longFlags: new Set(["--no-hostinfo", "--no-keepalive", "--reverse-lookup", "--help", "--version", "--usage"]),
    abbreviations: true,
  },
  login: ["-l", "-E", "-L", "--exec-login"],
  noCommand: true,
};

/** The servers, each by its names. */
const SERVERS: [string[], ServerSpec][] = [
  [["tcpsvd", "udpsvd"], IPSVD],
  [["tcpserver"], TCPSERVER],
  [["s6-tcpserver", "s6-tcpserver4", "s6-tcpserver6"], S6_TCPSERVER],
  [["ttyd"], TTYD],
  [["websocketd"], WEBSOCKETD],
  [["gotty"], GOTTY],
  [["telnetd", "in.telnetd", "utelnetd"], TELNETD],
];

/** inetd's options (busybox's `[-fe] [-q N] [-R N]`, openbsd-inetd's `[-dilE] [-q N] [-R N]`). */
const INETD: OptionGrammar = { flags: "fedilE", valued: "qR" };

/**
 * The programs inetd's configuration names (`/etc/inetd.conf`, or the file it is given): each
 * line `SERVICE TYPE PROTO WAIT USER PROGRAM ARGV0 ARGS…` runs PROGRAM with the connection as its
 * input (`internal`: none); a file not known is a command not known.
 */
function inetdRuns(stage: Stage, run: Runner): void {
  const origin = "inetd (for each connection)";
  const args = stage.argv.slice(1);
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  let file: Word | null | undefined;
  for (const t of readOptions(values, INETD)) {
    if (t.kind === "unknown" || t.kind === "dynamic") file = null;
    else if (t.kind === "operand" && file === undefined) file = args[t.at];
  }
  const text = file === undefined
    ? run.settings("/etc/inetd.conf")
    : file?.kind === "static"
    ? run.read(file.value)
    : null;
  if (text === null) {
    run.stage(
      [unknownWord(`(the programs ${file?.text ?? "inetd's configuration"} names)`)],
      origin,
    );
    return;
  }
  for (const line of text.split("\n")) {
    const fields = line.trim().split(/\s+/);
    if (fields[0] === "" || fields[0].startsWith("#") || fields.length < 6) continue;
    if (fields[5] === "internal") continue;
    const words = [fields[5], ...fields.slice(7)].map(literal);
    run.shell(commandLine(words, "argv"), origin, { input: true });
  }
}

/**
 * xinetd's services (`/etc/xinetd.conf`, or `-f FILE`, with the files it includes; `-inetd_compat`
 * inetd's too): each names a `server` it runs for each connection, commands not known here.
 */
function xinetdRuns(_stage: Stage, run: Runner): void {
  run.stage([unknownWord("(the servers xinetd's configuration names)")], "xinetd");
}

/** The servers that run a command for each connection. */
export const SHELL_SERVER_PROGRAMS: Program[] = [
  ...SERVERS.map(([names, spec]): Program => ({
    names,
    runs: (stage, run) => serves(names[0], spec, stage, run),
  })),
  { names: ["inetd", "openbsd-inetd"], runs: inetdRuns },
  { names: ["xinetd"], runs: xinetdRuns },
];
