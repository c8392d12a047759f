import assert from "node:assert/strict";
import { checkGateTable, checkTable } from "../testing_adversarial.ts";
import { bash, configFrom, ctxIn } from "../testing.ts";
import type { Action } from "../types.ts";
import { patchedFiles, patchedLinks } from "./diffs.ts";
import { checkActions } from "../testing.ts";

Deno.test("diffs: the files a patch's text names, stripped as -p says", () => {
  const diff = [
    "diff --git a/src/x.ts b/src/y.ts",
    "rename from src/x.ts",
    "rename to src/y.ts",
    "--- a/lib/a.ts\t2024-01-01 00:00:00",
    "+++ b/lib/a.ts\t2024-01-01 00:00:00",
    "@@ -1 +1 @@",
    "--- a line removed that looks like a header",
    "--- /dev/null",
    '+++ "b/with space.txt"',
  ].join("\n");
  assert.deepEqual(
    patchedFiles(diff, 1),
    [
      "src/x.ts",
      "src/y.ts",
      "src/y.ts",
      "lib/a.ts",
      "with space.txt",
    ].filter((p, i, all) => all.indexOf(p) === i),
  );
  // Without -p: as written, with one component stripped, and the base name.
  assert.deepEqual(patchedFiles("+++ b/.pi/settings.json", null), [
    "b/.pi/settings.json",
    ".pi/settings.json",
    "settings.json",
  ]);
  assert.deepEqual(patchedFiles("+++ /home/u/.ssh/authorized_keys", 0), [
    "/home/u/.ssh/authorized_keys",
  ]);
});

Deno.test("diffs: an inline patch is judged by the files it changes", async () => {
  await checkTable([
    [
      "patch -p0 <<< $'--- /dev/null\\n+++ /home/user/.ssh/authorized_keys\\n@@ -0,0 +1 @@\\n+k'",
      "deny",
      "deny",
    ],
    ["git apply -p0 <<< $'+++ /home/user/.ssh/config\\n@@ -1 +1 @@\\n-a\\n+b'", "deny", "deny"],
    ["patch -p1 <<< $'--- a/.env\\n+++ b/.env\\n@@ -1 +1 @@\\n-a\\n+b'", "deny", "deny"],
  ]);
  // The gate's own files: asked.
  const config = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
  }, { agentDir: "/home/user/.pi/agent" });
  const ctx = ctxIn("/home/user/project", { files: ["/home/user/project/src/x.ts"] });
  const patch = (command: string, file: string) =>
    bash(config, ctx, `${command} <<'EOF'\n--- a/${file}\n+++ b/${file}\n@@ -0,0 +1 @@\n+x\nEOF`);
  assert.equal((await patch("patch -p1", ".pi/extensions/x.ts")).action, "ask");
  assert.equal((await patch("git apply", ".pi/settings.json")).action, "ask");
  assert.equal((await patch("patch", ".pi/extensions/x.ts")).action, "ask");
  assert.equal((await patch("git -C . apply --index", ".pi/npm/x.js")).action, "ask");
  // Everyday patches of the project's sources stay allowed.
  assert.equal((await patch("git apply", "src/x.ts")).action, "allow");
  assert.equal((await patch("patch -p1", "src/x.ts")).action, "allow");
});

/** A project whose diff files name its sources, the gate's files, `.env` and `~/.ssh`. */
const P = "/home/user/project";
const diffOf = (file: string) => `--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-a\n+b\n`;
const project = ctxIn(P, {
  files: [`${P}/src/main.ts`, `${P}/.env`, `${P}/.pi/settings.json`, "/home/user/.ssh/id_rsa"],
  links: { [`${P}/keys`]: "/home/user/.ssh" },
  contents: {
    [`${P}/fix.diff`]: diffOf("src/main.ts"),
    [`${P}/evil.diff`]: diffOf(".pi/settings.json"),
    [`${P}/env.diff`]: diffOf(".env"),
    [`${P}/ak.diff`]: "--- authorized_keys\n+++ authorized_keys\n@@ -0,0 +1 @@\n+k\n",
    [`${P}/abs.diff`]: "--- /dev/null\n+++ /home/user/.ssh/authorized_keys\n@@ -0,0 +1 @@\n+k\n",
    [`${P}/ctx.diff`]: "*** .pi/settings.json\n--- .pi/settings.json\n***************\n",
    [`${P}/index.diff`]: "Index: .pi/settings.json\n@@ -1 +1 @@\n-a\n+b\n",
    [`${P}/normal.diff`]: "1c1\n< a\n---\n> b\n",
  },
});

