/**
 * Eval classification against a stand-in Decisions server on 127.0.0.1 (started and stopped by
 * each test): the rule table, the buckets, the backstop, errors, truncation, the cache, the token
 * header, skipping, logging, and the wiring into the extension and the CLI.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CliIo, main } from "./cli.ts";
import { loadConfigTexts } from "./config.ts";
import type { Answer } from "./decisions_client.ts";
import {
  type ClassifiedVerdict,
  classify,
  type ClassifyOptions,
  DECISIONS_DEFAULTS,
  decisionsSettings,
  DEFAULT_WEIGHTS,
  EVAL_RULES,
  type EvalCache,
  evalSessionTexts,
  newEvalCache,
  QUESTIONS,
  truncateSource,
} from "./evals.ts";
import { createExtension, type PiApi, type PiContext } from "./extension.ts";
import { decisionLine } from "./log.ts";
import { applySession, newSession } from "./session.ts";
import { bash, configFrom, ctxIn, decideIn } from "./testing.ts";
import {
  choice,
  replyWith,
  type StandIn,
  type StandInReply,
  startStandIn,
  yesNo,
} from "./testing_decisions.ts";
import type { Config, Context, DecisionsConfig } from "./types.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const TOKEN = "sk-or-test-0123456789";
const ENV_NAME = "OPENROUTER_API_KEY";

/** A config: one "open" policy (allow everything) on /work, plus a decisions block. */
function configWith(decisions: DecisionsConfig | null | undefined, extra: object = {}): Config {
  const src: Record<string, unknown> = {
    policies: {
      open: { defaultAction: "allow", rules: [] },
      careful: {
        defaultAction: "allow",
        rules: [
          { action: "ask", tool: "bash", pattern: "python3 -c *ask*" },
          { action: "deny", tool: "bash", pattern: "python3 -c *deny*" },
        ],
      },
    },
    locations: { "/work": "open", "/careful": "careful" },
    ...extra,
  };
  if (decisions !== undefined) src.decisions = decisions;
  return configFrom(src);
}

function ctx(cwd = "/work", env: Record<string, string> = { [ENV_NAME]: TOKEN }): Context {
  return ctxIn(cwd, { env });
}

