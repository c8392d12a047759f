/**
 * Script files a shell is given by a glob, a loop's word or find's `{}` (files read, as `bash FILE`
 * reads one), and files `source` runs in this shell (their commands judged where their text is
 * known as it will be). A table of verdicts under the read-only and deny-list configs.
 */
import { checkActions, ctxIn } from "../testing.ts";
import { denyList, readOnly } from "../testing_adversarial.ts";
import type { Action } from "../types.ts";

const P = "/home/user/project";
const ctx = ctxIn(P, {
  files: ["/home/user/.ssh/id_rsa", `${P}/src/main.ts`, `${P}/.env`],
  contents: {
    [`${P}/scripts/setup.sh`]: "export APP_ENV=dev\nmkdir -p build\n",
    [`${P}/scripts/build.sh`]: "#!/bin/sh\ntsc -p .\n",
    [`${P}/.env.example`]: "# copy to .env\nAPP_ENV=dev\nPORT=3000\n",
    [`${P}/bad/evil.sh`]: "cat ~/.ssh/id_rsa\n",
    [`${P}/bad/rm.sh`]: "rm -rf src\n",
    [`${P}/bad/self.sh`]: "source ./bad/self.sh\n",
    [`${P}/bad/func.sh`]: "deploy() { rm -rf ~; }\n",
    [`${P}/bad/alias.sh`]: "alias ls='cat ~/.ssh/id_rsa'\n",
    [`${P}/bad/broken.sh`]: "if then fi (\n",
    [`${P}/bad/big.sh`]: "echo x\n".repeat(20_000),
    [`${P}/streams/a.sh`]: "echo a\n",
  },
  links: {
    [`${P}/streams/z.sh`]: "/dev/stdin",
    [`${P}/bad/key.sh`]: "/home/user/.ssh/id_rsa",
  },
});

/** Rows of `[command, read-only, deny-list]`. */
async function check(rows: [string, Action, Action][]): Promise<void> {
  await checkActions(readOnly, ctx, rows.map(([c, ro]) => [c, ro] as const));
  await checkActions(denyList, ctx, rows.map(([c, , dl]) => [c, dl] as const));
}

Deno.test("a shell's script given by a glob, a loop's word over one or a listed file is a file read", async () => {
  await check([
    // `-n` reads the script and runs nothing; without it the script runs as `./script` does:
    // read where it lies.
    ["bash -n scripts/*.sh", "deny", "allow"],
    ['for f in scripts/*.sh; do bash -n "$f"; done', "deny", "allow"],
    ["find scripts -type f -name '*.sh' -exec bash -n {} \\;", "deny", "allow"],
    ["sh -e scripts/*.sh", "deny", "allow"],
    ["bash ./scripts/*.sh arg", "deny", "allow"],
    // After the script, words are its arguments (`-c` too).
    ["bash -n scripts/*.sh -c 'rm -rf src'", "deny", "allow"],
    // A match read is judged where it leads.
    ["bash bad/*.sh", "deny", "deny"],
    // A match that leads to a stream, now or through a link the command makes: what feeds it is
    // the script, not known.
    ["bash streams/*.sh <<<'rm -rf src'", "deny", "deny"],
    ['for f in streams/*.sh; do bash "$f"; done <<<"rm -rf src"', "deny", "deny"],
    ["ln -s /dev/stdin scripts/z.sh; bash scripts/*.sh <<<'rm -rf src'", "deny", "deny"],
    // A listed path that may be a symlink, a value not known (`$X` may be `../../dev/stdin`), a
    // glob whose match may read as an option, a word where an option may stand: not known.
    ["find streams -exec bash {} \\; <<<'rm -rf src'", "deny", "deny"],
    ["bash scripts/$X", "deny", "deny"],
    ["bash *.sh", "deny", "deny"],
    ["bash $OPTS scripts/setup.sh", "deny", "deny"],
    // After `-c`, the glob is the command's text: not known.
    ["bash -c scripts/*.sh", "deny", "deny"],
  ]);
});

Deno.test("source runs a file's commands in this shell: judged where its text is known", async () => {
  await check([
    ["source scripts/setup.sh", "deny", "allow"],
    [". ./scripts/setup.sh", "deny", "allow"],
    [". ./.env.example", "deny", "allow"],
    ["set -a; . ./.env.example", "deny", "allow"],
    // Its commands are judged as this shell's.
    ["source bad/evil.sh", "deny", "deny"],
    [". ./bad/rm.sh", "deny", "deny"],
    ["source ./bad/func.sh", "deny", "deny"],
    ["source ./bad/alias.sh; ls", "deny", "deny"],
    // The file is read where it leads.
    ["source ./bad/key.sh", "deny", "deny"],
    // What is not known stays so: text the command writes into it, a file sourcing itself, one
    // not there (yet), one that does not parse, one too large, a name bash looks up in PATH
    // first, a stream.
    ["echo 'rm -rf src' > x.sh; source ./x.sh", "deny", "deny"],
    ["cat > ./scripts/setup.sh <<'E'\nrm -rf src\nE\nsource ./scripts/setup.sh", "deny", "deny"],
    ["source ./bad/self.sh", "deny", "deny"],
    ["source ./scripts/missing.sh", "deny", "deny"],
    ["source ./bad/broken.sh", "deny", "deny"],
    ["source ./bad/big.sh", "deny", "deny"],
    ["source setup.sh", "deny", "deny"],
    ["source /dev/stdin <<<'rm -rf src'", "deny", "deny"],
    ["source streams/z.sh <<<'rm -rf src'", "deny", "deny"],
    // What it may set leaves the rest of the command unknown, as before.
    ["source ./scripts/setup.sh; cat .env", "deny", "deny"],
    ["source ./scripts/setup.sh && rm -rf x", "deny", "deny"],
  ]);
});

Deno.test("a glob a linter's stage takes is expanded: the linter writes nothing", async () => {
  const clean = ctxIn(P, {
    files: [`${P}/scripts/a.sh`, `${P}/scripts/b.sh`, `${P}/src/main.ts`, "/home/user/.ssh/id_rsa"],
  });
  const rows: [string, Action, Action][] = [
    ["ls scripts/*.sh | xargs -n1 shellcheck", "allow", "allow"],
    ["ls scripts/*.sh | xargs wc -l", "allow", "allow"],
    ["shellcheck -f diff scripts/*.sh", "allow", "allow"],
    ["shellcheck -f diff scripts/*.sh > fix.diff", "deny", "allow"],
    ["shellcheck ~/.ssh/id_rsa", "deny", "deny"],
  ];
  await checkActions(readOnly, clean, rows.map(([c, ro]) => [c, ro] as const));
  await checkActions(denyList, clean, rows.map(([c, , dl]) => [c, dl] as const));
});
