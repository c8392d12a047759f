/**
 * ssh, scp and sftp: the settings that run a local command (`-o ProxyCommand=…`,
 * `LocalCommand`, `KnownHostsCommand`), the programs `-S`/`-D` name, and config files (`-F`)
 * that may hold such settings. What `ssh host CMD` runs happens on another machine: it is judged
 * as a carried line (`ssh host rm -rf x` as `rm -rf x`) run in the home directory there (judged
 * as this user's home), and saving "ssh host *" would allow
 * anything there, so it never is. The remote operands of scp, sftp and rsync (`host:path`) are
 * text, no local path; where the host may be this machine (`localhost:.ssh/id_rsa`, `[::1]:x`,
 * `scp://127.1/x`), each is a file of this machine (`NamedFile.on`), read where it is a source
 * and written where it is the destination, as a local operand there is.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { hasOption, type OptionGrammar, readOptions } from "./argv.ts";
import { optionCommands } from "./option_commands.ts";
import type { How, NamedFile, Program, ReadFile } from "./spec.ts";
import { commandLine, linesFrom, literal, unknownWord } from "./words.ts";
import { sftpBatch } from "./shell_escapes.ts";
import { filesFromList } from "./file_lists.ts";
import { rsyncBackups } from "./backups.ts";
import { RSYNC_OPTIONS, rsyncFilters, rsyncFiltersRead, rsyncTreeNames } from "./rsync_filters.ts";
import { stageVariable } from "./handed_env.ts";
import { scpDestination, sftpDestination } from "./destinations.ts";
import {
  operandText,
  optionHost,
  optionUser,
  type Remote,
  remoteFile,
  rsyncOperand,
  sshOperand,
} from "./remote_operands.ts";
import { givenConnection, SSH_OPTIONS } from "./ssh_hosts.ts";

/**
 * The command `ssh [options] destination [command…]` runs remotely: its words after the
 * destination (ssh reads options after it too, up to the command), joined by blanks as ssh
 * sends them. Where an option is not known or a word before the command is not, each later word
 * may begin it. With no command, the login shell there runs what ssh reads from its standard
 * input (`ssh host <<<'rm -rf x'`): a line `sh`, unless ssh runs no command (`-N`, `-W`) or
 * reads nothing (`-n`, `-f`).
 */
function sshCommand(argv: Word[], grammar: OptionGrammar = SSH_OPTIONS): Word[] {
  const args = argv.slice(1);
  const values = args.map((w) => (w.kind === "static" ? w.value : null));
  let operands = 0;
  let shell = true;
  for (const t of readOptions(values, grammar)) {
    if (/^-[NnfW]$/.test(t.name)) shell = false;
    if (t.kind === "unknown" || t.kind === "dynamic") {
      const lines = linesFrom(args, t.at + 1, "joined");
      // (A word not known after the destination begins the command.)
      if (t.kind === "dynamic" && operands === 1) {
        lines.unshift(commandLine(args.slice(t.at), "joined"));
      }
      return lines;
    }
    if (t.kind === "operand" && ++operands === 2) return [commandLine(args.slice(t.at), "joined")];
  }
  return operands === 1 && shell ? [literal("sh")] : [];
}

/**
 * `vagrant ssh [NAME] -c CMD` runs CMD in the machine (`--command`, or the words after `--` as
 * ssh's); with neither, a login shell there reads the standard input: a line `sh`.
 */
function vagrantCommand(argv: Word[]): Word[] {
  const args = argv.slice(1);
  const ssh = args.findIndex((w) => w.kind === "static" && w.value === "ssh");
  if (ssh < 0) return [];
  for (let i = ssh + 1; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : args[i].prefix;
    if (v === "-c" || v === "--command") return args[i + 1] ? [args[i + 1]] : [];
    if (v.startsWith("--command=")) {
      return [args[i].kind === "static" ? literal(v.slice(10)) : unknownWord(args[i].text)];
    }
    if (v === "--") return [commandLine(args.slice(i + 1), "joined")];
  }
  return [literal("sh")];
}

