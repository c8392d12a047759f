/**
 * Clients that open a shell on a machine, VM or container they manage (`gcloud compute ssh vm`,
 * `multipass shell vm`, `heroku run bash`, `wsl`, `crictl exec`, `lxc-attach`, `nomad alloc exec`): what they run there is its command (an option
 * that names it, the words after `--`, or any later word, each judged as a carried line, as
 * `ssh host CMD` is), and with none a login shell there, which runs what they feed it from their
 * standard input (`multipass shell vm <<<'rm -rf x'`). Saving "gcloud compute *" would allow
 * anything there, so the subcommand that opens the shell is never saved broadly.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { REMOTE_SHELL_PROGRAMS } from "./remote_shells.ts";
 * const heroku = REMOTE_SHELL_PROGRAMS.find((p) => p.names[0] === "heroku")!;
 * heroku.runsElsewhere!(["heroku", "run", "rm", "-rf", "x"].map(literal)); // lines from `rm`
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { Program } from "./spec.ts";
import { commandLine, linesFrom, literal } from "./words.ts";
import { unshareRuns } from "./containers.ts";
import { buildFiles, buildFrom, buildReadWords } from "./image_builds.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { pluginRuns } from "./plugins.ts";

/** buildah's options before its subcommand that take a value. */
const BUILDAH_GLOBAL: OptionGrammar = {
  flags: "",
  valued: "",
  longFlags: new Set(["--debug", "--help", "--version"]),
  longValued: new Set([
    "--root",
    "--runroot",
    "--storage-driver",
    "--storage-opt",
    "--registries-conf",
    "--registries-conf-dir",
    "--short-name-alias-conf",
    "--userns-uid-map",
    "--userns-gid-map",
    "--log-level",
    "--cgroup-manager",
    "--default-mounts-file",
  ]),
};

/** The argv index after `buildah [OPTIONS] bud|build`, or null. */
function buildahBuild(argv: Word[]): number | null {
  const values = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  for (const t of readOptions(values, BUILDAH_GLOBAL)) {
    if (t.kind === "operand") return buildFrom(argv, t.at + 1);
    if (t.kind !== "flag" && t.kind !== "valued") return null;
  }
  return null;
}

/** How a client opens the shell: its subcommand words, and the option that names the command. */
export interface RemoteShell {
  /** The words that open the shell, after the client's name (`compute ssh`); "" for none. */
  opens: string[];
  /** Options whose value is the command run there (`--command`, `-C`). */
  command?: string[];
  /** Operands before the command (the instance, container or VM). @default 1 */
  operands?: number;
  /** Options after which every later word is the command, as after `--` (`wsl -e CMD ARGS`). */
  commandRest?: string[];
  /** Options that take the next word as their value (`lxc-attach -n NAME`). */
  values?: string[];
}

const REMOTE_SHELLS: Record<string, RemoteShell> = {
  az: { opens: ["ssh vm", "ssh host", "ssh arc"], operands: Infinity },
  minikube: { opens: ["ssh"], operands: 0 },
  colima: { opens: ["ssh"], operands: 0 },
  limactl: { opens: ["shell"] },
  lima: { opens: [""], operands: 0 },
  multipass: { opens: ["shell", "exec"] },
  fly: { opens: ["ssh console"], command: ["-C", "--command"], operands: 0 },
  flyctl: { opens: ["ssh console"], command: ["-C", "--command"], operands: 0 },
  heroku: { opens: ["run"], operands: 0 },
  devcontainer: { opens: ["exec"], operands: 0 },
  buildah: { opens: ["run"] },
  wsl: { opens: [""], commandRest: ["-e", "--exec"], operands: 0 },
  orb: { opens: [""], operands: 0 },
  crictl: { opens: ["exec"], values: ["--timeout"] },
  ctr: {
    opens: ["task exec", "tasks exec", "t exec"],
    values: ["--exec-id", "--cwd", "--user", "-u", "--fifo-dir", "--log-uri", "--env", "-e"],
  },
  "lxc-attach": {
    opens: [""],
    operands: 0,
    values: [
      "-n",
      "--name",
      "-P",
      "--lxcpath",
      "-s",
      "--namespaces",
      "-v",
      "--set-var",
      "-u",
      "--uid",
      "-g",
      "--gid",
      "-f",
      "--rcfile",
      "-a",
      "--arch",
      "-L",
      "--pty-log",
      "-o",
      "--logfile",
      "-l",
      "--logpriority",
      "--context",
      "-c",
    ],
  },
  nomad: {
    opens: ["alloc exec", "exec"],
    values: ["-task", "-job", "-namespace", "-region", "-address", "-e", "-token"],
  },
};

