export type RsaPadding = 'oaep-sha256' | 'pkcs1';

/** Decrypts client-side RSA-encrypted secrets (the admin login password). */
export interface RsaDecryptor {
  /** The public key clients encrypt with: PEM, SubjectPublicKeyInfo. */
  readonly publicKeyPem: string;
  readonly padding: RsaPadding;
  /** Base64 (standard alphabet) ciphertext -> UTF-8 text; null when it cannot be decrypted or decoded. */
  decrypt(ciphertextBase64: string): Promise<string | null>;
}
