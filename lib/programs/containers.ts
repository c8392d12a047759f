/**
 * Container and cluster clients: `docker run IMAGE CMD`, `docker exec CONTAINER CMD`, `docker
 * compose run SERVICE CMD`, `kubectl exec POD -- CMD`, `lxc exec C -- CMD` run CMD in a container, where it may still
 * reach this machine's files through a mount (`-v /:/host`). What they run there is judged as a
 * carried line (`docker run img rm -rf /data` counts as `rm -rf /data`), and saving "docker run *"
 * would allow anything, so it never is. docker, podman and nerdctl share one command line.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { CONTAINER_PROGRAMS } from "./containers.ts";
 * const docker = CONTAINER_PROGRAMS[0];
 * docker.runsElsewhere!(["docker", "run", "--rm", "img", "rm", "-rf", "x"].map(literal));
 * // [literal("rm -rf x")]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { NamedFile, Program, Runner } from "./spec.ts";
import { commandLine, linesFrom, literal, programName, quotedName, startsShell } from "./words.ts";
import { bakeAt, bakeRuns } from "./bake.ts";
import { composeBridgeOutput, containerCopyDestination } from "./destinations.ts";
import { containerFiles, containerOperands, type CopyForm } from "./container_copies.ts";
import { kubectlProxyServes } from "./tree_servers.ts";
import { kubeconfigOption } from "./settings_files.ts";
import { COMPOSE_GLOBAL, composeFileRuns, composeReadWords } from "./compose_files.ts";
import { buildFiles, buildFrom, buildReadWords } from "./image_builds.ts";
import { pluginRuns } from "./plugins.ts";

/** The options of `docker run`/`create` (podman's and nerdctl's too) that take a value. */
const RUN_VALUED = [
  "--add-host",
  "--annotation",
  "--attach",
  "--blkio-weight",
  "--cap-add",
  "--cap-drop",
  "--cgroup-parent",
  "--cgroupns",
  "--cidfile",
  "--cpu-period",
  "--cpu-quota",
  "--cpu-shares",
  "--cpus",
  "--cpuset-cpus",
  "--detach-keys",
  "--device",
  "--dns",
  "--dns-option",
  "--dns-search",
  "--domainname",
  "--entrypoint",
  "--env",
  "--env-file",
  "--expose",
  "--gpus",
  "--group-add",
  "--health-cmd",
  "--health-interval",
  "--health-retries",
  "--health-start-period",
  "--health-timeout",
  "--hostname",
  "--ip",
  "--ip6",
  "--ipc",
  "--isolation",
  "--label",
  "--label-file",
  "--link",
  "--log-driver",
  "--log-opt",
  "--mac-address",
  "--memory",
  "--memory-reservation",
  "--memory-swap",
  "--mount",
  "--name",
  "--net",
  "--network",
  "--network-alias",
  "--pid",
  "--pids-limit",
  "--platform",
  "--publish",
  "--pull",
  "--restart",
  "--runtime",
  "--security-opt",
  "--shm-size",
  "--stop-signal",
  "--stop-timeout",
  "--storage-opt",
  "--sysctl",
  "--tmpfs",
  "--ulimit",
  "--user",
  "--userns",
  "--uts",
  "--volume",
  "--volumes-from",
  "--workdir",
];

/** `docker run`/`create`. */
const RUN: OptionGrammar = {
  flags: "ditPq",
  valued: "acehlmpuvw",
  longFlags: new Set([
    "--detach",
    "--disable-content-trust",
    "--help",
    "--init",
    "--interactive",
    "--no-healthcheck",
    "--oom-kill-disable",
    "--privileged",
    "--publish-all",
    "--quiet",
    "--read-only",
    "--rm",
    "--tty",
  ]),
  longValued: new Set(RUN_VALUED),
};

