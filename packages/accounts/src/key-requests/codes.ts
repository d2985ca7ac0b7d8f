import { randomBytes, randomInt } from 'node:crypto';

/** DECISIONS: user codes are drawn from consonants only (no vowels: no words, no 0/O or 1/I confusion). */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE = new RegExp(`^[${USER_CODE_ALPHABET}]{8}$`);

/** 8 random characters of the alphabet, stored without the hyphen. */
export function generateUserCode(): string {
  return Array.from({ length: 8 }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join('');
}

/** As people read it: `XXXX-XXXX`. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** A code as a person typed it (any case, with or without the hyphen, spaces around), or null when it cannot be one. */
export function normalizeUserCode(typed: string): string | null {
  const code = typed.trim().toUpperCase().replace(/[-\s]/g, '');
  return USER_CODE.test(code) ? code : null;
}

/** DECISIONS: at least 32 random bytes, base64url; only its hash is stored. */
export function generateDeviceCode(): string {
  return randomBytes(32).toString('base64url');
}
