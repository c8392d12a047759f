/**
 * Robustness over 10,624 real-world one-liners (NL2Bash, MIT, testdata/corpus): every command gets
 * a verdict without throwing, and the verdicts keep the invariants a user relies on.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { analyzeBash } from "./shell/analyze.ts";
import { loadBashParser } from "./shell/parser.ts";
import { decide } from "./policy/engine.ts";
import { readOptions } from "./programs/argv.ts";
import { carriesCommand } from "./programs/env.ts";
import { programNamed } from "./programs/registry.ts";
import { unzipReadsOnly } from "./programs/archivers.ts";
import { tarListsOnly } from "./programs/tar.ts";
import type { Stage, Word } from "./shell/model.ts";
import { configFrom, ctxIn } from "./testing.ts";
import type { Action } from "./types.ts";

const corpus = readFileSync(new URL("../testdata/corpus/nl2bash.txt", import.meta.url), "utf8")
  .split("\n").filter((l) => l.trim());

const readOnly = configFrom({
  policies: { ro: { defaultAction: "deny", rules: ["$safe-bash"] } },
  locations: { "/": "ro" },
});
const denyList = configFrom({
  policies: {
    open: {
      defaultAction: "allow",
      rules: [
        { action: "deny", tool: "bash", pattern: "rm *" },
        { action: "deny", tool: "bash", pattern: "sudo *" },
        { action: "ask", tool: "bash", pattern: "chmod *" },
      ],
    },
  },
  locations: { "/": "open" },
});
const ctx = ctxIn("/home/user/project", { files: ["/home/user/project/file.txt"] });
const ACTIONS: Action[] = ["allow", "nudge", "log", "ask", "deny"];
/** Programs that change files: under a read-only policy they are never allowed as a stage. */
const MUTATORS =
  /^(rm|mv|cp|chmod|chown|ln|mkdir|rmdir|touch|dd|truncate|tee|install|rsync|tar|zip|unzip|gzip|gunzip|kill|pkill|killall|shutdown|reboot|apt|apt-get|yum|npm|pip|curl|wget|ssh|scp|sh|bash|zsh|eval|exec|xargs|sudo|su|crontab|mount|umount)$/;

Deno.test(`corpus: all ${corpus.length} commands get a verdict without throwing`, async () => {
  assert.ok(corpus.length > 10_000);
  const parser = await loadBashParser();
  const counts: Record<string, Record<Action, number>> = {};
  for (const [name, config] of [["read-only", readOnly], ["deny-list", denyList]] as const) {
    counts[name] = { allow: 0, nudge: 0, log: 0, sandbox: 0, ask: 0, deny: 0 };
    for (const command of corpus) {
      const v = decide(config, { tool: "bash", input: { command } }, ctx, { parser });
      assert.ok(ACTIONS.includes(v.action), command);
      counts[name][v.action]++;
    }
  }
  // Both policies must leave room for everyday work: neither blocks everything.
  assert.ok(counts["read-only"].allow > 1000, JSON.stringify(counts));
  assert.ok(counts["deny-list"].allow > 5000, JSON.stringify(counts));
});

/**
 * tar and unzip in their forms that only list or read an archive (their modules' own checks), and
 * xargs running a command that is not a mutator (what it runs is judged as a stage of its own).
 */
/** Whether a find stage's starting points are only empty words (`find "" -mtime +7`). */
function findsNothing(s: Stage): boolean {
  const roots: Word[] = [];
  for (const w of s.argv.slice(1)) {
    if (w.kind !== "static" || /^[-(!),]/.test(w.value)) break;
    roots.push(w);
  }
  return roots.length > 0 && roots.every((w) => w.value === "");
}

function listsOnly(name: string, args: Word[]): boolean {
  const values = args.map((w) => (w.kind === "static" ? w.value : null));
  if (name === "tar") return tarListsOnly(values);
  if (name === "xargs") {
    const first = readOptions(values, programNamed("xargs")!.options!)
      .find((t) => t.kind !== "flag" && t.kind !== "valued" && t.kind !== "end");
    // (With no command, xargs runs echo.)
    if (first === undefined) return true;
    const inner = values[first.at];
    return first.kind === "operand" && inner !== null && !MUTATORS.test(inner.split("/").pop()!);
  }
  return name === "unzip" && unzipReadsOnly(values);
}

Deno.test("corpus: unseen commands and syntax errors are never allowed; mutators never pass read-only", async () => {
  const parser = await loadBashParser();
  for (const command of corpus) {
    const a = analyzeBash(
      command,
      { cwd: ctx.cwd, home: ctx.home, env: ctx.env, carriesCommand },
      parser,
    );
    const roVerdict = decide(readOnly, { tool: "bash", input: { command } }, ctx, { parser });
    const ro = roVerdict.action;
    const dl = decide(denyList, { tool: "bash", input: { command } }, ctx, { parser }).action;
    const blind = a.error !== null ||
      a.stages.some((s) => !s.argv[0] || s.argv[0].kind !== "static");
    if (blind) {
      assert.notEqual(ro, "allow", `read-only allowed an unseen command: ${command}`);
      assert.notEqual(dl, "allow", `deny-list allowed an unseen command: ${command}`);
    }
    // (A loop over what a find of only empty starting points prints never runs its body: find
    // names no file, `find "$UNSET" -mtime +7 | while read f; do rm "$f"; done`; the decision
    // has no stage of it.)
    const finds = a.stages.filter((s) => s.argv[0]?.value === "find");
    const nothingListed = finds.length > 0 && finds.every(findsNothing);
    const decided = (name: string) =>
      roVerdict.stages.some((v) => v.command?.split(" ")[0] === name);
    for (const s of a.stages) {
      const name = s.argv[0]?.value.split("/").pop() ?? "";
      if (
        MUTATORS.test(name) && !listsOnly(name, s.argv.slice(1)) &&
        (!nothingListed || decided(name))
      ) {
        assert.notEqual(ro, "allow", `read-only allowed ${name}: ${command}`);
      }
      // Bare `rm` does nothing and, per RULINGS, "rm *" does not match it.
      if (
        (name === "rm" || name === "sudo") && s.argv.length > 1 && (!nothingListed || decided(name))
      ) {
        assert.equal(dl, "deny", `deny-list let ${name} through: ${command}`);
      }
      const writes = s.redirects.some((r) =>
        r.kind === "write" && r.target && !/^\/dev\//.test(r.target.value)
      );
      if (writes) assert.notEqual(ro, "allow", `read-only allowed a redirect write: ${command}`);
    }
  }
});
