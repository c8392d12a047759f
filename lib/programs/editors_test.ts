import { checkTable } from "../testing_adversarial.ts";
import { checkRealRunners } from "../testing_runners.ts";

Deno.test("editors: vim, ex, nvim, view run the shell commands of their Ex commands", async () => {
  await checkTable([
    // `-V[N]FILE` appends its messages to FILE.
    ["vim -Es -V9.env +q", "deny", "deny"],
    ["vim -es -V1keys/id_rsa +q README.md", "deny", "deny"],
    ["vim -c '!rm x'", "deny", "deny"],
    ["vim +'!rm x' f", "deny", "deny"],
    ["vim -c ':!rm x' f", "deny", "deny"],
    ["vim --cmd 'silent !curl x' f", "deny", "deny"],
    ["vim -c 'r !rm x' f", "deny", "deny"],
    ["vim -c 'r!rm x' f", "deny", "deny"],
    ["vim -c 'w !rm x' f", "deny", "deny"],
    ["vim -c '%!rm x' f", "deny", "deny"],
    ["vim -c 'term rm x'", "deny", "deny"],
    ["vim -c 'set ft=sh|!rm x' f", "deny", "deny"],
    ["vim -c 'g/x/!rm x' f", "deny", "deny"],
    ["vim -c 'call system(\"rm x\")' f", "deny", "deny"], // vimscript: not read
    ["vim -c 'exe \"!rm x\"' f", "deny", "deny"],
    ["vim -c 's/a/\\=system(\"rm x\")/' f", "deny", "deny"],
    ["vim -c 'set shell=/tmp/evil' f", "deny", "deny"],
    ["vim -S evil.vim f", "deny", "deny"],
    ["vim -u evil.vimrc f", "deny", "deny"],
    ["vim -s keys.txt f", "deny", "deny"],
    ["vim -Nu NONE -c 'r !rm x' f", "deny", "deny"],
    ["ex -sc '!rm x' f", "deny", "deny"],
    ["ex f <<'EOF'\n%s/a/b/g\n!rm x\nwq\nEOF", "deny", "deny"],
    ["echo '!rm x' | ex f", "deny", "deny"],
    ["nvim --headless -c '!rm x' -c q", "deny", "deny"],
    ["nvim -l evil.lua", "deny", "deny"],
    ["view -c '!curl x' f", "deny", "deny"],
    ['vim -c "$CMD" f', "deny", "deny"],
    ["vim -c $'normal :!rm x\\r' f", "deny", "deny"], // keys that end with Enter
    ['vim -c "normal \'0" f', "deny", "allow"],
    ["vim -c 'normal gg=G' -c wq f", "deny", "allow"],
    // Everyday editing runs nothing.
    ["vim f.txt", "deny", "allow"],
    ["vi +42 f.txt", "deny", "allow"],
    ["vim -R notes.txt", "deny", "allow"],
    ["vim -c 'set ft=sh' f", "deny", "allow"],
    ["vim -c '%s/a/b/g' -c 'wq' f", "deny", "allow"],
    ["ex -sc '%s/a/b/g|x' f", "deny", "allow"],
    ["vim -es -u NONE -c '%s/a/b/g|wq' f", "deny", "allow"],
    ["ex f <<'EOF'\n%s/a/b/g\nwq\nEOF", "deny", "allow"],
    ["vimdiff a b", "deny", "allow"],
  ]);
});

Deno.test("editors: emacs --eval forms and elisp files run commands", async () => {
  await checkTable([
    ["emacs --eval '(shell-command \"rm x\")'", "deny", "deny"],
    ["emacs --batch --eval='(shell-command \"curl x\")'", "deny", "deny"],
    ['emacs --batch --eval \'(call-process "rm" nil nil nil "x")\'', "deny", "deny"],
    ["emacs -l evil.el", "deny", "deny"],
    ["emacs --batch -f evil-func", "deny", "deny"],
    ["emacsclient -e '(shell-command \"rm x\")'", "deny", "deny"],
    ["emacsclient --alternate-editor=rm f", "deny", "deny"],
    ["emacs f.txt", "deny", "allow"],
    ["emacs -nw +10 f.txt", "deny", "allow"],
  ]);
});

