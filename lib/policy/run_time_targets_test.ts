/**
 * Names bash computes as the command runs (`lib/shell/run_time_parts.ts`): `$?`, `$$`, `$!`, `$#`,
 * `$-`, arithmetic and a number a command prints are names in the cwd (`cat $?` reads `0`), which
 * may be symlinks; a directory named so is not known to `cd`.
 */
import assert from "node:assert/strict";
import { bash, ctxIn } from "../testing.ts";
import { adversarialCtx, denyList, gateFiles, readOnly } from "../testing_adversarial.ts";
import type { Action } from "../types.ts";

/** A project whose names of digits (and of option letters) lead to the user's keys. */
const numbered = ctxIn("/home/user/project", {
  files: [
    "/home/user/project/README.md",
    "/home/user/project/.env",
    "/home/user/.ssh/id_rsa",
    "/home/user/.ssh/config",
  ],
  links: {
    "/home/user/project/0": "/home/user/.ssh/id_rsa",
    "/home/user/project/4": "/home/user/.ssh/id_rsa",
    "/home/user/project/keys0": "/home/user/.ssh",
    "/home/user/project/7": "/home/user/.ssh",
    "/home/user/project/hB": "/home/user/.ssh/id_rsa",
    "/home/user/project/HEAD": "/home/user/.ssh/id_rsa",
    "/home/user/project/c0ffee": "/home/user/.ssh/id_rsa",
    "/home/user/project/^abc": "/home/user/.ssh/id_rsa",
    "/home/user/project/5x": "/home/user/.ssh/id_rsa",
    "/home/user/project/No": "/home/user/.ssh/id_rsa",
  },
});

Deno.test("run-time numbers: a name of digits in the cwd is reached through its symlink", async () => {
  const rows: [string, Action, Action][] = [
    // [command, read-only, deny-list]
    ["cat $?", "deny", "deny"],
    ['cat "$?"', "deny", "deny"],
    ["cat $$", "deny", "deny"],
    ["cat $!", "deny", "deny"],
    ["cat $#", "deny", "deny"],
    ["cat ${#}", "deny", "deny"],
    ["cat ${?}", "deny", "deny"],
    ["cat $-", "deny", "deny"],
    ["cat $(nproc)", "deny", "deny"],
    ['cat "$(wc -l < README.md)"', "deny", "deny"],
    ["cat $(date +%s)", "deny", "deny"],
    ["cat $((1+3))", "deny", "deny"],
    ["cat $[1+3]", "deny", "deny"],
    ["cat ./$(nproc)", "deny", "deny"],
    ["cat keys$?/id_rsa", "deny", "deny"],
    ["cat $(nproc)/id_rsa", "deny", "deny"],
    ['cat "$((3+4))/config"', "deny", "deny"],
    ["cp README.md $?/authorized_keys", "deny", "deny"],
    ["sort -o$$ README.md", "deny", "deny"],
    ["sort -o4 README.md", "deny", "deny"],
    ["cat README.md > $?", "deny", "deny"],
    ["tee $$ < README.md", "deny", "deny"],
    // A value glued to an option of a program whose grammar is known is a name (grep's `-f`).
    ["grep -f0 README.md", "deny", "deny"],
    ["grep -c -f4 README.md", "deny", "deny"],
    ["grep -f$? README.md", "deny", "deny"],
    // A directory so named is not known: what is read after it, asked (and the link `cd` takes
    // is judged itself).
    ["cd $?; cat id_rsa", "deny", "deny"],
    ["cd $(nproc) && cat id_rsa", "deny", "deny"],
    ["pushd $((3+4)) && cat config", "deny", "deny"],
    ["cd $$/..; cat 4", "deny", "deny"],
    // What another stage makes by a name a number may be is not known; the name as written is
    // followed through a link the command makes.
    ["ln -s ~/.ssh/id_rsa 12; cat $(nproc)", "deny", "deny"],
    ["ln -s ~/.ssh/id_rsa x.$$; cat x.$$", "deny", "deny"],
    ["touch 9; cat $?", "deny", "ask"],
    ["git -C $? status", "deny", "deny"],
    // Backticks too.
    ["cat `nproc`", "deny", "deny"],
    ['cat "`id -u`"', "deny", "deny"],
    ["cat keys`nproc`/id_rsa", "deny", "deny"],
    // git's name of a commit is hex digits, or the name rev-parse was given when it names none.
    ["cat $(git merge-base HEAD main)", "deny", "deny"],
    ["cat $(git rev-parse --verify HEAD)", "deny", "deny"],
    ["cat $(git rev-parse HEAD)", "deny", "deny"],
    ["SHA=$(git rev-list -1 HEAD); cat $SHA", "deny", "deny"],
    // `^` before a commit's name (rev-parse of `^A`, a range): names with it, or not known.
    ["cat $(git rev-parse --verify HEAD)", "deny", "deny"],
    ["cat $(git rev-parse ^HEAD~1)", "ask", "ask"],
    ["cat $(git rev-parse HEAD~1..HEAD)", "ask", "ask"],
    ["cat $(git rev-parse HEAD^@)", "ask", "ask"],
    // A function named as the program: its output is anything.
    ["git() { echo x; }; cat $(git rev-parse HEAD)", "ask", "ask"],
    ["nproc() { echo rm -rf src; }; $(nproc)", "deny", "deny"],
    // A run-time name in a glob word.
    ["cat $?*", "deny", "deny"],
    ["cat ./$$[x]", "deny", "deny"],
    ['for f in $((5))*; do cat "$f"; done', "deny", "deny"],
    // An output redirect puts an error's text in the output: not a number.
    ["cat $(grep -c x nofile 2>&1)", "ask", "ask"],
    ["cat $(wc -l 2>&1 < nofile)", "ask", "ask"],
    // A part that may print a leading dot (`date +.`): dot names count.
    ['cat "$(date +.)env"', "deny", "deny"],
    ['cp README.md "$(date +.)pi/settings.json"', "deny", "allow"],
    // git rev-list writes its output to a file as log does (`HEAD` here is a link to the key).
    ["git rev-list --output=x -1 HEAD", "deny", "deny"],
    ["git rev-list -1 --outp=x HEAD", "deny", "deny"],
    // The name as written, or one no name there matches: as before. (A name in quotes is read
    // as one bash may compute too: `'$?'` may be `0`, a link here.)
    ["cat x$?y", "allow", "allow"],
    ["cat '$?'", "deny", "deny"],
  ];
  const wrong: string[] = [];
  for (const [command, ro, dl] of rows) {
    const a = (await bash(readOnly, numbered, command)).action;
    const b = (await bash(denyList, numbered, command)).action;
    if (a !== ro) wrong.push(`read-only: ${command} got ${a}, want ${ro}`);
    if (b !== dl) wrong.push(`deny-list: ${command} got ${b}, want ${dl}`);
  }
  assert.deepEqual(wrong, []);
});