/** What a client runs there (see the module's notes). */
function remoteCommand(spec: RemoteShell): (argv: Word[]) => Word[] {
  return (argv) => {
    const words = argv.map((w) => (w.kind === "static" ? w.value : null));
    for (const opens of spec.opens) {
      const sub = opens === "" ? [] : opens.split(" ");
      // The subcommand's words, in order, after the client's options.
      let at = 1;
      for (const s of sub) {
        while (at < words.length && words[at] !== s && words[at]?.startsWith("-")) at++;
        if (words[at] !== s) {
          at = -1;
          break;
        }
        at++;
      }
      if (at < 0) continue;
      const rest = argv.slice(at);
      for (let i = 0; i < rest.length; i++) {
        const v = rest[i].kind === "static" ? rest[i].value : "";
        const named = spec.command?.find((o) => v === o || v.startsWith(o + "="));
        if (named) {
          const value = v === named ? rest[i + 1] : literal(v.slice(named.length + 1));
          return value ? [value] : [];
        }
        if (v === "--" || spec.commandRest?.includes(v)) {
          return i + 1 < rest.length ? [commandLine(rest.slice(i + 1), "argv")] : [literal("sh")];
        }
      }
      // (Past its operands, any later word may begin the command; none: its login shell.)
      const starts: number[] = [];
      for (let i = 0; i < rest.length; i++) {
        const v = rest[i].kind === "static" ? rest[i].value : "";
        if (spec.values?.includes(v)) i++;
        else if (!v.startsWith("-")) starts.push(i);
      }
      const from = starts[spec.operands ?? 1];
      if (from === undefined) return [literal("sh")];
      return linesFrom(rest, from, "argv").filter((l) => !l.value.startsWith("-"));
    }
    return [];
  };
}

/** A client's facets: its remote command, and the subcommand never saved broadly. */
export function remoteShell(
  spec: RemoteShell,
): Pick<Program, "runsElsewhere" | "tooBroad"> {
  return {
    runsElsewhere: remoteCommand(spec),
    tooBroad: (sub) => spec.opens.some((o) => o === "" || o.split(" ")[0] === sub),
  };
}

/** `gcloud compute ssh VM [--command CMD] [-- ARGS]` (gcloud's other facets: credentials.ts). */
export const GCLOUD_SSH: RemoteShell = {
  opens: ["compute ssh", "alpha compute ssh", "beta compute ssh"],
  command: ["--command"],
};

/** The clients. */
export const REMOTE_SHELL_PROGRAMS: Program[] = Object.entries(REMOTE_SHELLS).map((
  [name, spec],
): Program => ({
  names: [name],
  ...remoteShell(spec),
  // (`buildah unshare CMD` runs CMD here, as `podman unshare` does.)
  ...(name === "buildah"
    ? {
      runs: unshareRuns,
      tooBroad: (sub: string) => sub === "run" || sub === "unshare",
      // (`buildah bud .`: image_builds.ts.)
      readWords: (argv: Word[]) => {
        const from = buildahBuild(argv);
        return from === null ? [] : buildReadWords(argv, from);
      },
      namedFiles: (argv: Word[]) => {
        const from = buildahBuild(argv);
        return from === null ? [] : buildFiles(argv, from);
      },
    }
    : {}),
  // (`az NAME` of an extension's commands: plugins.ts.)
  ...(name === "az" ? { optionCommands: pluginRuns } : {}),
}));
