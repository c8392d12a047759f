/** The config and context the latency benchmarks decide under (deno bench and bench/report.ts). */
import { realFs } from "../lib/policy/fs_facts.ts";
import { configFrom } from "../lib/testing.ts";
import type { Context } from "../lib/types.ts";

/** A project policy with a deny-list, a read-only outside, and path protection. */
export const BENCH_CONFIG = configFrom({
  policies: {
    project: {
      defaultAction: "allow",
      rules: [
        { action: "ask", tool: "bash", pattern: "rm *" },
        { action: "deny", tool: "bash", pattern: "git push --force*" },
      ],
    },
    outside: { defaultAction: "ask", rules: ["$safe-bash", { action: "allow", tool: "read" }] },
  },
  locations: { "/": "outside", "$cwd": "project", "/tmp": "project" },
  pathProtection: { ".env": "ask", "~/.ssh/**": "deny" },
}, { agentDir: "/home/user/.pi/agent" }); // the gate's own files protected, as in pi

/** Decisions run in `cwd` against the real filesystem. */
export function benchContext(cwd: string): Context {
  return { cwd, home: "/home/user", env: { HOME: "/home/user" }, fs: realFs() };
}
