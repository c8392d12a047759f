/**
 * What substitutions whose output is known reach (lib/shell/substitution_outputs.ts): the path
 * `basename`/`dirname` make of a known word, a new name `mktemp` makes in its directory (judged
 * there, by the name its template gives), and the path the tool's `PATH` finds a program at
 * (judged in each of its directories). Everything else stays not known.
 */
import assert from "node:assert/strict";
import { checkActions, configFrom, ctxIn } from "../testing.ts";
import { mayMakeName } from "./made_names.ts";
import type { Action } from "../types.ts";

/** The project, /tmp and the system's programs allowed; elsewhere asked; secrets protected. */
const config = configFrom({
  policies: {
    open: { defaultAction: "allow", rules: [] },
    outside: { defaultAction: "ask", rules: [] },
  },
  locations: { "/p": "open", "/tmp": "open", "/usr": "open", "/bin": "open", "/": "outside" },
  pathProtection: { "~/.ssh/**": "deny", "*.pem": "deny", ".env": "ask" },
});

const files = ["/p/src/main.ts", "/p/docs/a.md", "/p/docs/b.md", "/usr/bin/node", "/bin/node"];
const ctx = ctxIn("/p", { files, env: { PATH: "/usr/local/bin:/usr/bin:/bin" } });

Deno.test("outputs: a new name mktemp makes is judged in its directory", async () => {
  const rows: [string, Action][] = [
    ['TMP=$(mktemp); git diff > "$TMP"; wc -l "$TMP"', "allow"],
    ['git diff > "$(mktemp)"', "allow"],
    ["cat $(mktemp -d)", "allow"],
    ['D=$(mktemp -d); echo x > "$D/out.txt"; cat "$D/out.txt"', "allow"],
    ['D=$(mktemp -d -p out); echo x > "$D/a"', "allow"],
    ['git diff > "$(mktemp -p ~/.ssh)"', "deny"],
    ['git diff > "$(mktemp ../home/user/.ssh/XXXXXX)"', "deny"],
    ['git diff > "$(mktemp --tmpdir=/srv)"', "ask"],
    ['git diff > "$(mktemp --suffix=.pem)"', "deny"],
    ['git diff > "$(mktemp tmp.XXXX.pem)"', "deny"],
    ['git diff > "$(mktemp XXXXXX.env)"', "allow"],
    ['git diff > "$(mktemp -p out XXXXXX)"', "allow"],
    ['D=$(mktemp -d); echo x > "$D/.env"', "ask"],
    ['D=$(mktemp -d); echo x > "$D/k.pem"', "ask"],
    // Not known (asked at least): TMPDIR set by the command, text around the name, a way out.
    ['TMPDIR=~/.ssh; git diff > "$(mktemp)"', "deny"],
    ['git diff > "$(mktemp)".pem', "ask"],
    ['echo x > "$(mktemp -d)/../../home/user/.ssh/authorized_keys"', "ask"],
    ['mktemp() { echo ~/.ssh/id_rsa; }; cat "$(mktemp)"', "ask"],
  ];
  await checkActions(config, ctx, rows);
});

Deno.test("outputs: basename and dirname of a known word, or of a loop's matches", async () => {
  const rows: [string, Action][] = [
    ['for f in docs/*.md; do pandoc "$f" -o "out/$(basename "${f%.md}").html"; done', "allow"],
    // (The list is expanded before the body's copies: its matches are known, loop_listings.ts.)
    ['for f in docs/*.md; do cp "$f" "$(dirname "$f")/$(basename "$f" .md).txt"; done', "allow"],
    ['for f in docs/*.md; do cat "$(dirname "$f")/index.md"; done', "allow"],
    ["mkdir -p $(dirname out/x/y)", "allow"],
    ['cat "$(dirname ~/.ssh/id_rsa)/id_rsa"', "deny"],
    ['cat ~/.ssh/"$(basename -s .pub /x/id_rsa.pub)"', "deny"],
    ['cp x "$(dirname "$f")/y"', "ask"],
    ['basename() { echo ~/.ssh; }; cat "$(basename x)/id_rsa"', "ask"],
  ];
  await checkActions(config, ctx, rows);
});

Deno.test("outputs: a program's path is judged in each directory of the tool's PATH", async () => {
  const rows: [string, Action][] = [
    ["ldd $(which node)", "allow"],
    ['file "$(command -v node)"', "allow"],
    ['ls -la "$(type -P node)"', "allow"],
    ["N=$(which node); readlink -f $N", "allow"],
    ['cat "$(command -v cd)"', "ask"],
    ['PATH=~/.ssh:$PATH; cat "$(which id_rsa)"', "ask"],
    ['which() { echo ~/.ssh/id_rsa; }; cat "$(which node)"', "ask"],
  ];
  await checkActions(config, ctx, rows);
  // A directory of PATH elsewhere, or one not known, is judged so.
  const home = ctxIn("/p", { files, env: { PATH: "/home/user/.ssh:/usr/bin" } });
  await checkActions(config, home, [["cat $(which id_rsa)", "deny"]]);
  const relative = ctxIn("/p", { files, env: { PATH: "bin:/usr/bin" } });
  await checkActions(config, relative, [["ldd $(which node)", "ask"]]);
  const blank = ctxIn("/p", { files, env: { PATH: "/opt/my bin:/usr/bin" } });
  await checkActions(config, blank, [["ldd $(which node)", "ask"], ['ldd "$(which node)"', "ask"]]);
  const none = ctxIn("/p", { files });
  await checkActions(config, none, [["ldd $(which node)", "ask"]]);
});

Deno.test("outputs: a name glob counts where a name mktemp makes may match it", () => {
  const rows: [string, string, boolean][] = [
    ["*.pem", "tmp.??????????", false],
    ["*.pem", "k.???.pem", true],
    [".env", "tmp.??????????", false],
    [".env", "???", false],
    [".env", "?env", false],
    ["id_rsa*", "id_rsa???", true],
    ["tmp.*", "tmp.??????????", true],
    ["*1", "tmp.??????????", true],
    ["*.", "tmp.??????????", false],
    ["tmp.?", "tmp.???", false],
    ["tmp.???", "tmp.???", true],
    ["*", "???", true],
    ["a*b*c", "a???", true],
    ["a*-*", "a???", false],
  ];
  for (const [glob, name, want] of rows) {
    assert.equal(mayMakeName(glob, name), want, glob + " " + name);
  }
});

Deno.test("outputs: a redirect after a list takes the values its statements give", async () => {
  const rows: [string, Action][] = [
    ['X=$(mktemp) && git diff > "$X"', "allow"],
    ['X=$(mktemp) && git diff | sort > "$X"', "allow"],
    ['X=$(mktemp) && ls && echo x 2> "$X"', "allow"],
    ['TMP=$(mktemp) && ls > "$TMP"; wc -l "$TMP"', "allow"],
    // The value written is the one the list assigns, not the one before it.
    ['X=/tmp/a; X=~/.ssh/id_rsa && echo x > "$X"', "deny"],
    ['cd ~/.ssh && echo x > "$PWD/authorized_keys"', "deny"],
    ['X=/tmp/a; X=~/.ssh/id_rsa | echo x > "$X"', "ask"],
  ];
  await checkActions(config, ctx, rows);
});