/** `docker exec`. */
const EXEC: OptionGrammar = {
  flags: "dit",
  valued: "euw",
  longFlags: new Set(["--detach", "--interactive", "--privileged", "--tty", "--help"]),
  longValued: new Set(["--detach-keys", "--env", "--env-file", "--user", "--workdir"]),
};

/** `docker compose run`. */
const COMPOSE_RUN: OptionGrammar = {
  flags: "diPT",
  valued: "elpuvw",
  longFlags: new Set([
    "--build",
    "--detach",
    "--interactive",
    "--no-deps",
    "--no-TTY",
    "--quiet-pull",
    "--remove-orphans",
    "--rm",
    "--service-ports",
    "--use-aliases",
    "--help",
  ]),
  longValued: new Set([
    "--cap-add",
    "--cap-drop",
    "--entrypoint",
    "--env",
    "--label",
    "--name",
    "--publish",
    "--pull",
    "--user",
    "--volume",
    "--workdir",
  ]),
};

/** `docker compose exec`. */
const COMPOSE_EXEC: OptionGrammar = {
  flags: "dT",
  valued: "euw",
  longFlags: new Set(["--detach", "--no-TTY", "--privileged", "--help"]),
  longValued: new Set(["--env", "--index", "--user", "--workdir"]),
};

/** docker's options before its subcommand that take a value. */
const DOCKER_GLOBAL: OptionGrammar = {
  flags: "Dv",
  valued: "cHl",
  longFlags: new Set(["--debug", "--tls", "--tlsverify", "--version", "--help"]),
  longValued: new Set([
    "--config",
    "--context",
    "--host",
    "--log-level",
    "--tlscacert",
    "--tlscert",
    "--tlskey",
    // podman's
    "--connection",
    "--root",
    "--runroot",
    "--storage-driver",
    "--url",
    "--identity",
  ]),
};

/** The subcommand after the options of `grammar` at `from`: its index, or null (not known). */
function subcommandAt(args: Word[], from: number, grammar: OptionGrammar): number | null {
  const values = args.slice(from).map((w) => (w.kind === "static" ? w.value : null));
  for (const t of readOptions(values, grammar)) {
    if (t.kind === "operand") return from + t.at;
    if (t.kind !== "flag" && t.kind !== "valued") return null;
  }
  return null;
}

/**
 * The command a `run`/`exec` form runs: the words after its first operand (the image, container
 * or service), after `--entrypoint` when one is given. Where an option is not known (it may take
 * the next word or not) or a word before the command is not, each later word may begin it. A
 * health check's command runs there too. (With none, the image's own command runs, not known
 * here: judged by the command line that starts it.)
 */
function commandAfterOperand(args: Word[], from: number, grammar: OptionGrammar): Word[] {
  const rest = args.slice(from);
  const values = rest.map((w) => (w.kind === "static" ? w.value : null));
  const out: Word[] = [];
  let entrypoint: Word | null = null;
  for (const t of readOptions(values, grammar)) {
    if (t.kind === "unknown" && t.glued === undefined && t.rest === undefined) {
      return [...out, ...linesFrom(rest, t.at + 1, "argv")];
    }
    if (t.kind === "unknown") continue; // `--flag=value`: one word
    if (t.kind === "dynamic") return [...out, ...linesFrom(rest, t.at + 1, "argv")];
    if (t.kind === "end") continue;
    if (t.kind === "valued" && (t.name === "--entrypoint" || t.name === "--health-cmd")) {
      const value = t.glued !== undefined ? { ...rest[t.at], value: t.glued } : rest[t.valueAt!];
      if (value === undefined) continue;
      if (t.name === "--health-cmd") {
        out.push(value.kind === "static" ? value : commandLine([value], "argv"));
      } else entrypoint = value;
    }
    if (t.kind === "operand") {
      const command = rest.slice(t.at + 1);
      if (entrypoint) command.unshift(entrypoint);
      if (command.length) out.push(commandLine(command, "argv"));
      return out;
    }
  }
  return out;
}

