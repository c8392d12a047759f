/**
 * The vocabulary of a pi-controls config file: the keys each object allows, the actions each
 * field accepts, the `$safe-bash` marker and the decisions thresholds' defaults.
 *
 * @module
 */

/** The marker that expands to the built-in safe bash rules. */
export const SAFE_BASH = "$safe-bash";

/** The actions a rule or a test expectation may name. */
export const ACTIONS = ["allow", "nudge", "ask", "deny", "log", "sandbox"] as const;
/** A policy's defaultAction (nudge needs a message, so only rules have it). */
export const DEFAULT_ACTIONS = ["allow", "ask", "deny", "log", "sandbox"] as const;
/** The actions of a pathProtection glob. */
export const PROTECTION_ACTIONS = ["deny", "ask", "log"] as const;
/** The decisions block's unavailableAction and errorAction. */
export const DECISION_ACTIONS = ["allow", "ask", "deny"] as const;

/** The keys allowed at the top level of a config file. */
export const TOP_KEYS = [
  "$schema",
  "policies",
  "locations",
  "defaultPolicy",
  "approvalRules",
  "pathProtection",
  "agentTimeout",
  "nudgeTimeout",
  "decisions",
  "sandbox",
  "tests",
];
/** The keys of a policy. */
export const POLICY_KEYS = ["defaultAction", "rules"];
/** The keys of a rule (policy only in approvalRules). */
export const RULE_KEYS = ["action", "tool", "pattern", "message", "policy"];
/** The keys of agentTimeout (both required). */
export const AGENT_TIMEOUT_KEYS = ["maxDenies", "windowSeconds"];
/** The keys of nudgeTimeout (both required). */
export const NUDGE_TIMEOUT_KEYS = ["maxNudges", "windowSeconds"];
/** The keys of the decisions block. */
export const DECISIONS_KEYS = [
  "url",
  "tokenEnv",
  "model",
  "timeoutMs",
  "maxSourceBytes",
  "unavailableAction",
  "errorAction",
  "yesThreshold",
  "noThreshold",
  "choiceConfidence",
  "riskyMassThreshold",
  "backstopThreshold",
  "weights",
];
/** The keys of the decisions block's weights. */
export const WEIGHT_KEYS = [
  "destructive",
  "obfuscated",
  "network",
  "exec",
  "inferenceCall",
  "writeSensitive",
  "writeOutside",
  "writeUnknown",
  "readSensitive",
  "readUnknown",
];
/** The keys of the sandbox block. */
export const SANDBOX_KEYS = ["enabled", "network"];
/** The sandbox's network settings as words: unrestricted, or none at all. */
export const SANDBOX_NETWORK = ["unrestricted", "none"] as const;
/** The keys of the sandbox's network as an object: the hosts it may reach. */
export const SANDBOX_NETWORK_KEYS = ["allowedDomains"];
/** The keys of a test. */
export const TEST_KEYS = ["tool", "input", "cwd", "expect"];
/** The yesThreshold when the config sets none. */
export const DEFAULT_YES_THRESHOLD = 0.7;
/** The noThreshold when the config sets none. */
export const DEFAULT_NO_THRESHOLD = 0.3;