/** autossh: ssh's options, with `-M port` its own. */
const AUTOSSH_OPTIONS: OptionGrammar = {
  flags: "46AaCfGgKkNnqsTtVvXxYy",
  valued: "BbcDEeFIiJLlmMOoPpRSWw",
};
/** rsh and rlogin (and krsh): `-l user`, `-e char`. */
const RSH_OPTIONS: OptionGrammar = { flags: "46dnxKk8EL", valued: "le" };
/** mosh: its options before the host (`--ssh` runs here, `--server` there). */
const MOSH_OPTIONS: OptionGrammar = {
  flags: "an46",
  valued: "p",
  // deno-fmt-ignore
  longFlags: new Set(["--no-init", "--local", "--no-ssh-pty", "--ssh-pty", "--help", "--version"]),
  // deno-fmt-ignore
  longValued: new Set(["--client", "--server", "--ssh", "--predict", "--predict-overwrite", "--family", "--port", "--bind-server", "--experimental-remote-ip"]),
};

/**
 * The operands of scp, sftp and rsync that name a path on another machine: `host:path`,
 * `user@host:path`, rsync's `host::module` and `rsync://` (a colon before any slash); a local
 * path with a colon in it is written with a slash first (`./a:b`).
 */
function remoteOperands(argv: Word[]): number[] {
  const out: number[] = [];
  const end = argv.findIndex((w) => w.value === "--");
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static" || (w.value.startsWith("-") && (end < 0 || i < end))) continue;
    const colon = w.value.indexOf(":");
    const slash = w.value.indexOf("/");
    if (colon > 0 && (slash < 0 || colon < slash)) out.push(i);
  }
  return out;
}

/**
 * Whether rsync may change what lies below a local directory it names: its destination is here
 * (its last operand, or a word not known), or it removes the files it sends.
 */
function rsyncReplaces(argv: Word[]): boolean {
  if (argv.some((w) => w.kind !== "static" || w.value.startsWith("--remove-source"))) return true;
  // (With one operand, rsync lists it.)
  const operands = argv.flatMap((w, i) => (i > 0 && !w.value.startsWith("-") ? [i] : []));
  if (operands.length < 2) return false;
  return !remoteOperands(argv).includes(operands[operands.length - 1]);
}

/**
 * The argv positions of the operands: words not starting with `-`, past `valued` options' values,
 * and every word after `--` (`scp -- --1.sslip.io:x .`).
 */
function operandsAt(argv: Word[], valued: string): number[] {
  const out: number[] = [];
  let ended = false;
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i].kind === "static" ? argv[i].value : argv[i].prefix;
    if (ended || !v.startsWith("-") || v === "-") out.push(i);
    else if (v === "--") ended = true;
    else if (v.length === 2 && valued.includes(v[1])) i++;
  }
  return out;
}

/**
 * What scp reads and writes on machines that may be this one (`NamedFile.on`): each remote
 * operand, and at a remote destination what it copies there (by the names `scpDestination`
 * gives a local one); beside the local destination's files.
 */
function scpFiles(argv: Word[]): NamedFile[] {
  const out = scpDestination(argv);
  const ops = operandsAt(argv, "cFiJloPSDX");
  for (const at of ops) {
    const w = argv[at];
    const text = operandText(w);
    const r = text === null ? null : sshOperand(text);
    if (r === null) continue;
    const user = optionUser(argv, r.user, false);
    const host = optionHost(argv, r.host, "scp");
    out.push(remoteFile({ ...r, host }, w.text, user));
    if (at !== ops.at(-1) || ops.length < 2) continue;
    // (Its files there are named as a local destination's would be.)
    const dest = r.path === null || !r.path.startsWith("-") ? r.path : "./" + r.path;
    const local = argv.map((x, i) => (i === at ? literal(dest ?? ".") : x));
    for (const f of scpDestination(local)) out.push({ ...f, on: { host, user } });
  }
  return out;
}

/**
 * `sftp [user@]host[:path]`: the file it fetches there, and, as its batch or the commands it
 * reads may name any file there, a file not known (on the machine `NamedFile.on` says).
 */
