/**
 * Programs that run a program of their own name for a subcommand they do not know (their
 * plugins): `cargo NAME` runs `cargo-NAME` from `PATH` (`~/.cargo/bin`), `kubectl NAME` runs
 * `kubectl-NAME`, `docker NAME` its CLI plugin `docker-NAME` (`~/.docker/cli-plugins`), `helm
 * NAME` a plugin of `$HELM_PLUGINS`, `gh NAME` an alias of its config (`!` ones are shell text) or
 * the extension `gh-NAME` (`~/.local/share/gh/extensions`), `az NAME` an extension's commands.
 * What such a plugin is, and does with the words after its name, is not known: it is judged as a
 * program not known given those words (`cargo watch -- rm -rf x` as `cargo-watch -- rm -rf x`,
 * where `rm -rf x` may run). A command of the program's own (or one it ships as a plugin: `cargo
 * clippy`, `docker compose`) is read by its module; a misspelt one is an error, no plugin.
 *
 * @example
 * ```ts
 * import { pluginName } from "./plugins.ts";
 * pluginName("cargo", "watch"); // "cargo-watch"
 * pluginName("cargo", "build"); // null (cargo's own)
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { Runner } from "./spec.ts";
import { literal, programName, unknownWord } from "./words.ts";

const set = (...names: string[]): ReadonlySet<string> => new Set(names);

/** A program with plugins: its own commands, and the options before its subcommand. */
interface Host {
  commands: ReadonlySet<string>;
  global: OptionGrammar;
}

// deno-fmt-ignore
const HOSTS: Record<string, Host> = {
  // (`cargo --list`; clippy, fmt and miri come with rustup's toolchains.)
  cargo: {
    commands: set("add", "b", "bench", "build", "c", "check", "clean", "clippy", "config", "d",
      "doc", "fetch", "fix", "fmt", "generate-lockfile", "git-checkout", "help", "info", "init",
      "install", "locate-project", "login", "logout", "metadata", "miri", "new", "owner",
      "package", "pkgid", "publish", "r", "read-manifest", "remove", "report", "rm", "run", "rustc",
      "rustdoc", "search", "t", "test", "tree", "uninstall", "update", "vendor", "verify-project",
      "version", "yank"),
    global: {
      flags: "Vvqh",
      valued: "ZC",
      longFlags: set("--version", "--verbose", "--quiet", "--locked", "--offline", "--frozen",
        "--help", "--list"),
      longValued: set("--color", "--config", "--explain"),
    },
  },
  // (`kubectl help`.)
  kubectl: {
    commands: set("alpha", "annotate", "api-resources", "api-versions", "apply", "attach", "auth",
      "autoscale", "certificate", "cluster-info", "completion", "config", "convert", "cordon", "cp",
      "create", "debug", "delete", "describe", "diff", "drain", "edit", "events", "exec",
      "explain", "expose", "get", "help", "kustomize", "label", "logs", "options", "patch",
      "plugin", "port-forward", "proxy", "replace", "rollout", "run", "scale", "set", "taint", "top",
      "uncordon", "version", "wait"),
    global: {},
  },
  // (`docker --help`, and the plugins Docker ships: buildx, compose, scout, …)
  docker: {
    commands: set("attach", "build", "builder", "checkpoint", "commit", "config", "container",
      "context", "cp", "create", "diff", "events", "exec", "export", "history", "image", "images",
      "import", "info", "inspect", "kill", "load", "login", "logout", "logs", "manifest", "network",
      "node", "pause", "plugin", "port", "ps", "pull", "push", "rename", "restart", "rm", "rmi",
      "run", "save", "search", "secret", "service", "stack", "start", "stats", "stop", "swarm",
      "system", "tag", "top", "trust", "unpause", "update", "version", "volume", "wait", "help",
      "completion", "buildx", "bake", "compose", "scout", "sbom", "scan", "init", "debug", "ai",
      "model", "mcp", "offload", "desktop", "extension", "feedback", "dev", "cloud"),
    global: {},
  },
  // (`helm help`, with the aliases of its commands.)
  helm: {
    commands: set("completion", "create", "dependency", "dep", "dependencies", "env", "get", "help",
      "history", "hist", "install", "lint", "list", "ls", "package", "plugin", "pull", "fetch",
      "push", "registry", "repo", "rollback", "search", "show", "inspect", "status", "template",
      "test", "uninstall", "un", "delete", "del", "upgrade", "verify", "version"),
    global: {
      valued: "n",
      longFlags: set("--debug", "--kube-insecure-skip-tls-verify", "--help"),
      longValued: set("--burst-limit", "--kube-apiserver", "--kube-as-group", "--kube-as-user",
        "--kube-ca-file", "--kube-context", "--kube-tls-server-name", "--kube-token",
        "--kubeconfig", "--namespace", "--qps", "--registry-config", "--repository-cache",
        "--repository-config", "--content-cache"),
    },
  },
  // (gh's root commands, their aliases and help topics, and its `co` alias.)
  gh: {
    commands: set("accessibility", "a11y", "actions", "agent-task", "agent-tasks", "agent",
      "alias", "api", "attestation", "at", "auth", "browse", "cache", "codespace", "cs",
      "completion", "config", "copilot", "credits", "extension", "extensions", "ext", "gist",
      "gpg-key", "help", "issue", "label", "licenses", "org", "pr", "preview", "project",
      "release", "repo", "ruleset", "rs", "run", "search", "secret", "send-telemetry", "skills",
      "ssh-key", "status", "variable", "version", "workflow", "co", "environment", "formatting",
      "mintty", "reference", "exit-codes"),
    global: { longFlags: set("--version", "--help") },
  },
  // (`az --help`'s groups; `az ssh`, an extension, is read by remote_shells.ts.)
  az: {
    commands: set("account", "acr", "ad", "advisor", "afd", "aks", "ams", "apim", "appconfig",
      "appservice", "aro", "backup", "batch", "bicep", "billing", "billing-benefits", "bot",
      "cache", "capacity", "cdn", "cloud", "cognitiveservices", "config", "configure",
      "connection", "consumption", "container", "containerapp", "cosmosdb", "data-boundary",
      "databoxedge", "deployment", "deployment-scripts", "disk", "disk-access",
      "disk-encryption-set", "dls", "dms", "eventgrid", "eventhubs", "extension", "feature",
      "feedback", "find", "functionapp", "group", "hdinsight", "help", "identity", "image",
      "init", "interactive", "iot", "keyvault", "lab", "lock", "logicapp", "login", "logout",
      "managed-cassandra", "managedapp", "managedservices", "maps", "mariadb", "monitor", "mysql",
      "netappfiles", "network", "next", "policy", "postgres", "ppg", "private-link", "provider",
      "redis", "relay", "resource", "resourcemanagement", "rest", "restore-point", "role",
      "search", "security", "self-test", "servicebus", "sf", "sig", "signalr", "snapshot", "sql",
      "ssh", "sshkey", "stack", "staticwebapp", "storage", "survey", "synapse", "tag", "term",
      "ts", "upgrade", "version", "vm", "vmss", "webapp"),
    global: {
      valued: "o",
      longFlags: set("--debug", "--verbose", "--only-show-errors", "--help"),
      longValued: set("--output", "--query", "--subscription"),
    },
  },
};

