/** Programs of the simple table (lib/programs/simple.ts) whose facts hold a check of their own. */
import { checkEveryday, checkTable, denyList, gateFiles } from "../testing_adversarial.ts";

Deno.test("ps: the BSD `e` and macOS's `-E` print every process's environment, which is asked about", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    ["ps e", "deny", "ask"],
    ["ps eww -e", "deny", "ask"],
    ["ps axeww", "deny", "ask"],
    ["ps ae", "deny", "ask"],
    ["ps $OPTS", "deny", "ask"],
    // (macOS: `-E`, in a cluster too, before any letter that takes a value.)
    ["ps -E", "deny", "ask"],
    ["ps -wwE", "deny", "ask"],
    ["ps -AE -o command", "deny", "ask"],
    ["ps -Ao pid,command -E", "deny", "ask"],
    ["ps -Ep 1", "deny", "ask"],
  ]);
  await checkEveryday([
    "ps aux",
    "ps -ef",
    "ps -e",
    "ps -eo pid,etime,comm",
    "ps o pid,etime",
    "ps aux --sort=-%mem | head",
    "ps -p 1234 -o pid,ppid,cmd",
    "ps aux | grep node",
    "ps --format pid,user,etime",
    "ps -o pid,ETIME",
    "ps -Ao pid,ETIME,command",
    "ps -p 1 -o comm=",
  ]);
});

Deno.test("go: -exec, -toolexec and -vettool run a program of the command's choosing", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    ["go run -exec=sudo .", "deny", "deny"],
    ["go test -exec sudo ./...", "deny", "deny"],
    ["go build -toolexec=rm .", "deny", "deny"],
    ["go vet -vettool=sudo ./...", "deny", "deny"],
    ["GOFLAGS=-exec=sudo go test ./...", "deny", "deny"],
    ["export GOFLAGS='-exec=sudo'; go test ./...", "deny", "deny"],
  ]);
  await checkEveryday(["go test ./...", "go run .", "GOFLAGS=-mod=mod go build ./..."], gateFiles);
});

Deno.test("wait: its operands are process and job ids, never files", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    // What a subscript or a substitution runs is judged all the same.
    ["wait -p 'a[$(rm -rf src)]' 1", "deny", "deny"],
    ["wait $(rm -rf src)", "deny", "deny"],
    ["wait $(cat ~/.ssh/id_rsa)", "deny", "deny"],
  ]);
  const everyday = [
    "wait $p1",
    'wait "$PID"',
    "wait $!",
    "wait %1",
    "wait -n $p1 $p2",
    "sleep 5 & p1=$!; wait $p1",
    "sleep 5 & p1=$!; sleep 6 & p2=$!; wait $p1 $p2; echo done",
  ];
  await checkEveryday(everyday, denyList);
  await checkEveryday(everyday, gateFiles);
});