/** What `docker …`, `podman …` or `nerdctl …` runs in a container. */
function dockerCommand(argv: Word[]): Word[] {
  const args = argv.slice(1);
  const at = subcommandAt(args, 0, DOCKER_GLOBAL);
  if (at === null) return linesFrom(args, 0, "argv");
  if (args[at].value === "compose") return composeCommand(args, at + 1);
  // `podman machine ssh [NAME] [CMD…]`: the VM's command (each later word may begin it), or its
  // login shell, which reads the standard input.
  // `docker attach C`, `docker start -ai C`: the container's own process (a shell, if it is
  // one) reads what docker feeds it.
  if (
    args[at].value === "attach" ||
    (args[at].value === "start" &&
      args.some((w) => /^(-[a-z]*i[a-z]*|--interactive)$/.test(w.value)))
  ) {
    return [literal("sh")];
  }
  if (args[at].value === "machine" && args[at + 1]?.value === "ssh") {
    const rest = linesFrom(args, at + 2, "argv");
    return rest.length > 1 ? rest.slice(1) : [literal("sh")];
  }
  const form = runForm(args, at);
  return form ? commandAfterOperand(args, form.at + 1, form.grammar) : [];
}

/** The `run`/`create`/`exec` subcommand of a docker command line and its grammar, if it is one. */
function runForm(
  args: Word[],
  subcommand = subcommandAt(args, 0, DOCKER_GLOBAL),
): { at: number; grammar: OptionGrammar } | null {
  let at = subcommand;
  if (at === null) return null;
  if (args[at].value === "container") at++;
  const sub = args[at]?.kind === "static" ? args[at].value : "";
  if (sub === "run" || sub === "create") return { at, grammar: RUN };
  if (sub === "exec") return { at, grammar: EXEC };
  return null;
}

/** The options of `run`/`exec` whose value names a file of this machine (kept as targets). */
const HOST_FILES = new Set(["--env-file", "--label-file", "--cidfile", "--device"]);
/** ... and those whose value is a mount (`-v HOST:CONTAINER`, `--mount source=HOST`). */
const MOUNTS = new Set(["-v", "--volume", "--mount"]);

/** Subcommands whose words name containers, images, networks or volumes, never a file here. */
const NAMES_ONLY = new Set([
  "stop",
  "start",
  "restart",
  "kill",
  "rm",
  "rmi",
  "logs",
  "inspect",
  "pause",
  "unpause",
  "top",
  "stats",
  "wait",
  "port",
  "tag",
  "push",
  "pull",
  "history",
  "rename",
  "update",
]);

/**
 * The argv positions of `docker stop $(docker ps -q)` and its kind (`NAMES_ONLY`, also after
 * `container`/`image`): every word after the subcommand (a name, an ID, an option's value).
 */
function namesOnly(args: Word[]): number[] {
  let at = subcommandAt(args, 0, DOCKER_GLOBAL);
  if (at === null) return [];
  if (/^(container|image|network|volume)$/.test(args[at].value)) at++;
  if (args[at]?.kind !== "static" || !NAMES_ONLY.has(args[at].value)) return [];
  const out: number[] = [];
  for (let i = at + 1; i < args.length; i++) out.push(i + 1);
  return out;
}

/** kubectl's subcommands whose operands name resources of the cluster, never a file here. */
const KUBECTL_NAMES = new Set([
  "logs",
  "describe",
  "get",
  "delete",
  "top",
  "label",
  "annotate",
  "scale",
  "cordon",
  "uncordon",
  "drain",
  "expose",
  "rollout",
]);
/** kubectl's options whose value is a file or directory of this machine. */
const KUBECTL_FILES =
  /^(-f|--filename|-k|--kustomize|--kubeconfig|--token-file|--client-key|--client-certificate|--certificate-authority)(=|$)/;

