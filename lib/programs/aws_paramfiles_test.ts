import assert from "node:assert/strict";
import { checkActions, configFrom, ctxIn } from "../testing.ts";
import type { Word } from "../shell/model.ts";
import { awsParamFiles } from "./aws_paramfiles.ts";
import { literal } from "./words.ts";

const paths = (words: (string | Word)[], read?: (p: string) => string | null) =>
  awsParamFiles(
    ["aws", ...words].map((w) => typeof w === "string" ? literal(w) : w),
    { read, env: { HOME: "/home/user" } },
  ).map((f) => f.path);

Deno.test("aws paramfiles: file:// and fileb:// values, their ~ and $HOME, and shorthand's @=", () => {
  assert.deepEqual(paths(["kms", "encrypt", "--plaintext", "fileb://secrets/key"]), [
    "secrets/key",
  ]);
  assert.deepEqual(paths(["x", "--plaintext=fileb:///etc/k"]), ["/etc/k"]);
  assert.deepEqual(paths(["x", "--cli-input-json", "file://in.json"]), ["in.json"]);
  assert.deepEqual(paths(["x", "--cli-input-yaml=file://in.yaml"]), ["in.yaml"]);
  assert.deepEqual(paths(["x", "--k", "fileb://~/.ssh/id_rsa"]), ["~/.ssh/id_rsa"]);
  assert.deepEqual(paths(["x", "--k", "file://$HOME/.aws/credentials"]), ["~/.aws/credentials"]);
  assert.deepEqual(paths(["x", "--k", "file://${HOME}/.aws/config"]), ["~/.aws/config"]);
  // (Another user's home, another variable: not known.)
  assert.deepEqual(paths(["x", "--k", "fileb://~root/k"]), [null]);
  assert.deepEqual(paths(["x", "--k", "fileb://$KEYS/k"]), [null]);
  assert.deepEqual(paths(["x", "--k", "fileb://${HOME}x/k"]), [null]);
  // Shorthand: `key@=VALUE`, unquoted to a delimiter (`\,` is a comma), or quoted.
  assert.deepEqual(paths(["x", "--o", "a=1,k@=fileb://s/k,b=2"]), ["s/k"]);
  assert.deepEqual(paths(["x", "--o", "k @ = file://a\\,b ,c=1"]), ["a,b"]);
  assert.deepEqual(paths(["x", "--o", `a=1,k@="file://x,y",b=2`]), ["x,y"]);
  assert.deepEqual(paths(["x", "--o", "{k@='file://it\\'s'}"]), ["it's"]);
  assert.deepEqual(paths(["x", "--o=[{k@=fileb://~/.ssh/id_rsa}]"]), ["~/.ssh/id_rsa"]);
  // The prefixes in their case only; strings, URLs and `=` (not `@=`) name none.
  assert.deepEqual(paths(["x", "--k", "FILEB://secrets/key", "--j", "File://x"]), []);
  assert.deepEqual(paths(["s3", "cp", "s3://b/file", ".", "--o", "k=file://x"]), []);
  assert.deepEqual(paths(["sts", "get-caller-identity"]), []);
  // A word not known: its path where the known part ends it, else any file.
  const dynamic = (value: string, prefix: string): Word => ({
    value,
    kind: "dynamic",
    prefix,
    text: value,
  });
  assert.deepEqual(paths(["x", "--k", dynamic("fileb://s/$X", "fileb://s/")]), [null]);
  assert.deepEqual(paths(["x", "--o", dynamic("k@=file://a,v=$X", "k@=file://a,v=")]), ["a"]);
});

Deno.test("aws paramfiles: a file:// text read as shorthand names the files of its @= values", () => {
  const texts: Record<string, string> = {
    "p.txt": "a=1,k@=fileb://~/.ssh/id_rsa",
    "p.json": '{"k@=fileb://x": 1}',
    "/home/user/h.txt": "k@=file://y",
  };
  const read = (p: string) => texts[p] ?? null;
  assert.deepEqual(paths(["x", "--o", "file://p.txt"], read), ["p.txt", "~/.ssh/id_rsa"]);
  // JSON is JSON; fileb:// bytes are a value; the home's file is read there.
  assert.deepEqual(paths(["x", "--o", "file://p.json"], read), ["p.json"]);
  assert.deepEqual(paths(["x", "--o", "fileb://p.txt"], read), ["p.txt"]);
  assert.deepEqual(paths(["x", "--o", "file://~/h.txt"], read), ["~/h.txt", "y"]);
});

Deno.test("aws paramfiles: a value read from a protected file is judged as that file", async () => {
  const config = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "~/.aws/**": "deny", "~/.ssh/**": "deny", "secrets/**": "deny" },
  });
  const ctx = ctxIn("/p", {
    files: ["/p/src/main.ts", "/p/secrets/key", "/p/policy.json"],
    contents: { "/p/p.txt": "Name=x,Body@=fileb://secrets/key" },
  });
  await checkActions(config, ctx, [
    ["aws ec2 import-key-pair --key-name k --public-key-material fileb://secrets/key", "deny"],
    ["aws kms encrypt --plaintext fileb://$HOME/.aws/credentials", "deny"],
    ["aws kms encrypt --plaintext 'file://$HOME/.aws/credentials'", "deny"],
    ["aws kms encrypt --plaintext 'fileb://~/.ssh/id_ed25519'", "deny"],
    ["aws x --plaintext=fileb://secrets/key", "deny"],
    ["aws x --opt 'Name=a,Value@=fileb://secrets/key'", "deny"],
    ["aws x --opt file://p.txt", "deny"],
    ["aws x --opt 'fileb://$KEY'", "ask"],
    ["aws x --opt fileb://$KEY", "ask"],
    // Everyday: files of the project, strings, URLs.
    ["aws lambda invoke --function-name f --payload fileb://src/main.ts out.json", "allow"],
    ["aws iam create-policy --policy-name p --policy-document file://policy.json", "allow"],
    ["aws x --plaintext FILEB://secrets/key", "allow"],
    ["aws s3 ls s3://bucket/secrets/key", "allow"],
    ["aws ec2 describe-instances --filters Name=tag:env,Values=prod", "allow"],
  ]);
});
