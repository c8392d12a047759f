/**
 * The eval verdict engine against a stand-in Decisions server on 127.0.0.1: every rule of the
 * table in order, the yes/no and choice buckets around their thresholds, and the backstop.
 */
import assert from "node:assert/strict";
import type { Answer } from "./decisions_client.ts";
import { newEvalCache } from "./evals.ts";
import { EVAL_RULES } from "./evals_rules.ts";
import { choice, yesNo } from "./testing_decisions.ts";
import { bySource, judgeCommand, withStandIn } from "./testing_evals.ts";
import type { DecisionsConfig } from "./types.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

// ---------------------------------------------------------------------------------------------
// The rule table

const RULE_CASES: {
  name: string;
  answers: Record<string, Answer>;
  action: string;
  rule: string;
}[] = [
  {
    name: "destructive + obfuscated",
    answers: { destructive: yesNo(0.9), obfuscated: yesNo(0.95) },
    action: "deny",
    rule: "deny.destructive_concealed",
  },
  {
    name: "destructive + write outside",
    answers: { destructive: yesNo(0.9), write_scope: choice("outside", { outside: 0.9 }) },
    action: "deny",
    rule: "deny.destructive_out_of_scope",
  },
  {
    name: "destructive + sensitive system write",
    answers: {
      destructive: yesNo(0.8),
      write_scope: choice("sensitive_system", { sensitive_system: 0.8, within: 0.2 }),
    },
    action: "deny",
    rule: "deny.destructive_out_of_scope",
  },
  {
    name: "sensitive read + network (exfil)",
    answers: { read_scope: choice("sensitive", { sensitive: 0.9 }), network: yesNo(0.9) },
    action: "deny",
    rule: "deny.exfil",
  },
  {
    name: "obfuscated + network",
    answers: { obfuscated: yesNo(0.9), network: yesNo(0.9) },
    action: "deny",
    rule: "deny.concealed_capability",
  },
  {
    name: "obfuscated + exec",
    answers: { obfuscated: yesNo(0.9), exec: yesNo(0.9) },
    action: "deny",
    rule: "deny.concealed_capability",
  },
  {
    name: "destructive in scope",
    answers: { destructive: yesNo(0.9) },
    action: "ask",
    rule: "ask.destructive",
  },
  {
    name: "write outside",
    answers: { write_scope: choice("outside", { outside: 0.7, within: 0.3 }) },
    action: "ask",
    rule: "ask.write_outside",
  },
  {
    name: "write to a sensitive system location",
    answers: { write_scope: choice("sensitive_system", { sensitive_system: 0.9 }) },
    action: "ask",
    rule: "ask.write_sensitive_system",
  },
  {
    name: "sensitive read",
    answers: { read_scope: choice("sensitive", { sensitive: 0.9, ordinary: 0.1 }) },
    action: "ask",
    rule: "ask.sensitive_read",
  },
  {
    name: "obfuscated alone",
    answers: { obfuscated: yesNo(0.9) },
    action: "ask",
    rule: "ask.obfuscated",
  },
  {
    name: "destructive uncertain",
    answers: { destructive: yesNo(0.5) },
    action: "ask",
    rule: "ask.uncertain",
  },
  {
    name: "obfuscated uncertain",
    answers: { obfuscated: yesNo(0.5) },
    action: "ask",
    rule: "ask.uncertain",
  },
  {
    name: "write_scope unknown",
    answers: { write_scope: choice("unknown", { unknown: 0.9 }) },
    action: "ask",
    rule: "ask.uncertain",
  },
  {
    name: "write_scope uncertain (risky mass)",
    answers: { write_scope: choice("within", { within: 0.5, outside: 0.4, temp: 0.1 }) },
    action: "ask",
    rule: "ask.uncertain",
  },
  {
    name: "read_scope unknown",
    answers: { read_scope: choice("unknown", { unknown: 0.8, ordinary: 0.2 }) },
    action: "ask",
    rule: "ask.uncertain",
  },
  {
    name: "read_scope uncertain (risky mass)",
    answers: { read_scope: choice("ordinary", { ordinary: 0.55, sensitive: 0.45 }) },
    action: "ask",
    rule: "ask.uncertain",
  },
  {
    name: "inference call",
    answers: { inference_call: yesNo(0.9) },
    action: "ask",
    rule: "ask.inference_call",
  },
  {
    name: "network alone",
    answers: { network: yesNo(0.9) },
    action: "allow",
    rule: "allow.network",
  },
  { name: "exec alone", answers: { exec: yesNo(0.9) }, action: "allow", rule: "allow.exec" },
  {
    name: "network and exec, below the backstop",
    answers: { network: yesNo(0.8), exec: yesNo(0.8) },
    action: "allow",
    rule: "allow.network_exec",
  },
  { name: "nothing", answers: {}, action: "allow", rule: "allow.nothing" },
  // Order: denies before asks, earlier rows first.
  {
    name: "all denies at once: the first deny row",
    answers: {
      destructive: yesNo(1),
      obfuscated: yesNo(1),
      network: yesNo(1),
      read_scope: choice("sensitive", { sensitive: 1 }),
    },
    action: "deny",
    rule: "deny.destructive_concealed",
  },
  {
    name: "destructive before uncertainty",
    answers: { destructive: yesNo(0.9), read_scope: choice("unknown", { unknown: 1 }) },
    action: "ask",
    rule: "ask.destructive",
  },
  {
    name: "uncertain network is not exfil",
    answers: { read_scope: choice("sensitive", { sensitive: 1 }), network: yesNo(0.5) },
    action: "ask",
    rule: "ask.sensitive_read",
  },
];