/** [command, under the deny-list, under the gate's own-file protection] */
const FROM_FILES: [string, Action, Action][] = [
  // A diff in a file is read as it will be when the command runs: the files it names are judged.
  ["patch -p1 < evil.diff", "allow", "ask"],
  ["patch -p1 -i evil.diff", "allow", "ask"],
  ["patch -p1 -ievil.diff", "allow", "ask"],
  ["patch -p1 --input=evil.diff", "allow", "ask"],
  ["patch -p1 --in evil.diff", "allow", "ask"],
  ["patch --strip 1 <evil.diff", "allow", "ask"],
  ["patch -p0 < ctx.diff", "allow", "ask"],
  ["patch -p0 < index.diff", "allow", "ask"],
  ["patch -p1 < env.diff", "deny", "allow"],
  ["patch -p0 < abs.diff", "deny", "allow"],
  ["cd keys && patch -p0 < ../ak.diff", "deny", "allow"],
  ["git apply evil.diff", "allow", "ask"],
  ["git apply --index fix.diff evil.diff", "allow", "ask"],
  ["git apply --stat --apply evil.diff", "allow", "ask"],
  ["git apply < evil.diff", "allow", "ask"],
  ["git apply -p0 abs.diff", "deny", "allow"],
  ["git apply --directory=.pi fix.diff", "allow", "ask"],
  ["git am evil.diff", "allow", "ask"],
  // Where the names are not known, anything below its directory may be written: a pipe, a diff
  // another stage writes, one that names no file, an unknown option, another directory.
  ["cat evil.diff | patch -p1", "allow", "ask"],
  ["cp evil.diff fix.diff && patch -p1 < fix.diff", "allow", "ask"],
  ["patch -p1 < fix.diff; cp evil.diff fix.diff", "allow", "ask"],
  ["patch < normal.diff", "allow", "ask"],
  ["patch -p1 --frobnicate < fix.diff", "allow", "ask"],
  ["patch -d .pi -p1 < fix.diff", "allow", "ask"],
  ["cd .pi && patch -p1 < ../missing.diff", "allow", "ask"],
  ["curl -s http://x/p.diff | git apply", "deny", "ask"],
  ["patch -p1 -B .pi/ < fix.diff", "allow", "ask"],
  // A diff the command writes with a here-document is read from it (and what is there now).
  [
    `cat > new.diff <<'EOF'\n${diffOf(".pi/settings.json")}EOF\npatch -p1 < new.diff`,
    "allow",
    "ask",
  ],
  [`cat <<'EOF' > fix.diff\n${diffOf("src/main.ts")}EOF\npatch -p1 < fix.diff`, "allow", "allow"],
  [`cat <<'EOF' > evil.diff\n${diffOf("src/main.ts")}EOF\npatch -p1 < evil.diff`, "allow", "ask"],
  [`cat > /tmp/x.diff <<'EOF'\n${diffOf(".env")}EOF\ngit apply /tmp/x.diff`, "deny", "allow"],
  [
    `cat > new.diff <<'EOF'\n${diffOf("src/main.ts")}EOF\necho >> new.diff; patch < new.diff`,
    "allow",
    "ask",
  ],
  [`cat > new.diff <<EOF\n$(cat evil.diff)\nEOF\npatch -p1 < new.diff`, "allow", "ask"],
  // Everyday patches of the project's sources stay allowed.
  [`cat > new.diff <<'EOF'\n${diffOf("src/main.ts")}EOF\npatch -p1 < new.diff`, "allow", "allow"],
  [
    `cat > /tmp/x.diff <<'EOF'\n${diffOf("src/main.ts")}EOF\ngit apply /tmp/x.diff`,
    "allow",
    "allow",
  ],
  ["patch -p1 < fix.diff", "allow", "allow"],
  ["patch -p1 -i fix.diff", "allow", "allow"],
  ["patch src/main.ts fix.diff", "allow", "allow"],
  ["patch --dry-run -p1 < evil.diff", "allow", "allow"],
  ["patch -o /tmp/out.ts -p1 < evil.diff", "allow", "allow"],
  ["git apply fix.diff", "allow", "allow"],
  ["git apply --check evil.diff", "allow", "allow"],
  ["git apply --stat evil.diff", "allow", "allow"],
  ["git apply --cached evil.diff", "allow", "allow"],
  ["git apply -v --3way fix.diff", "allow", "allow"],
  ["cd src && git apply ../fix.diff", "allow", "allow"],
];

Deno.test("diffs: a diff from a file is read, and one not known may write below", async () => {
  await checkGateTable(project, FROM_FILES);
});

