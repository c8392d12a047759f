import { checkTable } from "../testing_adversarial.ts";
import { checkRealRunners, quoted } from "../testing_runners.ts";

Deno.test("sessions: tmux, screen and expect run the commands in their arguments", async () => {
  await checkTable([
    ["tmux new-session 'rm x'", "deny", "deny"],
    ["tmux new -d rm x", "deny", "deny"],
    ["tmux new-s -d 'rm x'", "deny", "deny"], // an abbreviation
    ["tmux -f /dev/null new -d -s s 'curl x'", "deny", "deny"],
    ["tmux splitw -h 'rm x'", "deny", "deny"],
    ["tmux send-keys -t s 'rm x' Enter", "deny", "deny"],
    ["tmux send -t s rm Space x C-m", "deny", "deny"],
    ["tmux run-shell 'rm x'", "deny", "deny"],
    ["tmux if-shell 'rm x' 'display ok'", "deny", "deny"],
    ["tmux if -F 1 'run-shell \"rm x\"'", "deny", "deny"],
    ["tmux pipe-pane -o 'rm x'", "deny", "deny"],
    ["tmux display -p '#(rm x)'", "deny", "deny"],
    ["tmux -c 'rm x'", "deny", "deny"],
    ["tmux source-file evil.conf", "deny", "deny"],
    ["tmux new -d \\; send-keys 'rm x' Enter", "deny", "deny"],
    ["tmux bind x run-shell 'rm x'", "deny", "deny"],
    ["tmux set -g default-command 'rm x'", "deny", "deny"],
    ["screen -dm rm x", "deny", "deny"],
    ["screen -dmS s bash -c 'rm x'", "deny", "deny"],
    ["screen -S s -X stuff 'rm x^M'", "deny", "deny"],
    ["screen -S s -X exec curl x", "deny", "deny"],
    ["screen -c evil.rc", "deny", "deny"],
    ["expect -c 'spawn rm x'", "deny", "deny"],
    ["expect script.exp", "deny", "deny"],
    ["expect <<'EOF'\nspawn rm x\nEOF", "deny", "deny"],
    // Everyday.
    ["tmux ls", "deny", "allow"],
    ["tmux new -s work -d", "deny", "allow"],
    ["tmux new -d -s s 'python3 app.py'", "deny", "allow"],
    ["tmux capture-pane -p -t s", "deny", "allow"],
    ["tmux if-shell true 'display ok'", "deny", "allow"],
    ["screen -ls", "deny", "allow"],
    ["screen -r s", "deny", "allow"],
    ["expect -v", "deny", "allow"],
  ]);
});

Deno.test("tmux: a command a generated line makes it run is a stage", async () => {
  // Each line starts a server of its own (a socket in the test's directory) and stops it.
  const server = (cmd: string) =>
    `tmux -S ./s -f /dev/null ${cmd}; sleep 0.3; tmux -S ./s kill-server`;
  await checkRealRunners(
    {
      tmux: [
        (p) => server(`new -d ${quoted(p, "./a1 k")}`),
        () => server(`new-session -d -s w ./a1 k`),
        (p) => server(`new -d \\; run-shell ${quoted(p, "./a1")}`),
        (p) => server(`new -d \\; ${p(["if-shell", "if"])} ${quoted(p, "./a1")} 'display ok'`),
        () => server(`new -d \\; split-window -d ./a1`),
      ],
    },
    4,
    [],
    24,
  );
});

Deno.test("tmux: what new, new-window and split-window run starts in their -c directory", async () => {
  await checkTable([
    ["tmux new -d -c src 'cat ../../.ssh/id_rsa > /tmp/x'", "deny", "deny"],
    ["tmux split-window -c keys 'cat id_rsa'", "deny", "deny"],
    ["tmux new-window -c keys cat id_rsa", "deny", "deny"],
    ["tmux new -d -s dev -c src 'ls'", "deny", "allow"],
  ]);
});