/**
 * The argv positions of `kubectl logs $(kubectl get pods -o name | head -1)` and its kind
 * (`KUBECTL_NAMES`): the words after the subcommand but the options that name files here and
 * their values.
 */
function kubectlNames(argv: Word[]): number[] {
  const at = argv.findIndex((w, i) => i > 0 && w.kind === "static" && !w.value.startsWith("-"));
  if (at < 0 || !KUBECTL_NAMES.has(argv[at].value)) return [];
  const out: number[] = [];
  for (let i = at + 1; i < argv.length; i++) {
    const v = argv[i].kind === "static" ? argv[i].value : argv[i].prefix;
    if (KUBECTL_FILES.test(v)) {
      if (!v.includes("=")) i++;
      continue;
    }
    out.push(i);
  }
  return out;
}

/**
 * The argv positions of `docker run|create|exec` that are text to this machine: the values of its
 * options that name things in the container or settings (`-w /app`, `-e A=1`, `--name x`), the
 * mounts (their host side is named by `dockerFiles`), the image or container, and the command
 * run there (judged as a carried line). After an option not known, nothing more is text.
 */
function dockerText(argv: Word[]): number[] {
  const args = argv.slice(1);
  const form = runForm(args);
  if (!form) return [...namesOnly(args), ...tagValues(args)];
  const rest = args.slice(form.at + 1);
  // (A value that stays one name, `"app:$SHA"`, reads as one: an image.)
  const values = rest.map((w) => (w.kind === "static" ? w.value : quotedName(w) ? w.prefix : null));
  const out: number[] = [];
  const at = (i: number) => form.at + 2 + i; // argv position of rest[i]
  for (const t of readOptions(values, form.grammar)) {
    if (t.kind === "unknown" || t.kind === "dynamic") return out;
    if (t.kind === "valued" && !HOST_FILES.has(t.name)) {
      if (t.valueAt !== undefined) out.push(at(t.valueAt));
      else out.push(at(t.at));
    }
    if (t.kind === "operand") {
      for (let i = t.at; i < rest.length; i++) out.push(at(i));
      return out;
    }
  }
  return out;
}

/**
 * The image names `docker build`/`buildx build`/`commit`/`import` tag (`-t "app:$SHA"`): names, not
 * files (argv positions).
 */
function tagValues(args: Word[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < args.length - 1; i++) {
    const v = args[i].kind === "static" ? args[i].value : "";
    if ((v === "-t" || v === "--tag") && quotedName(args[i + 1])) out.push(i + 2);
  }
  return out;
}

