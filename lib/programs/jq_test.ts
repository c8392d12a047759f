import { checkEveryday, checkTable } from "../testing_adversarial.ts";
import type { Action } from "../types.ts";

/** [command, under read-only, under the deny-list]: files opened from inside an expression. */
const HOSTILE: [string, Action, Action][] = [
  [`yq -n 'load_str("/home/user/.ssh/id_rsa")'`, "deny", "deny"],
  [`yq -n 'load("keys/config")'`, "deny", "deny"],
  [`yq -n '.a = load_xml("innocent.txt")'`, "deny", "deny"],
  [`yq -n 'load(env(F))'`, "ask", "ask"],
  [`jq -n 'import "secrets" as $s; $s'`, "ask", "ask"],
  [`jq -n --rawfile k ~/.ssh/id_rsa '$k'`, "deny", "deny"],
  [`jq --slurpfile k innocent.txt -n '$k'`, "deny", "deny"],
  // A name built in the expression, or with an escape, is a file not known.
  [`yq -n 'load_str(".e" + "nv")'`, "ask", "ask"],
  [`yq -n 'load_str("LmVudg==" | @base64d)'`, "ask", "ask"],
  [`yq -n 'load_str("\\x2eenv")'`, "ask", "ask"],
  // `-s EXPR` writes each document to a file the expression names.
  [`yq -s '".env"' notes.txt`, "deny", "ask"],
  [`yq --split-exp '".pi/settings.json"' notes.txt`, "deny", "ask"],
  // A sole operand naming a file is yq's input, not its expression (mikefarah's yq).
  ["yq .env", "deny", "deny"],
  ["yq innocent.txt", "deny", "deny"],
  ["yq -p props .env", "deny", "deny"],
  ["yq -oj keys/id_rsa", "deny", "deny"],
  ["yq e .env", "deny", "deny"],
  // `-f` in a cluster: the file is jq's program, read
  ["jq -nf .env", "deny", "deny"],
  ["jq -rf innocent.txt", "deny", "deny"],
  ["jq -fn innocent.txt", "deny", "deny"],
  ["yq eval innocent.txt", "deny", "deny"],
];

Deno.test("jq and yq: files their expressions open are judged", async () => {
  await checkTable(HOSTILE);
});

Deno.test("jq and yq: everyday queries stay allowed", async () => {
  await checkEveryday([
    "jq '.dependencies' package.json",
    "jq -r '.name' package.json",
    "yq '.a' README.md",
    "yq .a.b README.md",
    "yq -r .name README.md",
    "cat README.md | yq .spec",
    `yq -n '.a = "load"'`,
  ]);
});

Deno.test("yq: an expression evaluated from a string loads files not known", async () => {
  await checkTable([["X='load_str(\".env\")' yq -n 'eval(strenv(X))'", "deny", "ask"]]);
});

Deno.test("jq: --arg's name and value, and the operands after --args, are text, not files", async () => {
  await checkEveryday([
    `jq --arg v "$V" '.version=$v' package.json`,
    `jq --argjson n "$(date +%s)" '.t=$n' package.json`,
    `jq -n --args '$ARGS.positional' "$A" /etc/x`,
    `jq -n --jsonargs '$ARGS' "$A"`,
    `jq '.a' package.json --arg v "$V"`,
    `yq --arg v "$V" '.v=$v' README.md`,
    `yq --args '.x' "$A"`,
  ]);
  // deno-fmt-ignore
  await checkTable([
    // A file among them stays a file: the input, `--slurpfile`/`--rawfile`'s, `-f`'s program,
    // an operand before `--args`.
    [`jq --arg v "$V" . .env`, "deny", "deny"],
    [`jq . .env --args x`, "deny", "deny"],
    [`jq --slurpfile v .env -n '$v'`, "deny", "deny"],
    [`jq --rawfile v "$F" -n '$v'`, "ask", "ask"],
    [`jq -n --args -f .env x`, "deny", "deny"],
    [`jq --args -n -f innocent.txt`, "deny", "deny"],
    [`jq --arg v x "$F"`, "ask", "ask"],
    [`yq --arg v "$V" .v .env`, "deny", "deny"],
    [`yq --rawfile v innocent.txt -n '$v'`, "deny", "deny"],
  ]);
});
