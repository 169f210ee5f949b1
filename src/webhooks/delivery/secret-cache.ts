// Signing secrets unsealed (AES-256-GCM) once, not once per delivery: remembered by
// their sealed bytes as the claim returns them (hex text). A rotation seals a new
// secret, so new text, so a new entry; the oldest entries go first past the limit.
import type { Keys } from '../../crypto/keys.ts';

// One or two per channel with a webhook.
const SECRET_CACHE_SIZE = 1024;

export function openedSecrets(keys: Keys): { open(sealedHex: string): string } {
  const secrets = new Map<string, string>();
  return {
    open(sealedHex) {
      let secret = secrets.get(sealedHex);
      if (secret === undefined) {
        secret = keys.open(Buffer.from(sealedHex, 'hex'));
        if (secrets.size >= SECRET_CACHE_SIZE) secrets.delete(secrets.keys().next().value!);
        secrets.set(sealedHex, secret);
      }
      return secret;
    },
  };
}