/** The host side of `docker run|create|exec`'s mounts: `-v /src:/dst`, `--mount source=/src`. */
function dockerFiles(argv: Word[], cwds?: (string | null)[]): NamedFile[] {
  const args = argv.slice(1);
  const form = runForm(args) ?? composeRunForm(args);
  if (!form) return [];
  const rest = args.slice(form.at + 1);
  const values = rest.map((w) => (w.kind === "static" ? w.value : null));
  const out: NamedFile[] = [];
  // (Writable mounts as [host, container path], and the container's working directory.)
  const mounted: [string, string][] = [];
  let workdir: string | null = null;
  for (const t of readOptions(values, form.grammar)) {
    if (t.kind === "operand" || t.kind === "unknown" || t.kind === "dynamic") break;
    if (t.kind === "valued" && (t.name === "-w" || t.name === "--workdir")) {
      workdir = t.glued ?? (t.valueAt !== undefined ? values[t.valueAt] : null);
    }
    if (t.kind !== "valued" || !MOUNTS.has(t.name)) continue;
    const word = t.valueAt !== undefined ? rest[t.valueAt] : rest[t.at];
    const value = t.glued ?? (t.valueAt !== undefined ? values[t.valueAt] : null);
    if (!word) continue;
    if (value === null || word.kind !== "static") {
      out.push({ path: null, source: word.text });
      continue;
    }
    const mount = t.name === "--mount" ? mountFields(value) : null;
    if (t.name === "--mount" && mount === null) {
      out.push({ path: null, source: word.text }); // a quote docker reads otherwise: not known
      continue;
    }
    const host = mount
      // (A volume's `device` option binds that path, whatever the volume is named.)
      ? mount.get("volume-opt=device") ?? mount.get("source") ?? null
      : value.split(":")[0];
    // (A named volume is no path of this machine. What the container may write is all below a
    // mount not read-only, `-v $PWD/.pi:/p`, but for the project itself, `-v $PWD:/app` to run
    // its tests, judged as the command would be here.)
    const readOnly = mount
      ? /^(|true|1)$/.test(mount.get("readonly") ?? "x")
      : /(?:^|,)(?:readonly|ro)(?:,|$)/.test(value.split(":").slice(2).join(","));
    if (host === null || !/^(\/|\.|~)/.test(host)) continue;
    const here = host === "." || host === "./" ||
      (cwds ?? []).some((c) => c === host.replace(/(.)\/+$/, "$1"));
    out.push({ path: host, source: word.text, ...(readOnly || here ? {} : { below: true }) });
    const inside = mount ? mount.get("target") : value.split(":")[1];
    if (!readOnly && inside?.startsWith("/")) mounted.push([host, inside.replace(/(.)\/+$/, "$1")]);
  }
  // A working directory below a mount (`-v $PWD:/w -w /w/.pi`): what the command writes by
  // relative names lands below the host directory it maps to.
  for (const [host, inside] of workdir?.startsWith("/") ? mounted : []) {
    if (workdir === inside || !workdir!.startsWith(inside === "/" ? "/" : inside + "/")) continue;
    const below = workdir!.slice(inside === "/" ? 1 : inside.length + 1);
    out.push({
      path: `${host.replace(/\/+$/, "")}/${below}`,
      source: `-w ${workdir}`,
      below: true,
    });
  }
  return out;
}

/** `docker compose run`'s position and grammar (its `-v` mounts as `docker run`'s), if it is one. */
function composeRunForm(args: Word[]): { at: number; grammar: OptionGrammar } | null {
  const at = subcommandAt(args, 0, DOCKER_GLOBAL);
  if (at === null || args[at].value !== "compose") return null;
  const sub = subcommandAt(args, at + 1, COMPOSE_GLOBAL);
  return sub !== null && args[sub].value === "run" ? { at: sub, grammar: COMPOSE_RUN } : null;
}

/**
 * `docker compose …`: what its compose files name (compose_files.ts); `docker buildx bake`: the
 * builds its bake files define (bake.ts).
 */
function dockerComposeFiles(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const at = subcommandAt(args, 0, DOCKER_GLOBAL);
  if (at === null) return;
  if (args[at].value === "compose") return composeFileRuns(stage, run, args, at + 1);
  const bake = stage.argv[0].value.endsWith("docker") ? bakeAt(args, at) : null;
  if (bake !== null) bakeRuns(stage, run, args, bake);
}

/**
 * What `docker compose …` (compose_files.ts `composeReadWords`) and `docker build …`
 * (image_builds.ts `buildReadWords`) read only: none elsewhere.
 */
function dockerReadWords(argv: Word[]): number[] {
  const at = subcommandAt(argv.slice(1), 0, DOCKER_GLOBAL);
  if (at === null) return [];
  if (argv[at + 1].value === "compose") return composeReadWords(argv, at + 2);
  const build = buildFrom(argv, at + 1);
  return build === null ? [] : buildReadWords(argv, build, at + 1);
}

/** The files `docker build` reads inside its options' values (image_builds.ts). */
function dockerBuildFiles(argv: Word[]): NamedFile[] {
  const at = subcommandAt(argv.slice(1), 0, DOCKER_GLOBAL);
  const build = at === null ? null : buildFrom(argv, at + 1);
  return build === null ? [] : buildFiles(argv, build);
}

