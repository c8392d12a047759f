/**
 * The precision benchmark's counts (lib/precision.ts: the agent corpus under six configs) per
 * config, action and cause, as `testdata/corpus/precision.json` holds them: a change in precision
 * shows in review. A change meant to move them re-records the file (and the README's rates):
 *
 * ```sh
 * PI_CONTROLS_RECORD=1 deno test --allow-read --allow-write --allow-env lib/precision_test.ts
 * ```
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { measurePrecision, PRECISION_CONFIGS, precisionCounts } from "./precision.ts";
import { loadBashParser } from "./shell/parser.ts";

const RECORD = new URL("../testdata/corpus/precision.json", import.meta.url);

/** The counts as JSON with a line per config's actions and per cause, for a readable diff. */
function recordText(counts: ReturnType<typeof precisionCounts>): string {
  const configs = Object.entries(counts).map(([name, c]) => {
    const causes = Object.entries(c.causes).map(([cause, n]) =>
      `      ${JSON.stringify(cause)}: ${JSON.stringify(n)}`
    );
    return `  ${JSON.stringify(name)}: {\n    "actions": ${JSON.stringify(c.actions)},\n` +
      `    "causes": {\n${causes.join(",\n")}\n    }\n  }`;
  });
  return `{\n${configs.join(",\n")}\n}\n`;
}

Deno.test("precision: the agent corpus gets the recorded counts per config and cause", async () => {
  const commands = readFileSync(new URL("../testdata/corpus/agents.jsonl", import.meta.url), "utf8")
    .split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l).command as string);
  const results = measurePrecision(PRECISION_CONFIGS, commands, await loadBashParser());
  for (const r of results) {
    // Every ask and deny has exactly one cause.
    const blocked = r.causes.reduce((n, c) => n + c.asks + c.denies, 0);
    assert.equal(blocked, r.actions.ask + r.actions.deny, r.name);
    assert.ok(r.causes.every((c) => c.examples.length > 0), r.name);
  }
  const counts = precisionCounts(results);
  if (Deno.env.get("PI_CONTROLS_RECORD") === "1") {
    writeFileSync(RECORD, recordText(counts));
    return;
  }
  assert.deepEqual(counts, JSON.parse(readFileSync(RECORD, "utf8")));
});

Deno.test("precision: a cause names what decided, the same way in every call", async () => {
  const parser = await loadBashParser();
  const commands = [
    "rm -f reproduce.py", // the starter's own rule
    "cat .env", // a protection
    "touch /etc/x", // outside, the default
    "$CMD x", // an unknown command
    "echo 'unterminated", // a syntax error
    "cat x{1..100}/*.py", // a glob not expanded (braces past the bound)
    'cat "$1"', // a value not known before it runs
    "git status", // allowed: no cause
  ];
  const [starter] = measurePrecision(
    PRECISION_CONFIGS.filter((c) => c.name === "starter"),
    commands,
    parser,
  );
  assert.deepEqual(
    starter.causes.map((c) => [c.cause, c.asks, c.denies, c.examples]),
    [
      ['bash "rm -*" (ask) [project]', 1, 0, ["rm -f reproduce.py"]],
      ['pathProtection ".env" (ask)', 1, 0, ["cat .env"]],
      ["no rule matched (defaultAction) [outside]", 1, 0, ["touch /etc/x"]],
      // Any rule could meet an unknown command: the strictest (git push --force*) denies.
      ["unknown command (top)", 0, 1, ["$CMD x"]],
      ["syntax error", 0, 1, ["echo 'unterminated"]],
      // The glob may match an `id_rsa.py` file, which the starter's `id_rsa*` asks about (no
      // `*.pem` file ends in `.py`).
      ['pathProtection "id_rsa*" (ask)', 1, 0, ["cat x{1..100}/*.py"]],
      ["dynamic value (the value is not known before it runs) [project]", 1, 0, ['cat "$1"']],
    ],
  );
  assert.deepEqual(starter.actions, { allow: 1, nudge: 0, log: 0, sandbox: 0, ask: 5, deny: 2 });
});
