import { checkActions, configFrom, ctxIn } from "../testing.ts";

Deno.test("credentials: a program that prints the credentials it keeps reads their files", async () => {
  const config = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: {
      "~/.aws/**": "deny",
      "~/.git-credentials": "deny",
      "~/.config/gh/**": "deny",
      "~/.kube/**": "deny",
      "~/.config/gcloud/**": "deny",
      "~/.docker/config.json": "deny",
    },
  });
  const ctx = ctxIn("/home/user/project", { files: ["/home/user/project/README.md"] });
  await checkActions(config, ctx, [
    ["aws configure get aws_secret_access_key", "deny"],
    ["aws configure export-credentials --profile x", "deny"],
    ["git credential fill <<< 'url=https://github.com'", "deny"],
    ["git credential-store get", "deny"],
    ["gh auth token", "deny"],
    ["gh auth status --show-token", "deny"],
    ["kubectl config view --raw", "deny"],
    ["gcloud auth print-access-token", "deny"],
    ["docker-credential-desktop get <<< https://index.docker.io/v1/", "deny"],
    // What only uses them, or shows them without the secrets, reads no more than it names.
    ["aws s3 ls", "allow"],
    ["gh auth status", "allow"],
    ["kubectl config view", "allow"],
    ["git credential approve < /dev/null", "allow"],
  ]);
});