/** What `docker compose …` (or `docker-compose …`) runs from the words at `from`. */
function composeCommand(args: Word[], from: number): Word[] {
  const at = subcommandAt(args, from, COMPOSE_GLOBAL);
  if (at === null) return linesFrom(args, from, "argv");
  const sub = args[at].value;
  if (sub === "run") return commandAfterOperand(args, at + 1, COMPOSE_RUN);
  if (sub === "exec") return commandAfterOperand(args, at + 1, COMPOSE_EXEC);
  return [];
}

/**
 * What `kubectl exec|run|debug … -- CMD` (or `oc`) runs in a pod: the words after `--`. An exec
 * without `--` (the old form, `kubectl exec pod CMD`): each word after the subcommand may begin it.
 */
function kubectlCommand(argv: Word[]): Word[] {
  const args = argv.slice(1);
  const sub = args.findIndex((w) =>
    w.kind === "static" && /^(exec|run|debug|attach|rsh)$/.test(w.value)
  );
  if (sub < 0) return [];
  // `oc rsh POD [CMD…]`: the command after the pod, else a shell there reading the input.
  if (args[sub].value === "rsh") {
    const words = args.slice(sub + 1).filter((w) => !(w.kind === "static" && w.value === "--"));
    const pod = words.findIndex((w) => !w.value.startsWith("-"));
    const rest = pod < 0 ? [] : words.slice(pod + 1);
    return rest.length ? [commandLine(rest, "argv")] : [literal("sh")];
  }
  const end = args.findIndex((w, i) => i > sub && w.kind === "static" && w.value === "--");
  if (end >= 0 && end + 1 < args.length) return [commandLine(args.slice(end + 1), "argv")];
  if (args[sub].value === "exec") return linesFrom(args, sub + 1, "argv");
  // (`attach -i`: the pod's process reads what kubectl feeds it.)
  return args[sub].value === "attach" &&
      args.some((w) => /^(-[a-zA-Z]*i[a-zA-Z]*|--stdin(=true)?)$/.test(w.value))
    ? [literal("sh")]
    : [];
}

/**
 * The subcommands that run a command given to them: "docker run *" would allow anything in a
 * container, "docker ps *" only listings. (An option before the subcommand is no subcommand:
 * only that very command is ever saved.)
 */
const RUNNING = /^(run|exec|create|container|compose|debug|attach|rsh|machine|unshare)$/;

/**
 * What `lxc exec INSTANCE [-- ] CMD` (or incus) runs: the words after `--`, else after the
 * instance (its options before `--` may take values: each later word may begin the command).
 */
function lxcCommand(argv: Word[]): Word[] {
  const args = argv.slice(1);
  // (`lxc shell C`: a login shell there, reading the standard input.)
  if (args.some((w) => w.kind === "static" && w.value === "shell")) return [literal("sh")];
  const sub = args.findIndex((w) => w.kind === "static" && w.value === "exec");
  if (sub < 0) return [];
  const end = args.findIndex((w, i) => i > sub && w.kind === "static" && w.value === "--");
  if (end >= 0) return end + 1 < args.length ? [commandLine(args.slice(end + 1), "argv")] : [];
  return linesFrom(args, sub + 2, "argv");
}

/**
 * `podman unshare CMD`, `buildah unshare CMD`: CMD runs on this machine, in a user namespace, in
 * the same directory and files (no container): a stage of its own; without one, a shell.
 */
export function unshareRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const at = subcommandAt(args, 0, DOCKER_GLOBAL);
  if (at === null || args[at].value !== "unshare") return;
  let i = at + 1;
  // (Its own options: `--rootless-netns`, `-h`.)
  while (args[i]?.kind === "static" && args[i].value.startsWith("-")) i++;
  if (i < args.length) run.stage(args.slice(i), `${programName(stage.argv[0])} unshare`);
  else startsShell(run, `${programName(stage.argv[0])} unshare`, stage.cwds);
}