function sftpFiles(argv: Word[]): NamedFile[] {
  const out = sftpDestination(argv);
  const at = operandsAt(argv, "BbcDFiJloPRSs")[0];
  const w = argv[at];
  const text = w === undefined ? null : operandText(w);
  if (text === null) return out;
  // (`sftp host` alone: a session there.)
  const given = sshOperand(text) ?? sshOperand(text + ":");
  if (given === null) return out;
  const r = { ...given, host: optionHost(argv, given.host, "sftp") };
  const user = optionUser(argv, r.user, false);
  if (r.path !== null) out.push(remoteFile(r, w.text, user));
  out.push(remoteFile({ ...r, path: null }, `(what sftp does on ${r.host})`, user));
  return out;
}

/**
 * What rsync reads and writes on machines that may be this one (`NamedFile.on`): its remote
 * sources (`:path` after one is on its host), and below its remote destination; a daemon's
 * module (`host::m`, `rsync://host/m`, `-e ssh` or not) is a place there not known.
 */
function rsyncRemoteFiles(argv: Word[], stage?: Stage): NamedFile[] {
  const out: NamedFile[] = [];
  const ops = operandsAt(argv, "eBfTM");
  let last: Remote | null = null;
  for (const at of ops) {
    const w = argv[at];
    const text = operandText(w);
    if (text === null) continue;
    const same: boolean = last !== null && text.startsWith(":") && at !== ops.at(-1);
    const r = rsyncOperand(same ? "h" + text : text);
    if (r === null) continue;
    const remote: Remote = same ? { ...last!, path: r.path, daemon: r.daemon } : r;
    last = remote;
    // (A daemon's module is a place there not known: its configuration says where.)
    const dest = at === ops.at(-1) && ops.length > 1;
    const there = { ...remote, host: optionHost(argv, remote.host, "rsync", stage) };
    const user = optionUser(argv, remote.user, true, stage);
    out.push(remoteFile(there, w.text, user, { below: dest }));
  }
  return out;
}

/**
 * What `rsync --daemon` serves: the `path` of each module its configuration (`--config=FILE`, else
 * `/etc/rsyncd.conf`) gives, a tree its clients read and write; where that cannot be read (or it
 * includes more, `&include`, `&merge`), a place not known.
 */
function rsyncDaemonFiles(argv: Word[], read?: ReadFile): NamedFile[] {
  if (!argv.some((w) => w.value === "--daemon")) return [];
  let config: string | null = "/etc/rsyncd.conf";
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    const m = /^--config(?:=(.*))?$/s.exec(w.kind === "static" ? w.value : w.prefix);
    if (!m) continue;
    const value = m[1] !== undefined ? w : argv[++i];
    config = value?.kind === "static" ? (m[1] ?? value.value) : null;
  }
  const text = config === null ? null : read?.(config) ?? null;
  const source = `rsync --daemon (the modules of ${config ?? "a configuration not known"})`;
  if (text === null || /^\s*&(include|merge)\b/m.test(text)) {
    return [{ path: null, source, below: true }];
  }
  const out: NamedFile[] = [];
  for (const m of text.matchAll(/^\s*path\s*=\s*(.*?)\s*$/gim)) {
    out.push({ path: m[1], source, below: true });
  }
  return out;
}

/** The list of files `rsync --files-from=LIST` copies. */
const RSYNC_LISTS = filesFromList({ valued: ["--files-from"] });

/** ssh settings (`-o Key=value`) whose value is a command run here. */
const SSH_KEYS: Record<string, How> = {
  proxycommand: "shell",
  localcommand: "shell",
  knownhostscommand: "shell",
};

