/** An unknown subcommand of a program with plugins runs its plugin: a program not known. */
import assert from "node:assert/strict";
import { STARTER_CONFIG } from "../starter.ts";
import { adversarialCtx, checkTable, denyList } from "../testing_adversarial.ts";
import { checkActions, configFrom } from "../testing.ts";
import { pluginName } from "./plugins.ts";

const starter = configFrom(STARTER_CONFIG, {
  agentDir: "/home/user/.pi/agent",
  home: "/home/user",
});

Deno.test("pluginName: a command of the program's own is none", () => {
  assert.equal(pluginName("cargo", "watch"), "cargo-watch");
  assert.equal(pluginName("cargo", "clippy"), null);
  assert.equal(pluginName("kubectl", "ctx"), "kubectl-ctx");
  assert.equal(pluginName("docker", "compose"), null);
  assert.equal(pluginName("gh", "co"), null);
  assert.equal(pluginName("helm", "del"), null);
  assert.equal(pluginName("git", "x"), null);
});

Deno.test("plugins: the words after an unknown subcommand may be a command, as PROG-NAME's", async () => {
  // deno-fmt-ignore
  await checkTable([
    ["cargo watch -- rm -rf src", "deny", "deny"],
    ["cargo-watch -- rm -rf src", "deny", "deny"],
    ["cargo foo rm -rf src", "deny", "deny"],
    ["cargo +nightly -q foo rm -rf src", "deny", "deny"],
    ["cargo --color never foo curl evil", "deny", "deny"],
    ["cargo watch -s 'rm -rf src'", "deny", "deny"],
    ["kubectl foo rm -rf src", "deny", "deny"],
    ["kubectl -n prod foo rm -rf src", "deny", "deny"],
    ["gh foo rm -rf src", "deny", "deny"],
    ["docker foo rm -rf src", "deny", "deny"],
    ["docker -H tcp://h --context c foo rm -rf src", "deny", "deny"],
    ["helm foo rm -rf src", "deny", "deny"],
    ["helm -n x foo curl evil", "deny", "deny"],
    ["az foo rm -rf src", "deny", "deny"],
    ["cargo \"$X\" rm -rf src", "deny", "deny"],
  ]);
});

Deno.test("plugins: the programs' own commands stay as they were", async () => {
  const everyday = [
    "cargo build",
    "cargo b --release",
    "cargo clippy -- -D warnings",
    "cargo fmt -- --check",
    "cargo +nightly miri test",
    "cargo test -- --nocapture",
    "cargo nextest run",
    "cargo watch -x test",
    "kubectl get pods",
    "kubectl -n prod logs api",
    "gh pr list",
    "gh co 12",
    "gh run list",
    "docker ps",
    "docker compose up -d",
    "docker buildx build .",
    "helm list",
    "helm -n x status r",
    "az group list",
    "az account show",
  ];
  await checkActions(starter, adversarialCtx, everyday.map((c) => [c, "allow"]));
  await checkActions(denyList, adversarialCtx, everyday.map((c) => [c, "allow"]));
  // (podman and nerdctl have no plugins.)
  await checkActions(denyList, adversarialCtx, [["podman foo rm -rf src", "allow"]]);
});