/**
 * `kubectl config set-credentials NAME --exec-command=CMD --exec-arg=A …`: saves a command every
 * later kubectl of that user runs (here, before it connects): judged as that command now.
 */
function savedCredentialCommand(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const at = args.findIndex((w) => w.value === "set-credentials");
  if (at < 1 || args[at - 1].value !== "config") return;
  let command: Word | null = null;
  const argv: Word[] = [];
  for (let i = at + 1; i < args.length; i++) {
    const w = args[i];
    const m = /^--exec-(command|arg)(=|$)/.exec(w.value);
    if (!m) continue;
    const value = m[2] === "=" ? { ...w, value: w.value.slice(m[0].length) } : args[++i];
    if (!value) continue;
    if (m[1] === "command") command = value;
    else argv.push(value);
  }
  if (command) run.stage([command, ...argv], "kubectl credential");
}

/** kubectl's (and oc's) options before its subcommand that take a value. */
const KUBECTL_GLOBAL: OptionGrammar = {
  valued: "nsv",
  longFlags: new Set(["--insecure-skip-tls-verify", "--match-server-version", "--help"]),
  longValued: new Set([
    "--namespace",
    "--context",
    "--cluster",
    "--user",
    "--kubeconfig",
    "--server",
    "--token",
    "--as",
    "--as-group",
    "--request-timeout",
  ]),
};

/**
 * Where a client's `cp` is (`docker cp`, `docker container cp`, `docker compose cp`,
 * `docker-compose cp`, `kubectl cp`): its argv position and how it reads its operands.
 */
function copyAt(argv: Word[]): { at: number; form: CopyForm } | null {
  const args = argv.slice(1);
  const name = programName(argv[0]);
  const kubectl = name === "kubectl" || name === "oc";
  const compose = name.endsWith("-compose");
  let at = subcommandAt(
    args,
    0,
    kubectl ? KUBECTL_GLOBAL : compose ? COMPOSE_GLOBAL : DOCKER_GLOBAL,
  );
  if (at !== null && !kubectl && !compose && args[at].value === "container") at++;
  else if (at !== null && !kubectl && !compose && args[at].value === "compose") {
    at = subcommandAt(args, at + 1, COMPOSE_GLOBAL);
  }
  if (at === null || args[at]?.kind !== "static" || args[at].value !== "cp") return null;
  return { at: at + 1, form: kubectl ? "kubectl" : "docker" };
}

/** The argv positions of a `cp`'s operands in a container (`app:/app/logs`): no paths here. */
function copyText(argv: Word[]): number[] {
  const cp = copyAt(argv);
  return cp === null ? [] : containerOperands(argv, cp.at, cp.form).map((o) => o.at);
}

/** The files in a container a `cp` names (judged for what is protected alone). */
function copyFiles(argv: Word[]): NamedFile[] {
  const cp = copyAt(argv);
  return cp === null ? [] : containerFiles(argv, cp.at, cp.form);
}