/** A git diff that makes `k` a symlink to `target` (and changes `src/a.ts`). */
const linkDiff = (target: string, mode = "new file mode 120000") =>
  [
    "diff --git a/src/a.ts b/src/a.ts",
    "--- a/src/a.ts",
    "+++ b/src/a.ts",
    "@@ -1 +1 @@",
    "-a",
    "+b",
    "diff --git a/k b/k",
    mode,
    "index 0000000..1c5b1a2",
    "--- /dev/null",
    "+++ b/k",
    "@@ -0,0 +1 @@",
    `+${target}`,
    "\\ No newline at end of file",
  ].join("\n");

Deno.test("diffs: the symlinks a git diff makes, where they lead", () => {
  assert.deepEqual(patchedLinks(linkDiff("/home/user/.ssh"), 1), [
    { path: "k", target: "/home/user/.ssh" },
  ]);
  // (A mode changed to a link's; without -p, each form of the name.)
  assert.deepEqual(patchedLinks(linkDiff("../x", "new mode 120000"), null).map((l) => l.path), [
    "b/k",
    "k",
  ]);
  // (A file's mode, a reversed diff that removes no link: none.)
  assert.deepEqual(patchedLinks(linkDiff("x", "new file mode 100644"), 1), []);
  assert.deepEqual(patchedLinks(linkDiff("x"), 1, true), []);
  const removed = linkDiff("/etc", "deleted file mode 120000").replace("+/etc", "-/etc");
  assert.deepEqual(patchedLinks(removed, 1, true), [{ path: "k", target: "/etc" }]);
});

/** A git diff that makes `name` a symlink to /home/user/.ssh by a binary literal (`literal N`). */
const binaryLinkDiff = (name = "k", mode = "new file mode 120000", hunks = FORWARD) =>
  [
    `diff --git a/${name} b/${name}`,
    mode,
    "index 0000000000000000000000000000000000000000..508bd70a5fdebeac340a58b4eb5cf3779e4b4208",
    "GIT binary patch",
    ...hunks,
  ].join("\n");
const TARGET = ["literal 15", "Wc-qs?$j?pHFD*_j($_04&Hw-^+68g|", ""];
const EMPTY = ["literal 0", "HcmV?d00001", ""];
const FORWARD = [...TARGET, ...EMPTY];

Deno.test("diffs: links by binary literals, names with spaces or quotes, renames", () => {
  const ssh = "/home/user/.ssh";
  assert.deepEqual(patchedLinks(binaryLinkDiff(), 1), [{ path: "k", target: ssh }]);
  // (Reversed: the second hunk, of a diff that deletes the link; the forward one makes none.)
  const deleted = binaryLinkDiff("k", "deleted file mode 120000", [...EMPTY, ...TARGET]);
  assert.deepEqual(patchedLinks(deleted, 1, true), [{ path: "k", target: ssh }]);
  assert.deepEqual(patchedLinks(deleted, 1), []);
  assert.deepEqual(patchedLinks(binaryLinkDiff(), 1, true), []);
  // (A delta, `Binary files … differ`: a link to a place not known.)
  const delta = binaryLinkDiff("k", "new file mode 120000", ["delta 15", TARGET[1], "", ...EMPTY]);
  assert.deepEqual(patchedLinks(delta, 1), [{ path: "k", target: null }]);
  const differ = [
    "diff --git a/k b/k",
    "new file mode 120000",
    "Binary files /dev/null and b/k differ",
  ];
  assert.deepEqual(patchedLinks(differ.join("\n"), 1), [{ path: "k", target: null }]);
  // (A name with a space: git does not quote it, and ends its `+++` line with a tab.)
  const spaced = linkDiff(ssh).replaceAll("a/k", "a/k x").replaceAll("b/k", "b/k x\t")
    .replace("diff --git a/k x b/k x\t", "diff --git a/k x b/k x");
  assert.deepEqual(patchedLinks(spaced, 1), [{ path: "k x", target: ssh }]);
  assert.deepEqual(patchedLinks(binaryLinkDiff("k x"), 1), [{ path: "k x", target: ssh }]);
  assert.ok(patchedFiles(spaced, 1).includes("k x"));
  // (Quoted C-style, in the header and `+++`.)
  const quoted = linkDiff(ssh).replace("diff --git a/k b/k", 'diff --git "a/k\\tx" "b/k\\tx"')
    .replace("+++ b/k", '+++ "b/k\\tx"');
  assert.deepEqual(patchedLinks(quoted, 1), [{ path: "k\tx", target: ssh }]);
  assert.ok(patchedFiles(quoted, 1).includes("k\tx"));
  // (A link renamed and retargeted: the name `rename to` gives, then `+++`'s.)
  const renamed = [
    "diff --git a/l b/k y",
    "similarity index 50%",
    "rename from l",
    "rename to k y",
    "index cad2309..508bd70 120000",
    "--- a/l",
    "+++ b/k y",
    "@@ -1 +1 @@",
    "-/tmp",
    `+${ssh}`,
  ];
  assert.deepEqual(patchedLinks(renamed.join("\n"), 1), [{ path: "k y", target: ssh }]);
  assert.deepEqual(patchedLinks(renamed.slice(0, 5).concat(renamed.slice(7)).join("\n"), 1), [
    { path: "k y", target: ssh },
  ]);
  // (Reversed: the old name.)
  const back = renamed.join("\n").replace("-/tmp", "+/tmp").replace(`+${ssh}`, `-${ssh}`);
  assert.deepEqual(patchedLinks(back, 1, true), [{ path: "l", target: ssh }]);
});

