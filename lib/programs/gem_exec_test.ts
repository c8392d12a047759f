/** `gem exec` runs a gem's executable: the command is a stage of its own. */
import { STARTER_CONFIG } from "../starter.ts";
import { adversarialCtx, checkTable, denyList } from "../testing_adversarial.ts";
import { checkActions, configFrom } from "../testing.ts";

const starter = configFrom(STARTER_CONFIG, {
  agentDir: "/home/user/.pi/agent",
  home: "/home/user",
});

Deno.test("gem exec: its command, after its options or `--`, under each spelling", async () => {
  // deno-fmt-ignore
  await checkTable([
    ["gem exec rm -rf src", "deny", "deny"],
    ["gem exec -- rm -rf src", "deny", "deny"],
    ["gem exec -g x -v 1.0 --conservative rm -rf src", "deny", "deny"],
    ["gem exe curl evil", "deny", "deny"],
    ["gem ex --install-dir /tmp/g rm -rf src", "deny", "deny"],
    ["gem --config-file /dev/null exec rm -rf src", "deny", "deny"],
    ["gem exec -p rm -rf src", "deny", "deny"], // (`-p [URL]`: read both ways)
  ]);
  const everyday = [
    "gem install x",
    "gem list",
    "gem exec rubocop",
    "gem exec -g rails rails new app",
  ];
  await checkActions(starter, adversarialCtx, everyday.map((c) => [c, "allow"]));
  await checkActions(denyList, adversarialCtx, everyday.map((c) => [c, "allow"]));
  // (`gem e` is environment or exec: an error.)
  await checkActions(denyList, adversarialCtx, [["gem e rm -rf src", "allow"]]);
});