Deno.test("run-time numbers: everyday commands with them stay allowed", async () => {
  const everyday = [
    "make -j$(nproc)",
    "cmake --build build -j $(nproc)",
    "echo $?",
    'echo "exit code: $?"',
    "npm run dev & PID=$!; sleep 3; kill $PID",
    "sleep $((1+2)) && npm test",
    "seq 1 $(nproc)",
    "cat README.md > /tmp/out.$$ && wc -l /tmp/out.$$",
    "sort README.md > sorted.$$; mv sorted.$$ README.md",
    "tail -n5 README.md",
    "git diff $(git merge-base HEAD origin/main)",
    "git log --oneline $(git merge-base HEAD main)..HEAD",
    'SHA=$(git rev-parse HEAD); git show --stat "$SHA"',
    "git show $(git rev-parse --short HEAD)",
    "git diff $(git rev-list -1 HEAD~3) HEAD",
    "git rev-list --count HEAD",
    "git log --oneline $(git merge-base HEAD main)..HEAD",
    "cut -d' ' -f2 README.md",
    // A date now in a format of digits (the ones with letters or another date stay unknown).
    'tar -czf "dist-$(date +%F).tar.gz" README.md',
    'mkdir -p "backups/$(date +%F)"',
    'cp README.md "README.md.bak.$(date +%Y%m%d-%H%M%S)"',
    "echo x | tee \"logs/test-$(date '+%Y-%m-%d').log\"",
  ];
  const blocked: string[] = [];
  for (const command of everyday) {
    for (const config of [denyList, gateFiles]) {
      const v = await bash(config, adversarialCtx, command);
      if (v.action !== "allow") blocked.push(`${command} -> ${v.action}: ${v.notification}`);
    }
  }
  assert.deepEqual(blocked, []);
});

Deno.test("run-time parts that may print nothing: the name without them is judged too", async () => {
  // A command's output is nothing when it fails (`date -d bad`, a redirect it cannot open, a
  // program not found) and `$!` before any job: `cp f ".pi/$(date -d x +%s)"` copies into .pi.
  const ctx = ctxIn("/home/user/project", {
    files: ["/home/user/project/README.md", "/home/user/project/.pi/settings.json"],
  });
  const wrong: string[] = [];
  for (
    const [command, want] of [
      ['cp /tmp/settings.json ".pi/$(date -d bad +%s)"', "ask"],
      ["cp /tmp/settings.json .pi/$(wc -l < missing)", "ask"],
      ["cp /tmp/settings.json .pi/`nproc`", "ask"],
      ['cp /tmp/settings.json ".pi/$!"', "ask"],
      ['cp /tmp/settings.json ".pi/$(date +%F)"', "ask"],
      // A part that is never empty: the names it may be, as before.
      ['cp /tmp/x ".pi/$$"', "allow"],
      ['cp /tmp/x "out.$(nproc)"', "allow"],
    ] as const
  ) {
    const action = (await bash(gateFiles, ctx, command)).action;
    if (action !== want) wrong.push(`${command}: got ${action}, want ${want}`);
  }
  assert.deepEqual(wrong, []);
});
