/**
 * go's settings: `go env -w NAME=VALUE` writes `$GOENV` for later go commands (judged as the
 * variable exported for them, and as a write of that file), `GOENV=F` names another settings file,
 * and the programs `CC`, `CXX`, `PKG_CONFIG`, `GOAUTH=command …` and cgo's flags name run.
 */
import { checkTable } from "../testing_adversarial.ts";
import { checkActions, configFrom, ctxIn } from "../testing.ts";

Deno.test("go env -w: what it writes for later go commands is judged, and the file it writes", async () => {
  await checkTable([
    ["go env -w GOFLAGS=-toolexec=curl", "deny", "deny"],
    ["go env -w GOFLAGS=-toolexec=curl && go build", "deny", "deny"],
    ["go env -w 'GOFLAGS=-mod=mod -exec=rm'", "deny", "deny"],
    ["go env -w CC=curl", "deny", "deny"],
    ["go env -w CXX='rm -rf x'", "deny", "deny"],
    ["go env -w GOAUTH='command curl -s x'", "deny", "deny"],
    ["go env -w GOCACHEPROG='curl x'", "deny", "deny"],
    ["go env -w GOROOT=/tmp/go", "deny", "deny"],
    ["go env -w GOPATH=/home/user/.ssh", "deny", "deny"],
    ["go env -w CGO_LDFLAGS=-Wl,-o,/home/user/.ssh/x", "deny", "deny"],
    ["go env -w $X", "deny", "deny"],
    ["GOENV=./goenv go build", "deny", "deny"],
    ["export GOENV=/tmp/env; go build", "deny", "deny"],
    ["CC=curl go build", "deny", "deny"],
    ["PKG_CONFIG=rm go build ./...", "deny", "deny"],
    ["CGO_LDFLAGS='-Wl,-o,/home/user/.ssh/x' go build", "deny", "deny"],
    // Everyday.
    ["go env -w GOPROXY=https://proxy.golang.org,direct GOPRIVATE=github.com/me", "deny", "allow"],
    ["go env -w GOFLAGS=-mod=mod", "deny", "allow"],
    ["go env -u GOFLAGS", "deny", "allow"],
    ["go env GOPATH GOMODCACHE", "deny", "allow"],
    ["go env -json", "deny", "allow"],
    ["CC=clang CGO_ENABLED=1 go build ./...", "deny", "allow"],
    ["CC='gcc -m32' CGO_CFLAGS='-O2 -g' go test ./...", "deny", "allow"],
  ]);
});

Deno.test("go env -w writes ~/.config/go/env: a protected file asks as any write does", async () => {
  const H = "/home/user";
  const guarded = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "~/.config/go/**": "ask" },
  }, { home: H, agentDir: `${H}/.pi/agent` });
  await checkActions(guarded, ctxIn(`${H}/project`, { home: H }), [
    ["go env -w GOPRIVATE=github.com/me", "ask"],
    ["go env -u GOPRIVATE", "ask"],
    ["go env GOPRIVATE", "allow"],
    ["go build ./...", "allow"],
  ]);
});