Deno.test("evals: every rule of the table, in order", async () => {
  const answers: Record<string, Record<string, Answer>> = {};
  RULE_CASES.forEach((c, i) => answers[`case_${i}()`] = c.answers);
  await withStandIn(bySource(answers), async (s) => {
    const cache = newEvalCache();
    for (const [i, c] of RULE_CASES.entries()) {
      const v = await judgeCommand(s, `python3 -c 'case_${i}()'`, { cache });
      const e = v.evals![0];
      assert.equal(e.rule, c.rule, c.name);
      assert.equal(v.action, c.action, c.name);
      assert.equal(e.action, c.action, c.name);
    }
    const fired = new Set(RULE_CASES.map((c) => c.rule));
    for (const r of EVAL_RULES) assert.ok(fired.has(r.id), `rule ${r.id} is exercised`);
  });
});

Deno.test("evals: the reason and notification name the rule", async () => {
  await withStandIn(
    bySource({
      "exfil()": { read_scope: choice("sensitive", { sensitive: 0.9 }), network: yesNo(0.9) },
      "unsure()": { destructive: yesNo(0.5), write_scope: choice("unknown", { unknown: 1 }) },
    }),
    async (s) => {
      const d = await judgeCommand(s, "python3 -c 'exfil()'");
      assert.equal(
        d.reason,
        "Access denied by eval classification: bash (python3 -c 'exfil()') — rule deny.exfil " +
          "(sensitive read + network). Do not retry the same code in another form.",
      );
      assert.equal(
        d.notification,
        "pi-controls: deny [eval classification]: bash (python3 -c 'exfil()') — rule deny.exfil " +
          "(sensitive read + network)",
      );
      assert.equal(d.locationAction, "allow");
      assert.equal(d.evalDecided?.rule, "deny.exfil");
      const a = await judgeCommand(s, "python3 -c 'unsure()'");
      assert.equal(
        a.notification,
        "pi-controls: ask [eval classification]: bash — python3 -c 'unsure()' — rule " +
          "ask.uncertain (uncertain on a critical question: destructive, write_scope)",
      );
      assert.match(a.reason!, /This call needs the user's confirmation, and it was not given\.$/);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// Buckets and the backstop

Deno.test("evals: yes/no buckets on both sides of yesThreshold and noThreshold", async () => {
  const cases: [string, number, string][] = [
    // destructive is critical: uncertain asks, yes asks (ask.destructive), no allows.
    ["d_yes_edge", 0.7, "ask.destructive"],
    ["d_below_yes", 0.6999, "ask.uncertain"],
    ["d_no_edge", 0.3, "allow.nothing"],
    ["d_above_no", 0.3001, "ask.uncertain"],
  ];
  const answers: Record<string, Record<string, Answer>> = {};
  for (const [src, p] of cases) answers[src] = { destructive: yesNo(p) };
  // network with a sensitive read: yes denies (exfil), uncertain only asks.
  answers.n_yes = { network: yesNo(0.7), read_scope: choice("sensitive", { sensitive: 1 }) };
  answers.n_below = { network: yesNo(0.69), read_scope: choice("sensitive", { sensitive: 1 }) };
  // custom thresholds
  answers.o_custom = { obfuscated: yesNo(0.85) };
  await withStandIn(bySource(answers), async (s) => {
    for (const [src, , rule] of cases) {
      const v = await judgeCommand(s, `python3 -c ${src}`);
      assert.equal(v.evals![0].rule, rule, src);
    }
    assert.equal((await judgeCommand(s, "python3 -c n_yes")).evals![0].rule, "deny.exfil");
    assert.equal(
      (await judgeCommand(s, "python3 -c n_below")).evals![0].rule,
      "ask.sensitive_read",
    );
    const strict = await judgeCommand(s, "python3 -c o_custom", {
      decisions: { yesThreshold: 0.9, noThreshold: 0.1 },
    });
    assert.equal(strict.evals![0].buckets?.obfuscated, "uncertain");
    assert.equal(strict.evals![0].rule, "ask.uncertain");
    const lax = await judgeCommand(s, "python3 -c o_custom", { decisions: { yesThreshold: 0.85 } });
    assert.equal(lax.evals![0].rule, "ask.obfuscated");
  });
});

Deno.test("evals: choice buckets around choiceConfidence and riskyMassThreshold", async () => {
  const answers: Record<string, Record<string, Answer>> = {
    // confident at exactly choiceConfidence: the label stands, whatever the risky mass.
    conf_edge: { write_scope: choice("within", { within: 0.6, outside: 0.4 }, 0.6) },
    // just below confidence, risky mass exactly at the threshold: uncertain.
    mass_edge: {
      write_scope: choice(
        "within",
        { within: 0.59, outside: 0.2, unknown: 0.15, temp: 0.06 },
        0.59,
      ),
    },
    // below confidence, risky mass just below the threshold: the top label.
    mass_below: {
      write_scope: choice("within", { within: 0.59, outside: 0.34, temp: 0.07 }, 0.59),
    },
    // reads: sensitive + unknown count as risky; ordinary/none do not.
    read_mass: {
      read_scope: choice("ordinary", { ordinary: 0.5, sensitive: 0.2, unknown: 0.15 }, 0.5),
    },
    read_safe: {
      read_scope: choice("ordinary", { ordinary: 0.5, none: 0.36, sensitive: 0.14 }, 0.5),
    },
    // a confident risky label is the label, not "uncertain"
    outside_conf: { write_scope: choice("outside", { outside: 0.61, within: 0.39 }, 0.61) },
  };
  await withStandIn(bySource(answers), async (s) => {
    const run = async (src: string, decisions: DecisionsConfig = {}) =>
      (await judgeCommand(s, `python3 -c ${src}`, { decisions })).evals![0];
    assert.equal((await run("conf_edge")).buckets?.write_scope, "within");
    assert.equal((await run("conf_edge")).rule, "allow.nothing");
    assert.equal((await run("mass_edge")).buckets?.write_scope, "uncertain");
    assert.equal((await run("mass_edge")).rule, "ask.uncertain");
    assert.equal((await run("mass_below")).buckets?.write_scope, "within");
    assert.equal((await run("read_mass")).buckets?.read_scope, "uncertain");
    assert.equal((await run("read_safe")).buckets?.read_scope, "ordinary");
    assert.equal((await run("outside_conf")).rule, "ask.write_outside");
    // the knobs move the edges
    assert.equal(
      (await run("conf_edge", { choiceConfidence: 0.61 })).buckets?.write_scope,
      "uncertain",
    );
    assert.equal((await run("mass_below", { riskyMassThreshold: 0.34 })).rule, "ask.uncertain");
  });
});

Deno.test("evals: the backstop trips at the threshold, stays quiet below, and never denies", async () => {
  const answers: Record<string, Record<string, Answer>> = {
    // network 1 × 25 + exec 1 × 15 = 40: no rule asks, the score does.
    at: { network: yesNo(1), exec: yesNo(1) },
    // 25 + 0.99 × 15 = 39.85: quiet.
    below: { network: yesNo(1), exec: yesNo(0.99) },
    // weak signals everywhere, each below every rule: 0.3×100 + 0.3×40 + 0.3×10 + 0.2×20 = 49
    weak: {
      destructive: yesNo(0.3),
      obfuscated: yesNo(0.3),
      inference_call: yesNo(0.3),
      read_scope: choice("ordinary", { ordinary: 0.8, unknown: 0.2 }, 0.8),
    },
    // a deny rule decides, the backstop does not soften or change it
    deny: { obfuscated: yesNo(1), network: yesNo(1) },
  };
  await withStandIn(bySource(answers), async (s) => {
    const at = await judgeCommand(s, "python3 -c at");
    assert.equal(at.action, "ask");
    assert.equal(at.evals![0].rule, "backstop");
    assert.equal(at.evals![0].score, 40);
    assert.match(at.notification!, /— backstop score 40 ≥ 40$/);
    const below = await judgeCommand(s, "python3 -c below");
    assert.equal(below.action, "allow");
    assert.equal(below.evals![0].rule, "allow.network_exec");
    assert.equal(below.evals![0].score, 39.85);
    const weak = await judgeCommand(s, "python3 -c weak");
    assert.equal(weak.evals![0].rule, "backstop");
    assert.equal(weak.evals![0].score, 49);
    assert.equal(weak.action, "ask");
    const quiet = await judgeCommand(s, "python3 -c weak", {
      decisions: { backstopThreshold: 49.01 },
    });
    assert.equal(quiet.action, "allow");
    const heavy = await judgeCommand(s, "python3 -c below", {
      decisions: { weights: { exec: 16 } },
    });
    assert.equal(heavy.evals![0].rule, "backstop", "a single weight can be overridden");
    const d = await judgeCommand(s, "python3 -c deny", { decisions: { backstopThreshold: 0 } });
    assert.equal(d.evals![0].rule, "deny.concealed_capability");
    // backstopThreshold 0: everything the rules allow asks, nothing denies
    const zero = await judgeCommand(s, "python3 -c nothing", {
      decisions: { backstopThreshold: 0 },
    });
    assert.equal(zero.action, "ask");
  });
});
