/**
 * The commented starter config `init` writes and `replay` uses when no config exists.
 *
 * @module
 */

/** The starter config text (JSONC). */
export const STARTER_CONFIG = `// pi-controls config (JSONC: comments and trailing commas are fine).
// Written by \`pi-controls init\`. Reference: the README's "Config Reference".
{
  // For your editor (completion and checks; pi-controls ignores it): the schema pi-controls ships,
  // relative to this file where \`pi install npm:pi-controls\` puts it. Elsewhere, point it at
  // schema/pi-controls.schema.json of your copy of pi-controls, or remove the line.
  "$schema": "../npm/node_modules/pi-controls/schema/pi-controls.schema.json",
  "policies": {
    // The project pi runs in: work freely, confirm what git cannot bring back.
    "project": {
      "defaultAction": "allow",
      "rules": [
        // Removing files is allowed; any option (-r, -f, --recursive, wherever it stands) asks.
        { "action": "ask", "tool": "bash", "pattern": "rm -*" },
        { "action": "ask", "tool": "bash", "pattern": "rm * -*" },
        { "action": "ask", "tool": "bash", "pattern": "find *-delete*" },
        { "action": "ask", "tool": "bash", "pattern": "sudo *" },
        // Work git cannot bring back. "git *x" also matches git's options before x (git -C dir x).
        { "action": "ask", "tool": "bash", "pattern": "git *reset*--hard*" },
        { "action": "ask", "tool": "bash", "pattern": "git *checkout -- *" },
        { "action": "ask", "tool": "bash", "pattern": "git *checkout * -- *" },
        { "action": "ask", "tool": "bash", "pattern": "git *checkout .*" },
        { "action": "ask", "tool": "bash", "pattern": "git *checkout -f*" },
        { "action": "ask", "tool": "bash", "pattern": "git *checkout --force*" },
        { "action": "ask", "tool": "bash", "pattern": "git restore *" },
        { "action": "ask", "tool": "bash", "pattern": "git -* restore *" },
        { "action": "ask", "tool": "bash", "pattern": "git clean*" },
        { "action": "ask", "tool": "bash", "pattern": "git -* clean*" },
        // ... but these exact forms only print or unstage (a whole command, no "*": nothing added).
        { "action": "allow", "tool": "bash", "pattern": "git clean -n" },
        { "action": "allow", "tool": "bash", "pattern": "git clean -nd" },
        { "action": "allow", "tool": "bash", "pattern": "git clean --dry-run" },
        { "action": "allow", "tool": "bash", "pattern": "git clean --dry-run -d" },
        { "action": "allow", "tool": "bash", "pattern": "git restore --staged ." },
        // Unstaging writes only the index; with -W/--worktree (anywhere after it) it asks again.
        { "action": "allow", "tool": "bash", "pattern": "git restore --staged*" },
        { "action": "ask", "tool": "bash", "pattern": "git restore --staged *-*W*" },
        { "action": "ask", "tool": "bash", "pattern": "git restore --staged *--w*" },
        // -S is --staged (the shorter pattern allows it; the longer ones ask again where W, or a
        // letter after -S that may hide one, follows).
        { "action": "allow", "tool": "bash", "pattern": "git restore -S*" },
        { "action": "ask", "tool": "bash", "pattern": "git restore -S *-*W*" },
        { "action": "ask", "tool": "bash", "pattern": "git restore -S *--w*" },
        { "action": "ask", "tool": "bash", "pattern": "git restore -SW*" },
        { "action": "ask", "tool": "bash", "pattern": "git restore -Sq*" },
        { "action": "ask", "tool": "bash", "pattern": "git restore -Sp*" },
        { "action": "ask", "tool": "bash", "pattern": "git restore -Ss*" },
        { "action": "ask", "tool": "bash", "pattern": "git restore -Sm*" },
        { "action": "ask", "tool": "bash", "pattern": "git restore -SU*" },
        { "action": "ask", "tool": "bash", "pattern": "git restore -S-*" },
        { "action": "ask", "tool": "bash", "pattern": "git *stash drop*" },
        { "action": "ask", "tool": "bash", "pattern": "git *stash clear*" },
        // Pushing and publishing ask; forcing a push is denied (the longer pattern is the more
        // specific one).
        { "action": "ask", "tool": "bash", "pattern": "git push*" },
        { "action": "ask", "tool": "bash", "pattern": "git -* push*" },
        { "action": "deny", "tool": "bash", "pattern": "git push --force*" },
        { "action": "deny", "tool": "bash", "pattern": "git push -f*" },
        { "action": "deny", "tool": "bash", "pattern": "git push * --force*" },
        { "action": "deny", "tool": "bash", "pattern": "git push * -f*" },
        { "action": "deny", "tool": "bash", "pattern": "git push * +*" },
        { "action": "ask", "tool": "bash", "pattern": "npm publish*" },
        { "action": "ask", "tool": "bash", "pattern": "lerna publish*" },
        { "action": "ask", "tool": "bash", "pattern": "cargo publish*" },
        { "action": "ask", "tool": "bash", "pattern": "mkdocs gh-deploy*" }
      ]
    },
    // Everywhere else: look freely, ask before changing anything.
    "outside": {
      "defaultAction": "ask",
      "rules": [
        "$safe-bash", // ~150 read-only commands: cat, ls, grep, git status, ...
        { "action": "allow", "tool": "read" },
        { "action": "allow", "tool": "grep" },
        { "action": "allow", "tool": "find" },
        { "action": "allow", "tool": "ls" }
      ]
    }
  },
  "locations": {
    "/": "outside",
    "$cwd": "project", // the directory pi was started in
    "/tmp": "project"
  },
  // Paths no rule or approval can open up. A glob without "/" matches a name at any depth.
  "pathProtection": {
    ".env": "ask",
    "*.pem": "deny",
    "id_rsa*": "deny",
    "id_ed25519*": "deny",
    "~/.ssh/**": "deny",
    "~/.aws/**": "deny",
    "~/.gnupg/**": "deny"
  },
  // Five denied calls within a minute: the next denied call asks you instead.
  "agentTimeout": { "maxDenies": 5, "windowSeconds": 60 },
  // Examples checked by \`pi-controls test\`: keep them true as you edit the rules.
  "tests": [
    { "tool": "bash", "input": { "command": "git status" }, "expect": "allow" },
    { "tool": "bash", "input": { "command": "git push --force origin main" }, "expect": "deny" },
    { "tool": "read", "input": { "path": "~/.ssh/id_ed25519" }, "expect": "deny" }
  ]
}
`;
