-- 004: TOTP second factors, per account: account_type and user_id as in account_password_history (003): 'admin' a
-- sys_user.id, 'member' a member.id (the web app's accounts); no foreign key, since the table depends on the type. Secrets are stored sealed (AES-256-GCM under
-- svc.mfa.encryption-key, never plaintext) and recovery codes as SHA-256 hashes (each row used once, then deleted).
-- last_step is the last RFC 6238 time step a code was accepted for; it only moves forwards (a replayed code is refused).
-- Every statement is idempotent (IF NOT EXISTS) so a migration interrupted half-way can simply be run again.

CREATE TABLE IF NOT EXISTS mfa_totp (
  account_type ENUM('admin', 'member') NOT NULL COMMENT 'admin: sys_user.id; member: member.id',
  user_id      BIGINT       NOT NULL,
  secret       VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL COMMENT 'sealed: v1.<iv>.<ciphertext>.<tag>, never plaintext',
  last_step    BIGINT       NOT NULL COMMENT 'last accepted time step (unix seconds / 30)',
  create_time  DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  update_time  DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  PRIMARY KEY (account_type, user_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE IF NOT EXISTS mfa_totp_pending (
  account_type ENUM('admin', 'member') NOT NULL,
  user_id      BIGINT       NOT NULL,
  secret       VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL COMMENT 'sealed, as in mfa_totp',
  expires_at   BIGINT       NOT NULL COMMENT 'epoch ms; an unconfirmed setup lapses then',
  PRIMARY KEY (account_type, user_id),
  KEY idx_mfa_totp_pending_expires (expires_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE IF NOT EXISTS mfa_recovery_code (
  account_type ENUM('admin', 'member') NOT NULL,
  user_id      BIGINT       NOT NULL,
  code_hash    CHAR(64)     CHARACTER SET ascii COLLATE ascii_bin NOT NULL COMMENT 'SHA-256 (hex) of the account and the code',
  PRIMARY KEY (account_type, user_id, code_hash)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
