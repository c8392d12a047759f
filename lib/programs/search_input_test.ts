import { checkActions, ctxIn, secretsDenied } from "../testing.ts";

const P = "/home/user/project";
const config = secretsDenied("/home/user");
const ctx = ctxIn(P, {
  files: [`${P}/src/main.ts`, `${P}/README.md`, `${P}/.env`, `${P}/secrets/key`],
  home: "/home/user",
});

Deno.test("rg and ag given no path search a pipe or a here-document, not the cwd", async () => {
  await checkActions(config, ctx, [
    ["cat README.md | rg KEY", "allow"],
    ["cat README.md | rg -i -C 3 KEY", "allow"],
    ["cat README.md | rg -uuu KEY", "allow"],
    ["cat README.md | ag KEY", "allow"],
    ["rg KEY <<< 'some text'", "allow"],
    ["ag KEY <<'EOF'\nsome text\nEOF", "allow"],
    ["cat README.md | { rg KEY; }", "allow"],
    ["cat README.md | (rg KEY)", "allow"],
    ["cat README.md | while read -r l; do rg KEY; done", "allow"],
    ["cat README.md | timeout 5 rg KEY", "allow"],
    ["cat README.md | bash -c 'rg KEY'", "allow"],
    ["cat README.md | rg KEY -", "allow"],
    // parallel --pipe (--spreadstdin, a prefix: Getopt::Long) and --pipepart feed what they run
    // blocks of their input.
    ["cat README.md | parallel --pipe rg KEY", "allow"],
    ["cat README.md | parallel -j2 --pipe -k rg KEY", "allow"],
    ["cat README.md | parallel --spreadstdin rg KEY", "allow"],
    ["cat README.md | parallel --pipepart -a README.md rg KEY", "allow"],
    // (`-f -` reads the patterns from the pipe: rg searches the cwd.)
    ["cat pats | rg -f -", "ask"],
    ["cat pats | rg --file=-", "ask"],
    ["cat pats | rg --file /dev/stdin", "ask"],
    ["cat pats | rg -e KEY -f -", "ask"],
    // Standard input a search does not read: /dev/null, a closed or duplicated descriptor, a
    // directory (a file redirect is not counted), what xargs and parallel give what they run.
    ["rg KEY", "ask"],
    ["rg -uuu KEY", "ask"],
    ["rg KEY < /dev/null", "ask"],
    ["cat README.md | rg KEY < /dev/null", "ask"],
    ["cat README.md | { rg KEY; } < /dev/null", "ask"],
    ["rg KEY < src", "ask"],
    ["cat README.md | rg KEY <&3", "ask"],
    ["find src -name zz | xargs rg KEY", "ask"],
    ["find src -name zz | xargs ag KEY", "ask"],
    ["echo | xargs -I{} rg KEY", "ask"],
    ["xargs rg KEY <<< ''", "ask"],
    ["cat README.md | parallel rg KEY", "ask"],
    ["cat README.md | parallel -j4 rg KEY", "ask"],
    ["cat README.md | parallel rg KEY ::: -i -w", "ask"],
    ["cat README.md | parallel --tty rg KEY", "ask"],
    ["cat README.md | parallel -o --pipe rg KEY", "allow"],
    ["cat README.md | xargs -o -a list rg KEY", "ask"],
    ['cat README.md | rg KEY "$X"', "ask"],
    ["echo | rg KEY .", "ask"],
    ["echo | rg KEY secrets", "deny"],
    // ag turns its stream off for these.
    ["cat README.md | ag --search-files KEY", "ask"],
    ["cat README.md | ag --vimgrep KEY", "ask"],
    ["cat README.md | ag --parallel KEY", "ask"],
  ]);
});

Deno.test("rg's help, version and type list read nothing; a glob of files is those files", async () => {
  await checkActions(config, ctx, [
    ["rg --version", "allow"],
    ["rg -V", "allow"],
    ["rg --help", "allow"],
    ["rg -h", "allow"],
    ["rg --type-list", "allow"],
    ["rg --pcre2-version", "allow"],
    ["rg --generate man", "allow"],
    ["rg KEY src/*.ts", "allow"],
    ["rg -n KEY src/*.ts README.md", "allow"],
    ["grep -rn KEY src/*", "allow"],
    // Words that are no such option: a value, an operand after `--`.
    ["rg -e --version", "ask"],
    ["rg -- --version", "ask"],
    ["rg --files | xargs cat", "ask"],
    ["rg KEY s*", "deny"],
    // (A glob that may begin with `-` may be an option: `*.ts` may match `-uuu.ts`.)
    ["rg KEY *.ts", "ask"],
    // Under nullglob a glob that matches nothing is no word: the cwd is searched.
    ["shopt -s nullglob; rg KEY zz*", "ask"],
    ["shopt -s nullglob; ag KEY zz*", "ask"],
    ["shopt -s nullglob; grep -r KEY zz*", "ask"],
    ["shopt -s nullglob; rg KEY src/*.ts zz*", "ask"],
  ]);
});

Deno.test("ugrep given no path searches the cwd's tree where its input is a terminal", async () => {
  await checkActions(config, ctx, [
    // A runner's terminal: script's, unbuffer's (whatever its own input), sudo's, a tmux window's.
    ["script -qc 'ugrep KEY' /dev/null", "ask"],
    ["script -qc 'ug KEY' /dev/null", "ask"],
    ["script -qc 'ugrep -l KEY' /dev/null", "ask"],
    ["script -q -c 'ugrep -i KEY' out.log", "ask"],
    ["unbuffer ugrep KEY", "ask"],
    ["cat README.md | unbuffer ugrep KEY", "ask"],
    ["tmux new-window 'ugrep KEY'", "ask"],
    // A terminal device by redirect, or a file or descriptor not known.
    ["ugrep KEY < /dev/tty", "ask"],
    ["ugrep KEY </dev/pts/0", "ask"],
    ["ug -n KEY < /dev/tty", "ask"],
    ['ugrep KEY < "$F"', "ask"],
    ["ugrep KEY <&3", "ask"],
    // Its own pipe, document or file inside the terminal: that is what it searches.
    ["script -qc 'cat README.md | ugrep KEY' /dev/null", "allow"],
    ["script -qc 'ugrep KEY <<< text' /dev/null", "allow"],
    ["script -qc 'ugrep KEY < README.md' /dev/null", "allow"],
    ["script -qc 'ugrep KEY src/main.ts' /dev/null", "allow"],
    // Everyday: pi gives no terminal, and a pipe or a path is searched.
    ["ugrep KEY", "allow"],
    ["ugrep KEY < /dev/stdin", "allow"],
    ["ugrep KEY < README.md", "allow"],
    ["cat README.md | ugrep KEY", "allow"],
    ["ugrep -r KEY src", "allow"],
    ["ugrep -n KEY src/main.ts", "allow"],
  ]);
});
