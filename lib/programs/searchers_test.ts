import { checkActions, ctxIn, secretsDenied } from "../testing.ts";

const P = "/home/user/project";
const config = secretsDenied("/home/user");
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

Deno.test("ack, pt and ugrep: the pattern and option values are text, the rest paths", async () => {
  await checkActions(config, ctx, [
    // The pattern is no path: a name of a protected file searched for in files that are not.
    ["ack .env src", "allow"],
    ["ack -i -w .env src README.md", "allow"],
    ["ack --type=ts -A 3 secrets src", "allow"],
    ["ack -A 99999999999999999999 .env src", "allow"],
    ["ack -C 1_000 .env src", "allow"],
    ["pt .env src", "allow"],
    ["pt -A 3 --depth=2 secrets src", "allow"],
    ["ugrep -rn .env src", "allow"],
    ["ugrep -A 3 -m 1 secrets src", "allow"],
    ["ugrep -e KEY -e .env src", "allow"],
    // ack's `-A`, `-B`, `-C`, `-p` take the next word only where it is an integer
    // (Getopt::Long's `:i`): another is the pattern, and the words after it paths.
    ["ack -A KEY secrets/key", "deny"],
    ["ack -B ' 3' secrets/key", "deny"],
    ["ack --context 3x /home/user/.ssh/id_rsa", "deny"],
    ["ack -p KEY .env", "ask"],
    // Where an option gives the pattern, every operand is a path.
    ["ack --match KEY .env", "ask"],
    ["ack -f .env", "ask"],
    ["pt -g KEY secrets", "deny"],
    ["ugrep -e KEY .env", "ask"],
    ["ugrep -N x .env", "ask"],
    ["ugrep --regexp=KEY secrets/key", "deny"],
    ["ugrep -f secrets/key src", "deny"],
    // An option not known, a word not known where the pattern is: every word may be a path.
    ["ack --frobnicate .env src", "ask"],
    ['ugrep "$P" .env src', "ask"],
  ]);
});
