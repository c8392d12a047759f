/**
 * A verdict as a readable trace: stages, targets, locations, policies, candidate rules.
 *
 * @module
 */
import type { Config, Rule, ToolCall, Verdict } from "./types.ts";

function ruleText(r: Rule): string {
  const parts = [`${r.action} tool "${r.tool}"`];
  if (r.pattern !== undefined) parts.push(`pattern "${r.pattern}"`);
  if (r.preset) parts.push(`(${r.preset})`);
  if (r.policy) parts.push(`for policy "${r.policy}"`);
  return parts.join(" ");
}

/** Render a verdict as an indented trace. */
export function explainVerdict(v: Verdict, call: ToolCall, config: Config | null): string {
  const out: string[] = [];
  out.push(`call: ${call.tool} ${JSON.stringify(call.input)}`);
  if (v.configErrors) {
    out.push(`verdict: deny — the config is broken`);
    return out.join("\n");
  }
  if (v.parseError) out.push(`analysis: ${v.parseError} (never allowed)`);
  v.stages.forEach((s, i) => {
    const head = s.command === null ? `target set` : `stage ${i + 1} [${s.origin}]: ${s.command}`;
    out.push(`${head}${s.dynamic ? "  (command not static)" : ""}`);
    out.push(`  cwd: ${s.cwd}`);
    for (const t of s.targets) {
      const where = t.path || "(anywhere)";
      out.push(
        `  ${t.kind} ${where}${t.resolved ? ` -> ${t.resolved}` : ""}${
          t.kind !== "cwd" && t.source && t.source !== t.path
            ? `  (from ${JSON.stringify(t.source)})`
            : ""
        }`,
      );
      out.push(
        `    location: ${t.location ?? "(none)"}  policy: ${t.policy ?? "(none: fail-open)"}`,
      );
      const policy = config && t.policy ? config.policies[t.policy] : undefined;
      if (policy && !t.candidates?.length) {
        out.push(`    no rule matches; defaultAction ${policy.defaultAction}`);
      }
      for (const c of t.candidates ?? []) {
        const win = c.rule === t.rule ? "  <- wins" : "";
        const form = c.form && c.form !== s.command ? `  (as "${c.form}")` : "";
        out.push(`    candidate: ${ruleText(c.rule)}  score ${c.score}${form}${win}`);
      }
      if (t.approval) out.push(`    approval: ${ruleText(t.approval)}`);
      if (t.protection) {
        out.push(`    pathProtection: "${t.protection.glob}" -> ${t.protection.action}`);
      }
      if (t.note) out.push(`    note: ${t.note}`);
      out.push(`    => ${t.action}${t.rule ? ` (${ruleText(t.rule)}, score ${t.score})` : ""}`);
    }
    out.push(`  stage => ${s.action}`);
  });
  out.push(`verdict: ${v.action}${v.policies.length ? ` [${v.policies.join(", ")}]` : ""}`);
  if (v.notification) out.push(`notification: ${v.notification}`);
  if (v.reason) out.push(`reason: ${v.reason}`);
  return out.join("\n");
}