Deno.test("debuggers: gdb -ex and lldb -o commands, command files and the program they run", async () => {
  await checkTable([
    ["gdb -ex 'shell rm x'", "deny", "deny"],
    ["gdb -batch -ex '!rm x' ./a.out", "deny", "deny"],
    ["gdb --batch --ex='shell curl x'", "deny", "deny"],
    ["gdb -iex 'pipe bt | rm x' ./a.out", "deny", "deny"],
    ["gdb -x evil.gdb ./a.out", "deny", "deny"],
    ["gdb -batch -ex run --args rm x", "deny", "deny"],
    ["gdb -batch -ex 'run x' /bin/rm", "deny", "deny"],
    ["gdb -batch -ex 'python import os' ./a.out", "deny", "deny"],
    ["gdb -batch -ex 'print system(\"rm x\")' -p 1", "deny", "deny"],
    ["gdb -batch -ex 'thread apply all shell rm x' ./a.out", "deny", "deny"],
    ["lldb -o 'platform shell rm x'", "deny", "deny"],
    ["lldb --batch --one-line='script import os' ./a.out", "deny", "deny"],
    ["lldb -s evil.lldb ./a.out", "deny", "deny"],
    ["lldb -b -o run -- rm x", "deny", "deny"],
    ["gdb ./a.out", "deny", "allow"],
    ["gdb -batch -ex bt -ex 'info registers' ./a.out core", "deny", "allow"],
    ["gdb -q -ex 'break main' -ex 'print x' ./a.out", "deny", "allow"],
    ["lldb -b -o bt -c core ./a.out", "deny", "allow"],
  ]);
});

const a1 = (p: <T>(xs: T[]) => T) => p(["./a1", "./a1 k"]);
const q = (p: <T>(xs: T[]) => T, text: string) => p([`'${text}'`, `"${text}"`]);

Deno.test("editors: a command a generated vim, ex or gdb line runs is a stage", async () => {
  const vimCommand = (p: <T>(xs: T[]) => T) =>
    p([
      () => `-c ${q(p, `!${a1(p)}`)}`,
      () => `+${q(p, `${p(["", ":", "silent "])}!${a1(p)}`)}`,
      () => `--cmd ${q(p, `!${a1(p)}`)}`,
      () => `-c ${q(p, `r ${p(["!", " !"])}${a1(p)}`)}`,
      () => `-c ${q(p, `w !${a1(p)}`)}`,
      () => `-c ${q(p, `%!${a1(p)}`)}`,
      () => `-c ${q(p, `set ft=sh|!${a1(p)}`)}`,
      () => `-c ${q(p, `g/x/!${a1(p)}`)}`,
      () => `-c 'call system("./a1")'`,
      () => `-c 'exe "!./a1"'`,
    ])();
  await checkRealRunners(
    {
      vim: [(p) => `vim -u NONE -i NONE -N${p(["es", "e -s", "Es"])} ${vimCommand(p)} -c 'qa!' f`],
      ex: [
        (p) => `ex -u NONE -i NONE -s ${vimCommand(p)} -c 'qa!' f`,
        (p) => `ex -u NONE -i NONE -s f <<'EOF'\n${p(["", "%s/x/y/g\n"])}!${a1(p)}\nqa!\nEOF`,
      ],
      gdb: [
        (p) =>
          `gdb -nx -batch ${p(["-ex", "--ex", "-iex", "--eval-command"])} ${
            q(p, `shell ${a1(p)}`)
          }`,
        (p) => `gdb -nx -batch -ex ${q(p, `${p(["!", "pipe echo x | ", "| echo x | "])}${a1(p)}`)}`,
        (p) => `gdb -nx -batch -ex run --args ./a1 ${p(["x", ""])}`,
      ],
    },
    2,
    ["printf 'x\\n' > f"],
    80,
  );
});

Deno.test("editors: an Ex command that reads or writes a file it names is not seen", async () => {
  await checkTable([
    ["ex -sc 'wq! .env' notes.txt", "deny", "deny"],
    ["vim -c 'w! /home/user/.ssh/authorized_keys' -c q notes.txt", "deny", "deny"],
    ["ex -sc 'r ~/.ssh/id_rsa' -sc '%p' -sc 'q!' /dev/null", "deny", "deny"],
    ["vim -es -c 'saveas /tmp/x' notes.txt", "deny", "deny"],
    ["ex -s notes.txt <<< $'r keys/id_rsa\\n%p\\nq!'", "deny", "deny"],
    // The buffer's own file, edited in place, names nothing more.
    ["vim -es -c '%s/a/b/g' -c wq notes.txt", "deny", "allow"],
    ["ex -sc 'wq' notes.txt", "deny", "allow"],
  ]);
});