/** docker, podman, nerdctl, docker-compose, podman-compose, kubectl, oc, lxc and incus. */
export const CONTAINER_PROGRAMS: Program[] = [
  {
    names: ["docker", "podman", "nerdctl"],
    runs: unshareRuns,
    // (The files `docker compose` reads its project from: compose_files.ts; `docker NAME`, a
    // plugin: plugins.ts.)
    optionCommands: (stage, run) => {
      dockerComposeFiles(stage, run);
      if (programName(stage.argv[0]) === "docker") pluginRuns(stage, run, DOCKER_GLOBAL);
    },
    runsElsewhere: dockerCommand,
    text: (argv) => [...dockerText(argv), ...copyText(argv)],
    // (And what `cp` copies in: destinations.ts; what `build -o` writes: image_builds.ts.)
    namedFiles: (argv, stage) => [
      ...dockerFiles(argv, stage?.cwds),
      ...copyFiles(argv),
      ...containerCopyDestination(argv),
      ...dockerBuildFiles(argv),
      ...composeBridgeOutput(argv),
    ],
    readWords: dockerReadWords,
    tooBroad: (sub) => RUNNING.test(sub),
  },
  {
    names: ["docker-compose", "podman-compose"],
    optionCommands: (stage, run) => composeFileRuns(stage, run, stage.argv.slice(1), 0),
    runsElsewhere: (argv) => composeCommand(argv.slice(1), 0),
    text: copyText,
    namedFiles: (argv) => [
      ...copyFiles(argv),
      ...containerCopyDestination(argv),
      ...composeBridgeOutput(argv),
    ],
    readWords: (argv) => composeReadWords(argv, 1),
    tooBroad: (sub) => RUNNING.test(sub),
  },
  {
    names: ["kubectl", "oc"],
    runs: savedCredentialCommand,
    // (`--kubeconfig F`: what F runs, settings_files.ts; `kubectl NAME`, a plugin: plugins.ts.)
    optionCommands: (stage, run) => {
      kubeconfigOption(stage, run);
      if (programName(stage.argv[0]) === "kubectl") pluginRuns(stage, run, KUBECTL_GLOBAL);
    },
    runsElsewhere: kubectlCommand,
    text: (argv) => [...kubectlNames(argv), ...copyText(argv)],
    tooBroad: (sub) => RUNNING.test(sub),
    // `proxy --www=DIR` serves DIR with its links followed (tree_servers.ts).
    followsLinks: kubectlProxyServes,
    treesNamed: () => true,
    // `config view --raw` prints the keys and tokens of ~/.kube/config; `cp` copies in.
    namedFiles: (argv) =>
      argv.some((w) => w.kind === "static" && w.value === "view") &&
        argv.some((w) => w.kind === "static" && w.value === "--raw")
        ? [{ path: "~/.kube/config", source: "kubectl config view --raw" }]
        : [...copyFiles(argv), ...containerCopyDestination(argv)],
  },
  { names: ["lxc", "incus"], runsElsewhere: lxcCommand, tooBroad: (sub) => RUNNING.test(sub) },
];

/** The spellings of one `--mount` key, by the name it is read as. */
const MOUNT_KEYS: Record<string, string> = {
  src: "source",
  dst: "target",
  destination: "target",
  ro: "readonly",
};

/**
 * The fields of a `--mount` value as docker reads it: comma-separated CSV (a field in double
 * quotes may hold commas, `""` is a quote), each `key=value` by its key in lower case, a bare
 * field (`ro`) with the value ""; a `volume-opt=KEY=VALUE` by `volume-opt=KEY`. Null for a quote
 * docker would read otherwise (one not closed, or inside a field).
 */
export function mountFields(value: string): Map<string, string> | null {
  // (docker reads the first line of the value only.)
  value = value.split("\n")[0];
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  let started = true;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (value[i + 1] === '"') field += value[++i];
      else quoted = false;
    } else if (c === '"') {
      if (!started) return null;
      quoted = true;
    } else if (c === ",") {
      fields.push(field);
      field = "";
      started = true;
      continue;
    } else field += c;
    started = false;
  }
  if (quoted) return null;
  fields.push(field);
  const out = new Map<string, string>();
  for (const f of fields) {
    const eq = f.indexOf("=");
    const named = (eq < 0 ? f : f.slice(0, eq)).trim().toLowerCase();
    // (docker applies the fields in order: of two spellings of one key, the last wins.)
    const key = MOUNT_KEYS[named] ?? named;
    const v = eq < 0 ? "" : f.slice(eq + 1);
    if (key === "volume-opt") {
      const inner = v.indexOf("=");
      out.set(
        `volume-opt=${(inner < 0 ? v : v.slice(0, inner)).toLowerCase()}`,
        v.slice(inner + 1),
      );
      continue;
    }
    out.set(key, v);
  }
  return out;
}
