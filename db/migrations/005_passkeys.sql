-- 005: passkeys (WebAuthn credentials) of admin users (login_type 'admin', sys_user ids) and web
-- members ('web', member ids). A credential id may be up to 1023 bytes (1364 base64url
-- characters), too long for an index in every row format, so the key is its SHA-256 (id_hash,
-- written by the application). Times are ms since the epoch. Idempotent (IF NOT EXISTS), like 001.

CREATE TABLE IF NOT EXISTS passkey (
  login_type    VARCHAR(16)     CHARACTER SET ascii COLLATE ascii_bin NOT NULL COMMENT 'admin or web',
  id_hash       BINARY(32)      NOT NULL COMMENT 'SHA-256 of credential_id',
  credential_id VARCHAR(1400)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL COMMENT 'base64url',
  user_id       VARCHAR(64)     CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  public_key    BLOB            NOT NULL COMMENT 'COSE public key',
  counter       BIGINT UNSIGNED NOT NULL DEFAULT 0 COMMENT 'signature counter last seen; only moves forward',
  transports    VARCHAR(255)    CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '' COMMENT 'comma-separated',
  name          VARCHAR(64)     NOT NULL DEFAULT '',
  device_type   VARCHAR(16)     CHARACTER SET ascii COLLATE ascii_bin NOT NULL COMMENT 'singleDevice or multiDevice',
  backed_up     TINYINT(1)      NOT NULL DEFAULT 0,
  created_at    BIGINT          NOT NULL,
  last_used_at  BIGINT          NULL,
  PRIMARY KEY (login_type, id_hash),
  KEY idx_passkey_user (login_type, user_id, created_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
