import { checkActions, configFrom, ctxIn } from "../testing.ts";

const P = "/home/user/project";
const config = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { "secrets/**": "deny", ".env": "ask", "~/.ssh/**": "deny" },
}, { home: "/home/user" });
const ctx = ctxIn(P, {
  files: [`${P}/src/main.ts`, `${P}/README.md`, `${P}/.env`, `${P}/secrets/key`],
  home: "/home/user",
});

Deno.test("ack searches the cwd's tree given no path, a pipe where it is one; its pager runs", async () => {
  await checkActions(config, ctx, [
    ["ack KEY", "ask"],
    ["ack -i KEY", "ask"],
    ["ack KEY secrets", "deny"],
    ["ack KEY src", "allow"],
    ["ack -A 3 --type=ts KEY src README.md", "allow"],
    ["cat README.md | ack KEY", "allow"],
    ["ack --version", "allow"],
    ["ack --pager='cat secrets/key' KEY src", "deny"],
    ["ack --pag='cat secrets/key' KEY src", "deny"],
    // (A command not known is asked about.)
    ['ack "--pager=$X" KEY src', "ask"],
    ["ACK_PAGER='cat secrets/key' ack KEY src", "deny"],
    ["export ACK_OPTIONS=--pager=x; ack KEY src", "ask"],
    ["echo .env | ack -x KEY", "ask"],
    ["ack --files-from=list KEY", "ask"],
  ]);
  // A settings file that names a pager: a command not known.
  const rc = ctxIn(P, {
    files: [`${P}/src/main.ts`, `${P}/.ackrc`],
    home: "/home/user",
    contents: { [`${P}/.ackrc`]: "--pager=cat secrets/key\n" },
  });
  await checkActions(config, rc, [["ack KEY src", "ask"], ["ack --noenv KEY src", "allow"]]);
});

Deno.test("pt and ugrep: the cwd's tree where no path is named; ugrep's filters run", async () => {
  await checkActions(config, ctx, [
    ["pt KEY", "ask"],
    ["pt KEY src", "allow"],
    ["cat README.md | pt KEY", "allow"],
    ["pt --version", "allow"],
    ["pt KEY secrets", "deny"],
    ["ugrep -r KEY", "ask"],
    ["ugrep -R KEY", "ask"],
    ["ugrep -d recurse KEY", "ask"],
    ["ugrep --directories=recurse KEY", "ask"],
    ["ugrep -rn KEY src", "allow"],
    ["ug -rn KEY src", "allow"],
    ["ugrep KEY README.md", "allow"],
    ["ugrep -r KEY secrets", "deny"],
    ["ugrep --version", "allow"],
    // (What ugrep runs or reads its options from is a command not known: asked about.)
    ["ugrep -r --filter='pdf:cat secrets/key' KEY src", "ask"],
    ["ugrep -Q KEY src", "ask"],
    ["ugrep -rnQ KEY src", "ask"],
    ["ugrep -r --view=vim KEY src", "ask"],
    ["ugrep --save-config", "ask"],
    ["ugrep --config=x -r KEY src", "ask"],
    ["ugrep+ -r KEY src", "ask"],
  ]);
});
