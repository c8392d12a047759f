/** gpg's files by names it makes: decrypted without a suffix, encrypted or signed with one. */
import { checkTable } from "../testing_adversarial.ts";

Deno.test("gpg: the files it decrypts to, or encrypts and signs to, by names it makes", async () => {
  await checkTable([
    ["gpg --batch .env.gpg", "deny", "deny"],
    ["gpg --batch --yes --decrypt-files .env.gpg", "deny", "deny"],
    ["gpg2 --decrypt-files keys/id_rsa.asc", "deny", "deny"],
    ["gpg -c .env.pem", "deny", "deny"],
    // Printing, listing, an output named.
    ["gpg --decrypt secret.gpg", "deny", "allow"],
    ["gpg -o /tmp/out.txt -d .env.gpg", "deny", "allow"],
    ["gpg --list-keys", "deny", "allow"],
    ["gpg --verify x.sig x", "deny", "allow"],
  ]);
});