/** ssh, scp and sftp. */
export const SSH_PROGRAMS: Program[] = [
  {
    names: ["ssh"],
    // `-G` prints the configuration it reads from ~/.ssh/config.
    // As the ssh command of a program it is exported for, it reaches files there: not seen.
    namedFiles: (argv) =>
      argv.some((w) => /^-[a-zA-Z]*G/.test(w.value))
        ? [{ path: "~/.ssh/config", source: "ssh -G" }, ...givenConnection(argv)]
        : givenConnection(argv),
    optionCommands: optionCommands({
      shortWithArg: "BbcDEeFIiJLlmOopQRSWw",
      short: { F: "file" },
      keyed: { "-o": SSH_KEYS },
      operands: 1,
    }),
    runsElsewhere: sshCommand,
    runsInHome: true,
  },
  {
    names: ["autossh"],
    runsElsewhere: (argv) => sshCommand(argv, AUTOSSH_OPTIONS),
    runsInHome: true,
  },
  { names: ["vagrant"], runsElsewhere: vagrantCommand, runsInHome: true },
  {
    names: ["rsh", "rlogin", "krsh"],
    runsElsewhere: (argv) => sshCommand(argv, RSH_OPTIONS),
    runsInHome: true,
  },
  {
    // `mosh host -- CMD`: the command runs there; `--ssh=CMD` here, `--client=PATH` here.
    names: ["mosh"],
    runsElsewhere: (argv) => sshCommand(argv, MOSH_OPTIONS),
    runsInHome: true,
    optionCommands: optionCommands({
      shortWithArg: "p",
      long: { "--ssh": "shell", "--client": "program" },
      exact: true,
    }),
  },
  {
    names: ["scp"],
    optionCommands: optionCommands({
      shortWithArg: "cFiJloPSDX",
      short: { S: "program", F: "file" },
      keyed: { "-o": SSH_KEYS },
    }),
    text: remoteOperands,
    // Into a local directory it copies files by the names they have there (`scp -r host:x .`).
    namedFiles: scpFiles,
    // A tree it sends (`scp -r . host:`) is read with the symlinks in it followed; it reads only
    // the trees its operands name.
    followsLinks: (argv) => argv.some((w) => /^-[a-zA-Z]*r[a-zA-Z]*$/.test(w.value)),
    treesNamed: () => true,
  },
  {
    // Its batch commands (`-b FILE`, standard input) run local commands with `!`.
    names: ["sftp"],
    runs: sftpBatch,
    // (`sftp host:x [dir]` fetches x there.)
    namedFiles: sftpFiles,
    optionCommands: optionCommands({
      shortWithArg: "BbcDFiJloPRSs",
      short: { S: "program", D: "program", F: "file" },
      keyed: { "-o": SSH_KEYS },
    }),
    text: remoteOperands,
  },
  {
    // rsync's remote shell (`-e CMD`, `--rsh=CMD`) runs here; it replaces files below a
    // directory it is given, unless it only sends them elsewhere (its destination is another
    // machine's, and it keeps its sources: not `--remove-source-files`).
    names: ["rsync"],
    options: RSYNC_OPTIONS,
    optionCommands: optionCommands({
      shortWithArg: "eBfTM",
      short: { e: "shell" },
      long: { "--rsh": "shell" },
    }),
    replacesTrees: rsyncReplaces,
    // (Its filter rules and patterns are text: the files they read are `namedFiles`.)
    text: (argv) => [...remoteOperands(argv), ...rsyncFilters(argv).text],
    // `rsync --files-from=LIST SRC DEST`: the files it copies are named in LIST; `-b`: the
    // backups it keeps, named by `--suffix`; the merge files of its filter rules.
    namedFiles: (argv, stage, given) => [
      ...RSYNC_LISTS(argv),
      ...rsyncFiltersRead(argv, given),
      ...rsyncBackups(argv, (name) => stageVariable(stage, name, given?.env)),
      ...rsyncRemoteFiles(argv, stage),
      ...rsyncDaemonFiles(argv, given?.read),
    ],
    followsLinks: (argv) =>
      hasOption(argv, { valued: "eBfTM" }, [
        "-L",
        "--copy-links",
        "--copy-unsafe-links",
        // (`-k`: a link to a directory is copied as that directory, and what is in it.)
        "-k",
        "--copy-dirlinks",
      ]),
    treesNamed: () => true,
    // A per-directory merge file (`-f ': .rules'`, `-F`) is read in every directory of a tree.
    treeNames: (argv) => rsyncTreeNames(argv, rsyncFilters(argv)),
  },
];
