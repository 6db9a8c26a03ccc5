import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * issue 43: secrets an A2A client hands over (its push-notification token) sealed with AES-256-GCM before
 * they are recorded: every event stream is readable with `read`, so the log keeps only what a key holder can
 * open. The key is derived (HKDF-SHA-256) from the operator's SWITCHBOARD_SECRETS_KEY.
 */
export class SealedSecrets {
  private readonly key: Buffer;

  constructor(secretsKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', secretsKey, 'switchboard', 'a2a push-notification credentials', 32));
  }

  /** `v1.<base64url of iv, tag, ciphertext>`: a new IV each time, so one secret sealed twice reads differently. */
  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  /** The secret, or undefined when it was sealed with another key (or altered): it cannot be used. */
  open(sealed: string): string | undefined {
    if (!sealed.startsWith(`${VERSION}.`)) return undefined;
    const bytes = Buffer.from(sealed.slice(VERSION.length + 1), 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
