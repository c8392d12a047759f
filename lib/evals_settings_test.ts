/** Eval classification settings: the defaults, the weights, and the config checks of the block. */
import assert from "node:assert/strict";
import { loadConfigTexts } from "./config.ts";
import { DECISIONS_DEFAULTS, decisionsSettings, DEFAULT_WEIGHTS } from "./evals_settings.ts";

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
