import assert from "node:assert/strict";
import { analyze } from "../shell/analyze_testing.ts";
import type { Stage } from "../shell/model.ts";
import { checkActions, ctxIn, secretsDenied } from "../testing.ts";
import { innerStages } from "./expand.ts";
import { inputMayBeTerminal, searchesInput } from "./search_input.ts";

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
    ["cat notes.txt | xargs -I{} rg KEY", "ask"],
    // (An empty line is no item: with -I xargs runs nothing.)
    ["echo | xargs -I{} rg KEY", "allow"],
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

Deno.test("a runner's terminal reaches what its shells, groups and wrappers run in turn", async () => {
  await checkActions(config, ctx, [
    ["script -qc 'bash -c \"ugrep KEY\"' /dev/null", "ask"],
    ["script -qc 'sh -c \"ug -n KEY\"' /dev/null", "ask"],
    ["script -qc \"bash -c 'sh -c ugrep\\ KEY'\" /dev/null", "ask"],
    ["script -qc '{ ugrep KEY; }' /dev/null", "ask"],
    ["script -qc '(ugrep KEY)' /dev/null", "ask"],
    ["script -qc 'f() { ugrep KEY; }; f' /dev/null", "ask"],
    ["script -qc 'x=$(ugrep KEY)' /dev/null", "ask"],
    ["script -qc 'timeout 5 ugrep KEY' /dev/null", "ask"],
    ["script -qc 'ugrep KEY < /dev/stdin' /dev/null", "ask"],
    ["unbuffer sh -c 'ugrep KEY'", "ask"],
    ["unbuffer bash -c 'nice ugrep KEY'", "ask"],
    ["tmux new-window 'bash -c \"ugrep KEY\"'", "ask"],
    // rg and ag on a pty search the cwd, whatever pipe feeds that pty.
    ["cat README.md | script -qc 'bash -c \"rg KEY\"' /dev/null", "ask"],
    ["cat README.md | script -qc 'sh -c \"ag KEY\"' /dev/null", "ask"],
    ["cat README.md | unbuffer sh -c 'rg KEY'", "ask"],
    ["cat README.md | unbuffer -p bash -c 'ag KEY'", "ask"],
    // su and runuser with a pty of their own (-P, --pty); without, the input they were given.
    ["su --pty -c 'ugrep KEY'", "ask"],
    ["su -P -c 'ugrep KEY'", "ask"],
    ["su --pt -c 'ugrep KEY' user", "ask"],
    ["runuser --pty -u user -- ugrep KEY", "ask"],
    ["runuser -P -u user -- sh -c 'ugrep KEY'", "ask"],
    // Everyday: a pipe, a document, a file or a path of their own inside the terminal; no pty.
    ["script -qc 'bash -c \"cat README.md | ugrep KEY\"' /dev/null", "allow"],
    ["script -qc 'sh -c \"ugrep KEY < README.md\"' /dev/null", "allow"],
    ["script -qc 'bash -c \"ugrep KEY <<< text\"' /dev/null", "allow"],
    ["script -qc 'bash -c \"rg KEY src/main.ts\"' /dev/null", "allow"],
    ["script -qc 'cat README.md | rg KEY' /dev/null", "allow"],
    ["su -c 'ugrep KEY'", "allow"],
    ["runuser -u user -- ugrep KEY", "allow"],
    ["cat README.md | bash -c 'sh -c \"rg KEY\"'", "allow"],
    ["rg KEY src", "allow"],
    ["cat README.md | rg KEY", "allow"],
  ]);
});

/** The stages a command runs (as the engine expands them) whose program is `name`. */
function ran(command: string, name: string): Stage[] {
  const top = analyze(command).stages;
  const inner = top.flatMap((s) =>
    innerStages(s, {
      analyze: (text, _cwd, origin) => {
        const r = analyze(text);
        return r.error ? null : r.stages.map((s) => ({ ...s, origin }));
      },
      depth: 0,
    })
  );
  return [...top, ...inner].filter((s) => s.argv[0].value === name);
}

Deno.test("xargs -o gives what it runs the terminal, not its input", () => {
  const terminal = (command: string) => ran(command, "ugrep").map(inputMayBeTerminal);
  const reads = (command: string) => ran(command, "rg").map(searchesInput);
  // xargs reopens /dev/tty for -o (--open-tty, a prefix: getopt_long); the pipe it reads its
  // words from is not what the command reads.
  assert.deepEqual(terminal("xargs -o ugrep KEY"), [true]);
  assert.deepEqual(terminal("find src | xargs --open-tty ugrep KEY"), [true]);
  assert.deepEqual(terminal("find src | xargs --open ugrep KEY"), [true]);
  assert.deepEqual(terminal("xargs -0o -a list ugrep KEY"), [true]);
  assert.deepEqual(terminal("xargs -o --process-slot-var=S ugrep KEY"), [true]);
  assert.deepEqual(terminal("script -qc 'xargs -o ugrep KEY' /dev/null"), [true]);
  assert.deepEqual(reads("cat README.md | xargs -o rg KEY"), [false]);
  // Without: /dev/null (also inside a pty), or the input `-a` leaves them.
  assert.deepEqual(terminal("xargs ugrep KEY"), [false]);
  assert.deepEqual(terminal("script -qc 'xargs ugrep KEY' /dev/null"), [false]);
  assert.deepEqual(reads("cat README.md | xargs -a list rg KEY"), [true]);
});

Deno.test("parallel --tty and -o give what they run the terminal, unless --pipe feeds it", async () => {
  await checkActions(config, ctx, [
    ["parallel --tty 'ugrep KEY;' ::: a", "ask"],
    ["parallel -o 'ugrep KEY; true' ::: a", "ask"],
    ["parallel --open-tty 'ug KEY;' ::: a", "ask"],
    ["parallel --tt 'ugrep KEY;' ::: a", "ask"],
    ["parallel -a list --tty 'ugrep KEY;'", "ask"],
    ["parallel 'ugrep KEY;' ::: a", "allow"],
    ["parallel --tty ugrep KEY ::: src/main.ts", "allow"],
    ["cat README.md | parallel -o --pipe ugrep KEY", "allow"],
  ]);
});