/** The plugin `host NAME` runs (`cargo-NAME`), or null where NAME is a command of its own. */
export function pluginName(host: string, name: string): string | null {
  const h = HOSTS[host];
  return h === undefined || h.commands.has(name) ? null : `${host}-${name}`;
}

/**
 * What `host [options] NAME args…` runs where NAME is no command of its own (see the module):
 * the plugin, given the words after NAME, a stage of a program not known. `global`: the host's
 * options before NAME, where its module has them. After an option the grammar does not know, the
 * next word may be its value: a command of its own there leaves the word after it to be read too.
 */
export function pluginRuns(stage: Stage, run: Runner, global?: OptionGrammar): void {
  const host = programName(stage.argv[0]);
  const h = Object.hasOwn(HOSTS, host) ? HOSTS[host] : undefined;
  if (h === undefined) return;
  const args = stage.argv.slice(1);
  const origin = `${host} plugin`;
  let unsure = false;
  for (const t of readOptions(args.map(staticText), global ?? h.global)) {
    const w = args[t.at];
    if (t.kind === "end") return;
    if (t.kind === "dynamic") {
      if (!w.prefix.startsWith("-")) {
        run.stage(
          [unknownWord(`(the command ${host} ${w.text} runs)`), ...args.slice(t.at + 1)],
          origin,
        );
        return;
      }
      unsure = true;
    } else if (t.kind === "unknown") unsure ||= t.glued === undefined && t.rest === undefined;
    else if (t.kind === "operand") {
      // (cargo's `+TOOLCHAIN` first; a script by its path, `cargo -Zscript x.rs`, runs as one.)
      if (host === "cargo" && t.at === 0 && w.value.startsWith("+")) continue;
      if (host === "cargo" && /\/|\.rs$/.test(w.value)) {
        run.stage([w, ...args.slice(t.at + 1)], "cargo script");
        return;
      }
      const plugin = pluginName(host, w.value);
      if (plugin !== null) run.stage([literal(plugin), ...args.slice(t.at + 1)], origin);
      if (plugin !== null || !unsure) return;
      unsure = false;
    }
  }
}

/** A word's value where it is known. */
function staticText(w: Word): string | null {
  return w.kind === "static" ? w.value : null;
}
