import { checkActions, configFrom, ctxIn } from "../testing.ts";

const home = "/home/user";
/** The project allowed, reads outside it asked, `.env` asked and `~/.ssh` denied. */
const project = configFrom({
  policies: {
    project: { defaultAction: "allow", rules: [] },
    outside: { defaultAction: "ask", rules: [] },
  },
  locations: { "/": "outside", "/p": "project" },
  pathProtection: { ".env": "ask", "~/.ssh/**": "deny" },
}, { home, agentDir: `${home}/.pi/agent` });
const ctx = ctxIn("/p", { files: ["/p/src/main.ts", "/p/.env", `${home}/.ssh/id_rsa`], home });

Deno.test("git: -L's lines are text, its file a file", async () => {
  await checkActions(project, ctx, [
    ["git blame -L '/function main/,+20' src/main.ts", "allow"],
    ["git blame -L/main/,+5 src/main.ts", "allow"],
    ["git annotate -L :main src/main.ts", "allow"],
    ["git log -L '/fn/,+5:src/main.ts'", "allow"],
    ["git log -L'/fn/,+5:src/main.ts'", "allow"],
    ["git log -L :main:src/main.ts", "allow"],
    // The file it names stays a file; a value not known may name any.
    ["git log -L '/fn/,+5:.env'", "ask"],
    ["git log -L '/fn/,+5:/home/user/.ssh/id_rsa'", "deny"],
    ["git blame -L '/x/,+2' .env", "ask"],
    ["git blame -L 1,5 -- ~/.ssh/id_rsa", "deny"],
    ['git log -L "$R"', "ask"],
    ["git log -- -L/etc/x", "ask"],
  ]);
});

Deno.test("git: a range of revisions with an end not known is no path", async () => {
  await checkActions(project, ctx, [
    [`git log "$(git describe --tags --abbrev=0)"..HEAD`, "allow"],
    [`git log --oneline "$BASE"...HEAD`, "allow"],
    [`git diff "\${BASE}"..origin/main --stat`, "allow"],
    [`git log HEAD.."$X"`, "allow"],
    // Unquoted (split into words), no range, or after `--` (a path): not known.
    [`git log $(git describe)..HEAD`, "ask"],
    [`git log -p "$X"`, "ask"],
    [`git log "$X"HEAD`, "ask"],
    [`git log -- "$X"..HEAD`, "ask"],
    [`cat "$X"..HEAD`, "ask"],
  ]);
});