/** Run `body` with a stand-in; the server is always stopped. */
async function withStandIn(
  handler: Parameters<typeof startStandIn>[0],
  body: (s: StandIn) => Promise<void>,
): Promise<void> {
  const s = startStandIn(handler);
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

/** A stand-in that answers by source: `answers[source]`, quiet otherwise. */
function bySource(answers: Record<string, Record<string, Answer> | StandInReply>) {
  return (body: { state: Record<string, unknown> }): StandInReply => {
    const a = answers[String(body.state.source)];
    if (a instanceof Response) return a;
    return replyWith((a ?? {}) as Record<string, Answer>);
  };
}

/** Classify one bash command under `decisions` pointed at the stand-in. */
async function judgeCommand(
  s: StandIn,
  command: string,
  opts: {
    decisions?: DecisionsConfig;
    cwd?: string;
    env?: Record<string, string>;
    cache?: EvalCache;
    classify?: Partial<ClassifyOptions>;
    extra?: object;
  } = {},
): Promise<ClassifiedVerdict> {
  const config = configWith({ url: s.url, ...opts.decisions }, opts.extra);
  const c = ctx(opts.cwd, opts.env);
  const v = await bash(config, c, command);
  return await classify(v, config, c, {
    cache: opts.cache ?? newEvalCache(),
    sessionId: "test-session",
    ...opts.classify,
  });
}

// ---------------------------------------------------------------------------------------------
// Settings and questions

Deno.test("evals: defaults per the spec, weights deep-merged over the RULINGS weights", () => {
  const d = decisionsSettings({});
  assert.equal(d.url, "https://openrouter.ai/api/alpha/decisions");
  assert.equal(d.tokenEnv, "OPENROUTER_API_KEY");
  assert.equal(d.model, "typesafe/jev-1.13");
  assert.equal(d.timeoutMs, 15000);
  assert.equal(d.maxSourceBytes, 32768);
  assert.equal(d.unavailableAction, "ask");
  assert.equal(d.errorAction, "ask");
  assert.equal(d.yesThreshold, 0.7);
  assert.equal(d.noThreshold, 0.3);
  assert.equal(d.choiceConfidence, 0.6);
  assert.equal(d.riskyMassThreshold, 0.35);
  assert.equal(d.backstopThreshold, 40);
  assert.deepEqual(d.weights, {
    destructive: 100,
    obfuscated: 40,
    network: 25,
    exec: 15,
    inferenceCall: 10,
    writeSensitive: 50,
    writeOutside: 30,
    writeUnknown: 20,
    readSensitive: 40,
    readUnknown: 20,
  });
  const merged = decisionsSettings({ model: "m", weights: { network: 5, inferenceCall: 0 } });
  assert.equal(merged.model, "m");
  assert.deepEqual(merged.weights, { ...DEFAULT_WEIGHTS, network: 5, inferenceCall: 0 });
  // The frozen defaults are not touched by a merge.
  assert.equal(DECISIONS_DEFAULTS.weights.network, 25);
  // Project weights deep-merge over global ones through the config merge, then over defaults.
  const loaded = loadConfigTexts([
    {
      file: "g.jsonc",
      text: '{ "decisions": { "weights": { "exec": 1 } } }',
      role: "global",
      root: null,
    },
    {
      file: "p.jsonc",
      text: '{ "decisions": { "weights": { "network": 2 } } }',
      role: "project",
      root: "/p",
    },
  ], { home: "/home/user" });
  assert.equal(loaded.status, "ok");
  if (loaded.status !== "ok") return;
  assert.deepEqual(decisionsSettings(loaded.config.decisions!).weights, {
    ...DEFAULT_WEIGHTS,
    exec: 1,
    network: 2,
  });
});

Deno.test("evals: the seven questions carry the RULINGS ids, types and labels", () => {
  assert.deepEqual(Object.keys(QUESTIONS).sort(), [
    "destructive",
    "exec",
    "inference_call",
    "network",
    "obfuscated",
    "read_scope",
    "write_scope",
  ]);
  for (const id of ["destructive", "network", "exec", "obfuscated", "inference_call"]) {
    assert.equal(QUESTIONS[id].type, "noul");
    assert.ok(QUESTIONS[id].instructions.length > 100);
  }
  const w = QUESTIONS.write_scope;
  const r = QUESTIONS.read_scope;
  assert.ok(w.type === "choice" && r.type === "choice");
  if (w.type !== "choice" || r.type !== "choice") return;
  assert.deepEqual(Object.keys(w.criteria), [
    "none",
    "temp",
    "within",
    "outside",
    "sensitive_system",
    "unknown",
  ]);
  assert.deepEqual(Object.keys(r.criteria), ["none", "ordinary", "sensitive", "unknown"]);
  const ids = EVAL_RULES.map((x) => x.id);
  assert.equal(new Set(ids).size, ids.length, "rule ids are unique");
  const firstAsk = EVAL_RULES.findIndex((x) => x.action === "ask");
  assert.ok(EVAL_RULES.slice(0, firstAsk).every((x) => x.action === "deny"), "denies first");
});

Deno.test("evals: config checks the decisions timeout bound and credentials in the url", () => {
  const check = (decisions: object) =>
    loadConfigTexts([{
      file: "c.jsonc",
      text: JSON.stringify({ decisions }),
      role: "project",
      root: "/p",
    }], { home: "/home/user" });
  const big = check({ timeoutMs: 2147483648 });
  assert.equal(big.status, "error");
  if (big.status === "error") {
    assert.match(big.errors[0].message, /decisions\.timeoutMs: 2147483648 is out of range/);
  }
  assert.equal(check({ timeoutMs: 2147483647 }).status, "ok");
  const creds = check({ url: "https://me:sk-secret@example.com/x" });
  assert.equal(creds.status, "error");
  if (creds.status === "error") {
    assert.match(creds.errors[0].message, /decisions\.url: must not carry a user name or password/);
    assert.doesNotMatch(creds.errors[0].message, /sk-secret/);
  }
});

// ---------------------------------------------------------------------------------------------
// The wire format

Deno.test("evals: one POST with the bearer token, {model, state, questions, session_id}", async () => {
  await withStandIn(bySource({}), async (s) => {
    const v = await judgeCommand(s, "cd sub && python3 -c 'print(1)' ./data.txt", {
      decisions: { model: "test/model" },
      classify: { sessionId: "sess-42" },
    });
    assert.equal(s.requests.length, 1);
    const r = s.requests[0];
    assert.equal(r.method, "POST");
    assert.equal(r.path, "/api/alpha/decisions");
    assert.equal(r.authorization, `Bearer ${TOKEN}`);
    assert.equal(r.contentType, "application/json");
    assert.deepEqual(Object.keys(r.body).sort(), ["model", "questions", "session_id", "state"]);
    assert.equal(r.body.model, "test/model");
    assert.equal(r.body.session_id, "sess-42");
    assert.deepEqual(r.body.questions, JSON.parse(JSON.stringify(QUESTIONS)));
    assert.deepEqual(r.body.state, {
      kind: "inline_code_eval",
      language: "python",
      interpreter: "python3",
      via: "-c",
      source: "print(1)",
      command: "python3 -c print(1) ./data.txt",
      cwd: "/work/sub",
      targets: [
        { path: "/work/sub", kind: "cwd" },
        { path: "/work/sub/data.txt", kind: "argument" },
      ],
    });
    assert.equal(v.action, "allow");
    assert.equal(v.evals?.[0].status, "classified");
    assert.equal(v.evals?.[0].rule, "allow.nothing");
  });
});

Deno.test("evals: the token comes from the env var named by tokenEnv", async () => {
  await withStandIn(bySource({}), async (s) => {
    await judgeCommand(s, "node -e 'console.log(1)'", {
      decisions: { tokenEnv: "MY_DECISIONS_KEY" },
      env: { MY_DECISIONS_KEY: "other-token", [ENV_NAME]: TOKEN },
    });
    assert.equal(s.requests[0].authorization, "Bearer other-token");
    assert.equal(s.requests[0].body.state.language, "javascript");
  });
});

Deno.test("evals: zero requests without a decisions block (absent or null)", async () => {
  const realFetch = globalThis.fetch;
  let fetches = 0;
  globalThis.fetch = (...args: Parameters<typeof fetch>) => {
    fetches++;
    return realFetch(...args);
  };
  try {
    await withStandIn(bySource({}), async (s) => {
      for (const decisions of [undefined, null]) {
        const config = configWith(decisions);
        assert.equal(config.decisions, null);
        const c = ctx();
        const commands = [
          "python3 -c 'import os; os.remove(\"x\")'",
          "bash -c 'rm -rf /'",
          "python3 <<'EOF'\nprint(1)\nEOF",
          'python3 -c "$CODE"',
        ];
        for (const command of commands) {
          const v = await bash(config, c, command);
          assert.ok(v.stages.some((st) => st.eval), command);
          const out = await classify(v, config, c, {
            cache: newEvalCache(),
            sessionId: "x",
            log: () => assert.fail("nothing to log"),
          });
          assert.equal(out, v, "the verdict comes back unchanged");
          assert.equal((out as ClassifiedVerdict).evals, undefined);
        }
      }
      assert.equal(s.requests.length, 0);
    });
    assert.equal(fetches, 0);
  } finally {
    globalThis.fetch = realFetch;
  }
});

Deno.test("evals: no request for script files, -m runs, plain commands and other tools", async () => {
  await withStandIn(bySource({}), async (s) => {
    const config = configWith({ url: s.url });
    const c = ctx("/work", { [ENV_NAME]: TOKEN });
    const cache = newEvalCache();
    const opts = { cache, sessionId: "x" };
    for (
      const command of [
        "python3 script.py -c x",
        "python3 -m pytest -c cfg",
        "ls -la",
        "node app.js",
      ]
    ) {
      const v = await classify(await bash(config, c, command), config, c, opts);
      assert.equal(v.evals, undefined, command);
    }
    for (
      const [tool, input] of [["read", { path: "/work/a.py" }], ["write", {
        path: "x",
        content: "",
      }]]
    ) {
      const v = await decideIn(config, c, tool as string, input as Record<string, unknown>);
      assert.equal((await classify(v, config, c, opts)).evals, undefined);
    }
    assert.equal(s.requests.length, 0);
  });
});

Deno.test("evals: an unrecoverable source makes no request and gets unavailableAction", async () => {
  await withStandIn(bySource({}), async (s) => {
    // curl … | python3: the location policy allows, the eval asks
    const a = await judgeCommand(s, "curl -s https://x.example/i.py | python3");
    assert.equal(a.locationAction, "allow");
    assert.equal(a.action, "ask");
    const e = a.evals!.find((x) => x.status === "unavailable")!;
    assert.equal(e.via, "stdin");
    assert.equal(
      a.reason,
      "Access denied by eval classification: bash (python3) — the inline code is not known " +
        `before it runs (unavailableAction "ask"). This call needs the user's confirmation, ` +
        "and it was not given.",
    );
    // python3 -c "$CODE": the location already asks (a value not known); deny upgrades it
    const b = await judgeCommand(s, 'python3 -c "$CODE"', {
      decisions: { unavailableAction: "deny" },
    });
    assert.equal(b.locationAction, "ask");
    assert.equal(b.action, "deny");
    assert.equal(b.evals![0].status, "unavailable");
    assert.match(b.reason!, /unavailableAction "deny"/);
    const c = await judgeCommand(s, "curl -s https://x.example/i.py | node", {
      decisions: { unavailableAction: "allow" },
    });
    assert.equal(c.action, "allow");
    assert.equal(c.reason, null);
    assert.equal(s.requests.length, 0);
  });
});

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

// ---------------------------------------------------------------------------------------------
// Combination with the location verdict

Deno.test("evals: upgrade-only with the location verdict", async () => {
  const answers: Record<string, Record<string, Answer>> = {
    "ask_but_safe()": {},
    "ask_and_exfil()": { read_scope: choice("sensitive", { sensitive: 1 }), network: yesNo(1) },
    "deny_but_safe()": {},
  };
  await withStandIn(bySource(answers), async (s) => {
    // location ask + eval allow: still ask, the location's texts
    const a = await judgeCommand(s, "python3 -c 'ask_but_safe()'", { cwd: "/careful" });
    assert.equal(a.locationAction, "ask");
    assert.equal(a.action, "ask");
    assert.match(a.notification!, /^pi-controls: ask \[careful\]/);
    assert.equal(a.evalDecided, undefined);
    // location ask + eval deny: deny
    const b = await judgeCommand(s, "python3 -c 'ask_and_exfil()'", { cwd: "/careful" });
    assert.equal(b.action, "deny");
    assert.match(b.reason!, /rule deny\.exfil/);
    // location deny: no request at all, the eval cannot change it
    const before = s.requests.length;
    const c = await judgeCommand(s, "python3 -c 'deny_but_safe()'", { cwd: "/careful" });
    assert.equal(c.action, "deny");
    assert.equal(c.evals![0].status, "skipped");
    assert.equal(s.requests.length, before);
    // a nudge upgraded to ask loses its nudge
    const nudgeConfig = {
      policies: {
        n: { defaultAction: "allow", rules: [{ action: "nudge", tool: "bash", message: "m" }] },
      },
      locations: { "/n": "n" },
    };
    const n = await judgeCommand(s, "python3 -c 'ask_and_exfil()'", {
      cwd: "/n",
      extra: nudgeConfig,
    });
    assert.equal(n.locationAction, "nudge");
    assert.equal(n.action, "deny");
    assert.equal(n.nudge, undefined);
  });
});

Deno.test("evals: several eval stages — the strictest wins; bash -c and heredocs are judged", async () => {
  const answers: Record<string, Record<string, Answer>> = {
    "safe()": {},
    "rm_all()": { destructive: yesNo(1) },
    "print(2)\n": { network: yesNo(1), read_scope: choice("sensitive", { sensitive: 1 }) },
  };
  await withStandIn(bySource(answers), async (s) => {
    const v = await judgeCommand(s, "python3 -c 'safe()' && node -e 'rm_all()'");
    assert.equal(v.action, "ask");
    assert.equal(v.evalDecided?.interpreter, "node");
    assert.deepEqual(v.evals!.map((e) => e.rule), ["allow.nothing", "ask.destructive"]);
    const h = await judgeCommand(s, "python3 <<'EOF'\nprint(2)\nEOF");
    assert.equal(h.action, "deny");
    assert.equal(h.evals![0].via, "heredoc");
    const b = await judgeCommand(s, `bash -c "python3 -c 'safe()'"`);
    assert.deepEqual(b.evals!.map((e) => [e.language, e.status]), [
      ["shell", "classified"],
      ["python", "classified"],
    ]);
  });
});

Deno.test("evals: an eval deny counts for agentTimeout, and its escalated ask names the eval", async () => {
  const answers = {
    "steal()": { read_scope: choice("sensitive", { sensitive: 1 }), network: yesNo(1) },
  };
  await withStandIn(bySource(answers), async (s) => {
    const config = configWith({ url: s.url }, {
      agentTimeout: { maxDenies: 1, windowSeconds: 60 },
    });
    const c = ctx();
    const opts = { cache: newEvalCache(), sessionId: "x" };
    const state = newSession();
    const results = [];
    for (let i = 0; i < 2; i++) {
      const v = await classify(await bash(config, c, "python3 -c 'steal()'"), config, c, opts);
      results.push(evalSessionTexts(applySession(state, v, config, 1000 + i), v));
    }
    assert.equal(results[0].action, "deny");
    assert.equal(results[1].action, "ask");
    assert.equal(results[1].escalation, "agentTimeout");
    assert.equal(
      results[1].notification,
      "pi-controls: ask [eval classification]: bash — python3 -c 'steal()' — rule deny.exfil " +
        "(sensitive read + network) (agentTimeout: 1 denied calls in 60s)",
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Failures

Deno.test("evals: every failure maps to errorAction with its kind", async () => {
  let delay: Promise<void> = Promise.resolve();
  let release = () => {};
  const replies: Record<string, () => StandInReply | Promise<StandInReply>> = {
    "e401()": () => new Response("no", { status: 401 }),
    "e403()": () => new Response("forbidden", { status: 403 }),
    "e500()": () => new Response("boom", { status: 500 }),
    "e429()": () => new Response("slow down", { status: 429 }),
    "slow()": async () => {
      await delay;
      return replyWith({});
    },
    "notjson()": () => new Response("<html>", { status: 200 }),
    "noanswers()": () => ({ id: "x", usage: {} }),
    "missing()": () => {
      const r = replyWith({});
      delete (r.answers as Record<string, unknown>).read_scope;
      return r;
    },
    "badnoul()": () => {
      const r = replyWith({});
      (r.answers as Record<string, unknown>).network = { type: "noul", noul: "0.2" };
      return r;
    },
    "outofrange()": () => replyWith({ exec: yesNo(1.5) }),
    "badlabel()": () => replyWith({ write_scope: choice("elsewhere", { elsewhere: 1 }) }),
    "badtype()": () => {
      const r = replyWith({});
      (r.answers as Record<string, unknown>).destructive = { type: "choice", choice: "yes" };
      return r;
    },
    "noconfidence()": () => {
      const r = replyWith({});
      delete (r.answers as Record<string, Record<string, unknown>>).read_scope.confidence;
      return r;
    },
  };
  await withStandIn(
    (body) => (replies[String(body.state.source)] ?? (() => replyWith({})))(),
    async (s) => {
      const kind = async (src: string, decisions: DecisionsConfig = {}) => {
        const v = await judgeCommand(s, `python3 -c '${src}'`, { decisions });
        return { v, e: v.evals![0] };
      };
      for (const [src, k, status] of [["e401()", "auth", 401], ["e403()", "auth", 403]] as const) {
        const { v, e } = await kind(src);
        assert.equal(e.status, "error");
        assert.equal(e.error?.kind, k);
        assert.equal(e.error?.status, status);
        assert.equal(v.action, "ask");
      }
      for (const [src, status] of [["e500()", 500], ["e429()", 429]] as const) {
        const { e } = await kind(src);
        assert.equal(e.error?.kind, "http");
        assert.equal(e.error?.status, status);
      }
      for (
        const src of [
          "notjson()",
          "noanswers()",
          "missing()",
          "badnoul()",
          "outofrange()",
          "badlabel()",
          "badtype()",
          "noconfidence()",
        ]
      ) {
        const { e } = await kind(src);
        assert.equal(e.error?.kind, "malformed", src);
      }
      // timeout: the stand-in holds the reply longer than timeoutMs
      delay = new Promise((r) => release = r);
      try {
        const { v, e } = await kind("slow()", { timeoutMs: 50, errorAction: "deny" });
        assert.equal(e.error?.kind, "timeout");
        assert.equal(v.action, "deny");
        assert.match(
          v.reason!,
          /could not classify it \(timeout: no answer within 50 ms; errorAction "deny"\)/,
        );
      } finally {
        release();
      }
      // errorAction allow: a failure changes nothing
      const { v: allowed } = await kind("e500()", { errorAction: "allow" });
      assert.equal(allowed.action, "allow");
      assert.equal(allowed.reason, null);
    },
  );
  // network: nothing listens on the port any more
  const gone = startStandIn(() => replyWith({}));
  const url = gone.url;
  await gone.close();
  const config = configWith({ url });
  const c = ctx();
  const v = await classify(await bash(config, c, "python3 -c 'x'"), config, c, {
    cache: newEvalCache(),
    sessionId: "x",
  });
  assert.equal(v.evals![0].error?.kind, "network");
  assert.equal(v.action, "ask");
  // no token: no request at all
  await withStandIn(bySource({}), async (s) => {
    const nt = await judgeCommand(s, "python3 -c 'x'", { env: {} });
    assert.equal(nt.evals![0].error?.kind, "no_token");
    assert.match(nt.evals![0].error!.message, /OPENROUTER_API_KEY is not set/);
    assert.equal(nt.action, "ask");
    assert.equal(s.requests.length, 0);
  });
});

Deno.test("evals: the turn's signal aborts the request", async () => {
  let release = () => {};
  const held = new Promise<void>((r) => release = r);
  await withStandIn(async () => {
    await held;
    return replyWith({});
  }, async (s) => {
    const controller = new AbortController();
    const pending = judgeCommand(s, "python3 -c 'x'", { classify: { signal: controller.signal } });
    while (s.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const v = await pending;
    release();
    assert.equal(v.evals![0].error?.kind, "aborted");
    assert.equal(v.action, "ask");
  });
});

// ---------------------------------------------------------------------------------------------
// Truncation, cache, skipping, logging

Deno.test("evals: sources over maxSourceBytes are truncated and flagged", async () => {
  const long = "x = 1\n".repeat(20); // 120 bytes
  await withStandIn(bySource({}), async (s) => {
    const v = await judgeCommand(s, `python3 -c '${long}'`, { decisions: { maxSourceBytes: 32 } });
    const state = s.requests[0].body.state;
    assert.equal(state.source, long.slice(0, 32));
    assert.equal(state.truncated, true);
    assert.equal(state.source_bytes, 120);
    assert.equal(v.evals![0].truncated, true);
    await judgeCommand(s, "python3 -c 'short'", { decisions: { maxSourceBytes: 32 } });
    assert.equal(s.requests[1].body.state.truncated, undefined);
  });
  // never inside a UTF-8 character
  assert.deepEqual(truncateSource("aé€", 3), { text: "aé", truncated: true });
  assert.deepEqual(truncateSource("aé€", 5), { text: "aé", truncated: true });
  assert.deepEqual(truncateSource("aé€", 6), { text: "aé€", truncated: false });
});

Deno.test("evals: the cache sends one request for repeated sources, per cache", async () => {
  let fail = true;
  await withStandIn((body) => {
    if (body.state.source === "flaky()" && fail) {
      fail = false;
      return new Response("oops", { status: 502 });
    }
    return replyWith({});
  }, async (s) => {
    const cache = newEvalCache();
    await judgeCommand(s, "python3 -c 'print(1)'", { cache });
    const again = await judgeCommand(s, "python3 -c 'print(1)'", { cache });
    assert.equal(s.requests.length, 1);
    assert.equal(again.evals![0].cached, true);
    // the same source twice in one command, classified concurrently: one request
    await judgeCommand(s, "python3 -c 'twice()' | python3 -c 'twice()'", { cache });
    assert.equal(s.requests.length, 2);
    // another cache (another session): asked again
    await judgeCommand(s, "python3 -c 'print(1)'", { cache: newEvalCache() });
    assert.equal(s.requests.length, 3);
    // a failure is not remembered
    const first = await judgeCommand(s, "python3 -c 'flaky()'", { cache });
    assert.equal(first.evals![0].error?.kind, "http");
    const second = await judgeCommand(s, "python3 -c 'flaky()'", { cache });
    assert.equal(second.evals![0].status, "classified");
    assert.equal(s.requests.length, 5);
    assert.equal(cache.requests, 4);
  });
});

Deno.test("evals: session allows and approval rules skip the API", async () => {
  await withStandIn(bySource({}), async (s) => {
    const skipped = await judgeCommand(s, "python3 -c 'x'", {
      classify: { skip: "allowed for session" },
    });
    assert.equal(skipped.evals![0].status, "skipped");
    assert.equal(skipped.evals![0].skipped, "allowed for session");
    assert.equal(skipped.action, "allow");
    // an approval rule that decided a target (policy asks, approval allows)
    const approvals = {
      approvalRules: [{ action: "allow", tool: "bash", pattern: "python3 -c *ask*" }],
    };
    const a = await judgeCommand(s, "python3 -c 'ask_me()'", { cwd: "/careful", extra: approvals });
    assert.equal(a.locationAction, "allow");
    assert.ok(a.stages[0].targets.some((t) => t.approval));
    assert.equal(a.evals![0].skipped, "an approval rule allows it");
    // an approval rule for the command where the policy already allows it
    const b = await judgeCommand(s, "python3 -c 'x'", {
      extra: { approvalRules: [{ action: "allow", tool: "bash", pattern: "python3 -c x" }] },
    });
    assert.equal(b.evals![0].status, "skipped");
    assert.equal(s.requests.length, 0);
  });
});

Deno.test("evals: each classification logs its full trace, never the token", async () => {
  const entries: Record<string, unknown>[] = [];
  await withStandIn(
    bySource({
      "leak()": { read_scope: choice("sensitive", { sensitive: 1 }), network: yesNo(1) },
    }),
    async (s) => {
      const v = await judgeCommand(s, "python3 -c 'leak()'", {
        classify: { log: (e) => entries.push(e), origin: "test", toolCallId: "call-1" },
      });
      await judgeCommand(s, 'python3 -c "$X"', { classify: { log: (e) => entries.push(e) } });
      await judgeCommand(s, "python3 -c 'e()'", {
        env: {},
        classify: { log: (e) => entries.push(e) },
      });
      assert.equal(entries.length, 3);
      const [t, u, e] = entries as Json[];
      assert.equal(t.event, "eval");
      assert.equal(t.origin, "test");
      assert.equal(t.toolCallId, "call-1");
      assert.equal(t.status, "classified");
      assert.deepEqual(t.request.body.state, s.requests[0].body.state);
      assert.deepEqual(t.request.body.questions, JSON.parse(JSON.stringify(QUESTIONS)));
      assert.equal(t.request.url, s.url);
      assert.deepEqual(t.response.usage, {
        prompt_tokens: 120,
        completion_tokens: 7,
        cost: 0.00002,
      });
      assert.equal(t.response.id, "dec-test");
      assert.equal(t.response.answers.network.noul, 1);
      assert.equal(t.settings.backstopThreshold, 40);
      assert.equal(t.settings.weights.destructive, 100);
      assert.equal(t.settings.yesThreshold, 0.7);
      assert.equal(t.rule, "deny.exfil");
      assert.equal(t.buckets.read_scope, "sensitive");
      assert.equal(t.breakdown.length, 10);
      assert.equal(t.score, 65);
      assert.equal(t.action, "deny");
      assert.equal(u.status, "unavailable");
      assert.equal(u.action, "ask");
      assert.equal(e.status, "error");
      assert.equal(e.error.kind, "no_token");
      for (const entry of entries) assert.ok(!JSON.stringify(entry).includes(TOKEN));
      // the decision line carries a summary of the evals
      const line = decisionLine({
        tool: "bash",
        verdict: v,
        final: "deny",
        mode: "enforce",
        input: {},
      });
      assert.equal(line.locationAction, "allow");
      assert.deepEqual(line.evals, [{
        stage: 0,
        interpreter: "python3",
        via: "-c",
        status: "classified",
        action: "deny",
        rule: "deny.exfil",
        score: 65,
      }]);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// Wiring: the extension and the CLI

interface Tree {
  root: string;
  home: string;
  agent: string;
  project: string;
  log: string;
}

function tree(config: object): Tree {
  const root = mkdtempSync(join(tmpdir(), "pi-controls-evals-"));
  const home = join(root, "home");
  const agent = join(home, ".pi", "agent");
  const project = join(home, "project");
  mkdirSync(join(agent, "extensions"), { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(agent, "extensions", "pi-controls.jsonc"), JSON.stringify(config));
  return { root, home, agent, project, log: join(agent, "extensions", "pi-controls.log") };
}

function readLog(t: Tree): Json[] {
  return readFileSync(t.log, "utf8").trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("evals: the extension classifies after decide, skips session allows, logs", async () => {
  const answers = {
    "steal()": { read_scope: choice("sensitive", { sensitive: 1 }), network: yesNo(1) },
    "unsure()": { write_scope: choice("unknown", { unknown: 1 }) },
  };
  await withStandIn(bySource(answers), async (s) => {
    const t = tree({
      policies: { open: { defaultAction: "allow", rules: [] } },
      locations: { "~/project": "open" },
      decisions: { url: s.url },
    });
    try {
      const handlers = new Map<string, (e: never, c: PiContext) => unknown>();
      const pi: PiApi = {
        on: (name, h) => handlers.set(name, h),
        registerCommand: () => {},
      };
      createExtension(pi, { env: { HOME: t.home, [ENV_NAME]: TOKEN } });
      const notes: string[] = [];
      let answer = "Allow for session";
      const dialogs: string[] = [];
      const offered: string[][] = [];
      const piCtx = (hasUI: boolean): PiContext => ({
        cwd: t.project,
        hasUI,
        ui: {
          notify: (m) => notes.push(m),
          select: (title, options) => {
            dialogs.push(title);
            offered.push(options);
            return Promise.resolve(answer);
          },
          setStatus: () => {},
        },
      });
      handlers.get("session_start")!({} as never, piCtx(true));
      const toolCall = (id: string, command: string, hasUI = true) =>
        handlers.get("tool_call")!(
          { toolName: "bash", toolCallId: id, input: { command } } as never,
          piCtx(hasUI),
        ) as Promise<{ block: true; reason: string } | undefined>;

      const denied = await toolCall("c1", "python3 -c 'steal()'");
      assert.equal(denied?.block, true);
      assert.match(denied!.reason, /^Access denied by eval classification: .*rule deny\.exfil/);
      assert.equal(s.requests.length, 1);

      // headless ask: denied with the eval's reason
      const headless = await toolCall("c2", "python3 -c 'unsure()'", false);
      assert.match(headless!.reason, /rule ask\.uncertain .*nobody could give it/);
      assert.equal(s.requests.length, 2);

      // ask with a UI: Allow for session; then the same call needs no request and no dialog
      const asked = await toolCall("c3", "python3 -c 'unsure()'");
      assert.equal(asked, undefined);
      assert.match(dialogs[0], /^pi-controls: ask \[eval classification\]: bash — python3 -c/);
      assert.deepEqual(offered[0], ["Allow once", "Allow for session", "Deny"]);
      assert.equal(s.requests.length, 2, "served from the session cache");
      answer = "Deny";
      const again = await toolCall("c4", "python3 -c 'unsure()'");
      assert.equal(again, undefined, "allowed for session");
      assert.equal(dialogs.length, 1);

      // a new session: a fresh cache
      handlers.get("session_start")!({} as never, piCtx(true));
      await toolCall("c5", "python3 -c 'steal()'");
      assert.equal(s.requests.length, 3);
      assert.notEqual(s.requests[2].body.session_id, s.requests[0].body.session_id);

      const log = readLog(t);
      const evalLines = log.filter((l) => l.event === "eval");
      assert.equal(evalLines.length, 4, "c4 was skipped (allowed for session)");
      assert.equal(evalLines[0].toolCallId, "c1");
      assert.equal(evalLines[0].origin, "extension");
      const decision = log.find((l) => l.event === "decision" && l.toolCallId === "c1")!;
      assert.equal(decision.action, "deny");
      assert.equal(decision.engineAction, "deny");
      assert.equal(decision.locationAction, "allow");
      assert.equal(decision.evals[0].rule, "deny.exfil");
      const skipped = log.find((l) => l.event === "decision" && l.toolCallId === "c4")!;
      assert.equal(skipped.evals[0].skipped, "allowed for session");
      assert.ok(!readFileSync(t.log, "utf8").includes(TOKEN));
    } finally {
      rmSync(t.root, { recursive: true, force: true });
    }
  });
});

async function cli(args: string[], t: Tree, stdin = "") {
  let out = "";
  let err = "";
  const io: CliIo = {
    out: (x) => out += x,
    err: (x) => err += x,
    env: { HOME: t.home, [ENV_NAME]: TOKEN },
    cwd: t.project,
    stdin: () => Promise.resolve(stdin),
  };
  const code = await main(args, io);
  return { code, out, err };
}

Deno.test("evals: pi-controls check and replay classify with a decisions block", async () => {
  const answers = {
    "steal()": { read_scope: choice("sensitive", { sensitive: 1 }), network: yesNo(1) },
  };
  await withStandIn(bySource(answers), async (s) => {
    const t = tree({
      policies: { open: { defaultAction: "allow", rules: [] } },
      locations: { "~/project": "open" },
      decisions: { url: s.url },
    });
    try {
      const one = await cli(
        ["check", "--tool", "bash", "--input", JSON.stringify({ command: "python3 -c 'steal()'" })],
        t,
      );
      assert.equal(one.code, 4, one.err); // deny
      const v = JSON.parse(one.out);
      assert.equal(v.action, "deny");
      assert.equal(v.evals[0].rule, "deny.exfil");
      assert.equal(s.requests.length, 1);

      // --jsonl: one cache per run
      const lines = [
        { id: 1, tool: "bash", input: { command: "python3 -c 'steal()'" } },
        { id: 2, tool: "bash", input: { command: "python3 -c 'steal()'" } },
        { id: 3, tool: "bash", input: { command: "ls" } },
      ].map((l) => JSON.stringify(l)).join("\n");
      const many = await cli(["check", "--jsonl"], t, lines);
      const rows = many.out.trim().split("\n").map((l) => JSON.parse(l));
      assert.deepEqual(rows.map((r) => r.action), ["deny", "deny", "allow"]);
      assert.equal(rows[1].evals[0].cached, true);
      assert.equal(s.requests.length, 2);

      // replay
      const session = join(t.root, "s.jsonl");
      const call = (id: string, command: string, ts: number) =>
        JSON.stringify({
          type: "message",
          timestamp: new Date(ts).toISOString(),
          message: {
            role: "assistant",
            content: [{ type: "toolCall", id, name: "bash", arguments: { command } }],
            timestamp: ts,
          },
        });
      writeFileSync(
        session,
        [
          JSON.stringify({ type: "session", id: "s", cwd: t.project }),
          call("r1", "python3 -c 'steal()'", 1),
          call("r2", "python3 -c 'fine()'", 2),
          call("r3", "git status", 3),
        ].join("\n"),
      );
      const replay = await cli(["replay", "--json", session], t);
      assert.equal(replay.code, 0, replay.err);
      const parsed = JSON.parse(replay.out);
      assert.deepEqual(parsed.rows.map((r: { action: string }) => r.action), [
        "deny",
        "allow",
        "allow",
      ]);
      assert.match(parsed.rows[0].reason, /rule deny\.exfil/);
      assert.equal(s.requests.length, 4);
      const table = await cli(["replay", session], t);
      assert.match(table.out, /deny +bash +open +python3 -c 'steal\(\)'/);
      assert.equal(s.requests.length, 6, "each CLI run has its own cache");

      const log = readLog(t).filter((l) => l.event === "eval");
      assert.deepEqual([...new Set(log.map((l) => l.origin))].sort(), ["check", "replay"]);
    } finally {
      rmSync(t.root, { recursive: true, force: true });
    }
  });
});

Deno.test("evals: check and replay send nothing without a decisions block", async () => {
  await withStandIn(bySource({}), async (s) => {
    const t = tree({
      policies: { open: { defaultAction: "allow", rules: [] } },
      locations: { "~/project": "open" },
    });
    try {
      const one = await cli(
        ["check", "--tool", "bash", "--input", JSON.stringify({ command: "python3 -c 'x'" })],
        t,
      );
      assert.equal(JSON.parse(one.out).evals, undefined);
      const session = join(t.root, "s.jsonl");
      writeFileSync(
        session,
        [
          JSON.stringify({ type: "session", id: "s", cwd: t.project }),
          JSON.stringify({
            type: "message",
            message: {
              role: "assistant",
              content: [{
                type: "toolCall",
                id: "a",
                name: "bash",
                arguments: { command: "node -e 1" },
              }],
              timestamp: 1,
            },
          }),
        ].join("\n"),
      );
      const replay = await cli(["replay", "--json", session], t);
      assert.equal(JSON.parse(replay.out).rows[0].verdict.evals, undefined);
      assert.equal(s.requests.length, 0);
    } finally {
      rmSync(t.root, { recursive: true, force: true });
    }
  });
});
