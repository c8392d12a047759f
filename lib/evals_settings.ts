/**
 * The settings of eval classification: the decisions block of a config with every default filled
 * in (spec, "Decisions fields"), and the backstop weights (RULINGS).
 *
 * @example
 * ```ts
 * decisionsSettings({ weights: { network: 50 } }).weights.network; // 50; the rest are defaults
 * ```
 *
 * @module
 */
import type { DecisionsConfig } from "./types.ts";

/** The actions an eval verdict can have. */
export type EvalAction = "allow" | "ask" | "deny";

/** The backstop weights, by signal. */
export interface Weights {
  destructive: number;
  obfuscated: number;
  network: number;
  exec: number;
  inferenceCall: number;
  writeSensitive: number;
  writeOutside: number;
  writeUnknown: number;
  readSensitive: number;
  readUnknown: number;
}

/** The default backstop weights (RULINGS). */
export const DEFAULT_WEIGHTS: Readonly<Weights> = Object.freeze({
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

/** A decisions block with every default filled in. */
export interface DecisionsSettings {
  /** The Decisions API endpoint. @default "https://openrouter.ai/api/alpha/decisions" */
  url: string;
  /** The environment variable the bearer token is read from. @default "OPENROUTER_API_KEY" */
  tokenEnv: string;
  /** The model that answers. @default "typesafe/jev-1.13" */
  model: string;
  /** How long a request may take. @default 15000 */
  timeoutMs: number;
  /** The longest source sent, in UTF-8 bytes (longer ones are cut and flagged). @default 32768 */
  maxSourceBytes: number;
  /** The action when the inline code is not known before it runs. @default "ask" */
  unavailableAction: EvalAction;
  /** The action when the API cannot classify. @default "ask" */
  errorAction: EvalAction;
  /** A yes/no probability at or above this is yes. @default 0.7 */
  yesThreshold: number;
  /** A yes/no probability at or below this is no. @default 0.3 */
  noThreshold: number;
  /** A choice at or above this confidence is taken as answered. @default 0.6 */
  choiceConfidence: number;
  /** Below choiceConfidence, risky labels' mass at or above this is uncertain. @default 0.35 */
  riskyMassThreshold: number;
  /** A backstop score at or above this asks. @default 40 */
  backstopThreshold: number;
  /** The backstop weights. @default DEFAULT_WEIGHTS */
  weights: Weights;
}

/** The defaults of the decisions block (spec, "Decisions fields"). */
export const DECISIONS_DEFAULTS: Readonly<DecisionsSettings> = Object.freeze({
  url: "https://openrouter.ai/api/alpha/decisions",
  tokenEnv: "OPENROUTER_API_KEY",
  model: "typesafe/jev-1.13",
  timeoutMs: 15000,
  maxSourceBytes: 32768,
  unavailableAction: "ask",
  errorAction: "ask",
  yesThreshold: 0.7,
  noThreshold: 0.3,
  choiceConfidence: 0.6,
  riskyMassThreshold: 0.35,
  backstopThreshold: 40,
  weights: DEFAULT_WEIGHTS,
});

/** The decisions block with the defaults filled in; weights deep-merge over the defaults. */
export function decisionsSettings(block: DecisionsConfig): DecisionsSettings {
  const out = { ...DECISIONS_DEFAULTS, weights: { ...DEFAULT_WEIGHTS } } as DecisionsSettings;
  for (const key of Object.keys(DECISIONS_DEFAULTS) as (keyof DecisionsSettings)[]) {
    if (key === "weights") continue;
    const v = block[key as keyof DecisionsConfig];
    if (v !== undefined && v !== null) (out as unknown as Record<string, unknown>)[key] = v;
  }
  for (const key of Object.keys(DEFAULT_WEIGHTS) as (keyof Weights)[]) {
    const w = block.weights?.[key];
    if (typeof w === "number") out.weights[key] = w;
  }
  return out;
}
