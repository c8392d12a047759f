/**
 * What Mercurial runs from its config files: hooks, aliases, extensions by path, merge tools, the
 * editor, extdiff and `--config` are judged for the subcommand given; everyday hgrc files and
 * commands stay allowed.
 */
import assert from "node:assert/strict";
import { checkActions, ctxIn, rmDenied } from "../testing.ts";
import { hgConfig } from "./hg_settings.ts";

const H = "/home/user";
const P = `${H}/p`;
/** Allow by default; `rm *` and `curl *` denied; `secrets/**` and `~/.ssh/**` denied. */
const config = rmDenied(H, { ssh: true, curl: true });
const files = [`${P}/src/a.ts`, `${P}/secrets/key`];
const withHgrc = (hgrc: string, more: Record<string, string> = {}) =>
  ctxIn(P, { files, contents: { [`${P}/.hg/hgrc`]: hgrc, ...more } });

const EVERYDAY = `[paths]
default = https://hg.example.org/repo
[ui]
username = A <a@example.org>
merge = internal:merge
[extensions]
rebase =
histedit =
hgext.mq = !
[alias]
lg = log -G
[diff]
git = true
`;

Deno.test("hg config: hg's syntax (continuations, %unset, %include)", () => {
  const read = (p: string) => p === "/r/.hg/more.rc" ? "[hooks]\nupdate = echo\n" : "";
  const c = hgConfig(
    "; comment\n[hooks]\npre-log = a\n  b\n# c\npost-log = x\n%unset post-log\n%include more.rc\n",
    "/r/.hg/hgrc",
    read,
  );
  assert.deepEqual([...c.settings], [["hooks.pre-log", "a\nb"], ["hooks.update", "echo"]]);
  assert.deepEqual(c.unknown, []);
  // (A line hg does not read: not known.)
  assert.equal(hgConfig("  indented = x\n", "/r/.hg/hgrc", read).unknown.length, 1);
});

Deno.test("hg config: what the repository's hgrc runs is judged", async () => {
  await checkActions(config, withHgrc("[hooks]\npre-status = rm -rf src\n"), [
    ["hg status", "deny"],
    ["hg st", "deny"],
    ["hg stat", "deny"],
    ["hg log", "allow"],
    ["HGRCSKIPREPO=1 hg status", "allow"],
  ]);
  await checkActions(config, withHgrc("[hooks]\npre-status.x = cat secrets/key\n"), [
    ["hg status", "deny"],
  ]);
  await checkActions(config, withHgrc("[hooks]\nupdate = rm -rf src\n"), [
    ["hg update", "deny"],
    ["hg pull -u", "deny"],
    ["hg status", "allow"],
    ["hg log -p", "allow"],
  ]);
  await checkActions(
    config,
    withHgrc("[alias]\nst = !rm -rf src\nx = log --config 'hooks.pre-log=curl x'\n"),
    [
      ["hg st", "deny"],
      ["hg x", "deny"],
      ["HGPLAIN=1 hg st", "allow"],
      ["hg log", "allow"],
    ],
  );
  await checkActions(config, withHgrc("[extensions]\nx = /tmp/evil.py\n"), [
    ["hg status", "ask"],
    ["hg log", "ask"],
  ]);
  const merge = "[ui]\nmerge = kd\n[merge-tools]\nkd.executable = rm\nkd.args = -rf src\n";
  await checkActions(config, withHgrc(merge), [
    ["hg merge", "deny"],
    ["hg resolve -a", "deny"],
    ["hg status", "allow"],
  ]);
  await checkActions(config, withHgrc("[ui]\neditor = rm -rf src\n"), [
    ["hg commit", "deny"],
    ["hg commit -m x", "allow"],
    ["hg log", "allow"],
  ]);
  await checkActions(config, withHgrc("[pager]\npager = rm -rf src\n"), [["hg log", "allow"]]);
  await checkActions(config, withHgrc("[pager]\npager = rm -rf src\n[ui]\nformatted = yes\n"), [
    ["hg log", "deny"],
  ]);
  await checkActions(
    config,
    withHgrc("[extensions]\nextdiff =\n[extdiff]\ncmd.vd = rm\nopts.vd = -rf src\n"),
    [
      ["hg vd", "deny"],
      ["hg diff", "allow"],
    ],
  );
  await checkActions(
    config,
    withHgrc("%include other.rc\n", { [`${P}/.hg/other.rc`]: "[hooks]\npre-log = rm -rf src\n" }),
    [["hg log", "deny"], ["hg status", "allow"]],
  );
});

Deno.test("hg config: the command's own settings and programs", async () => {
  await checkActions(config, withHgrc(""), [
    ["hg --config hooks.pre-status='rm -rf src' status", "deny"],
    ["hg status --config=hooks.pre-status='rm -rf src'", "deny"],
    ["hg --config extensions.extdiff= extdiff -p rm -o -rf -o src", "deny"],
    ["hg extdiff --program=curl", "deny"],
    ["hg --config ui.editor='rm -rf src' commit", "deny"],
    ["hg --config ui.editor=vim commit -m x", "allow"],
  ]);
  const evil = ctxIn(P, {
    files,
    contents: { [`${P}/evil.rc`]: "[hooks]\npre-status=rm -rf src\n" },
  });
  await checkActions(config, evil, [["HGRCPATH=evil.rc hg status", "deny"]]);
});

Deno.test("hg config: a config file another stage writes first is not known", async () => {
  await checkActions(config, withHgrc(""), [
    ["printf '[hooks]\\npre-status=rm -rf src\\n' > .hg/hgrc && hg status", "ask"],
    ["echo x >> ~/.hgrc; hg log", "ask"],
    ["echo x > .hg/other && hg log", "allow"],
  ]);
});

Deno.test("hg config: everyday hgrc files and commands stay allowed", async () => {
  const ctx = withHgrc(EVERYDAY);
  await checkActions(config, ctx, [
    ["hg status", "allow"],
    ["hg st", "allow"],
    ["hg lg", "allow"],
    ["hg diff", "allow"],
    ["hg log -r tip -p", "allow"],
    ["hg commit -m 'fix'", "allow"],
    ["hg pull -u", "allow"],
    ["hg update default", "allow"],
    ["hg rebase -d default", "allow"],
    ["hg clone https://x/y d", "allow"],
  ]);
  await checkActions(config, ctxIn(P, { files }), [["hg status", "allow"], ["hg log", "allow"]]);
});