Deno.test("diffs: the symlinks a patch makes lead the stages after it", async () => {
  const config = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "~/.ssh/**": "deny" },
  });
  const ctx = ctxIn("/p", {
    files: ["/p/src/a.ts", "/home/user/.ssh/id_rsa"],
    contents: {
      "/tmp/p.patch": linkDiff("/home/user/.ssh"),
      "/tmp/rel.patch": linkDiff("../home/user/.ssh"),
      "/tmp/plain.patch": linkDiff("/tmp", "new file mode 100644"),
      "/tmp/bin.patch": binaryLinkDiff(),
      "/tmp/space.patch": binaryLinkDiff("k x"),
      "/tmp/del.patch": binaryLinkDiff("k", "deleted file mode 120000", [...EMPTY, ...TARGET]),
      "/tmp/delta.patch": binaryLinkDiff("k", "new file mode 120000", ["delta 15", TARGET[1]]),
      "/tmp/spaced.patch": linkDiff("/home/user/.ssh").replaceAll(" b/k", " b/k x")
        .replaceAll(" a/k", " a/k x"),
    },
  });
  const inline = `git apply <<'EOF'\n${linkDiff("/home/user/.ssh")}\nEOF\ncat k/id_rsa`;
  await checkActions(config, ctx, [
    ["git apply /tmp/p.patch && cat k/id_rsa", "deny"],
    ["git apply -v --index /tmp/p.patch; cat k/id_rsa", "deny"],
    ["git am -3 /tmp/p.patch && cat k/id_rsa", "deny"],
    ["git apply --directory=sub /tmp/p.patch && cat sub/k/id_rsa", "deny"],
    ["git -C /p apply /tmp/p.patch && cd /p && cat k/id_rsa", "deny"],
    ["patch -p1 < /tmp/p.patch && cat k/id_rsa", "deny"],
    ["patch -p1 -i /tmp/p.patch && cat k/id_rsa", "deny"],
    ["patch --strip=1 --input=/tmp/p.patch && grep -r x k", "deny"],
    ["patch < /tmp/p.patch && cat k/id_rsa", "deny"],
    ["patch -d src -p1 < /tmp/rel.patch && cat src/k/id_rsa", "allow"],
    ["patch -p1 < /tmp/rel.patch && cat k/id_rsa", "deny"],
    [inline, "deny"],
    // (A binary literal, a name with a space, a deleted link applied in reverse.)
    ["git apply /tmp/bin.patch && cat k/id_rsa", "deny"],
    ['git apply /tmp/space.patch && cat "k x/id_rsa"', "deny"],
    ['git apply /tmp/spaced.patch && cat "k x/id_rsa"', "deny"],
    ['patch -p1 < /tmp/spaced.patch && cat "k x/id_rsa"', "deny"],
    ["git apply -R /tmp/del.patch && cat k/id_rsa", "deny"],
    ["git apply --reverse /tmp/del.patch && cat k/id_rsa", "deny"],
    // (A delta: where the link leads is not known; the stages that do not go through it stand.)
    ["git apply /tmp/delta.patch && cat k/id_rsa", "ask"],
    ["git apply /tmp/delta.patch && k/run", "ask"],
    ["git apply /tmp/delta.patch && cat src/a.ts", "allow"],
    ["git apply /tmp/del.patch && cat k/id_rsa", "allow"],
    ["git apply /tmp/bin.patch && cat src/a.ts", "allow"],
    // (Everyday: the patch alone, one that makes no link, one only checked.)
    ["git apply /tmp/p.patch", "allow"],
    ["patch -p1 < /tmp/p.patch && cat src/a.ts", "allow"],
    ["git apply /tmp/plain.patch && cat k/id_rsa", "allow"],
    ["git apply --check /tmp/p.patch && cat k/id_rsa", "allow"],
    ["git apply --cached /tmp/p.patch && cat k/id_rsa", "allow"],
    ["patch --dry-run -p1 < /tmp/p.patch && cat k/id_rsa", "allow"],
  ]);
});
