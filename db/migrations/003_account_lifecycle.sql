-- 003: the account lifecycle (src/application/ports/account-store.ts) on sys_user and member: why and
-- until when an account is disabled (a timed ban lifts itself at disabled_until), the "must change
-- password" mark an administrator's reset sets, when the password last changed, and the e-mail
-- address: `email` as given, `email_folded` (trimmed, lower case: written by the application) with a
-- unique index, so one account per address even between two concurrent writers (NULL, no address,
-- may repeat). Earlier BCrypt hashes, for the password-history rule, live in account_password_history.
-- Times are UTC. Every statement can run again: a migration interrupted half-way is simply re-run.
-- email_folded is 191 characters wide so that its index fits in any InnoDB row format (767 bytes).

@unless-column sys_user.disabled_reason ALTER TABLE sys_user
  ADD COLUMN disabled_reason VARCHAR(255) NULL COMMENT 'why the account is disabled (shown to administrators)' AFTER status;
@unless-column sys_user.disabled_until ALTER TABLE sys_user
  ADD COLUMN disabled_until DATETIME(3) NULL COMMENT 'UTC end of a timed ban; NULL: until enabled again' AFTER disabled_reason;
@unless-column sys_user.must_change_password ALTER TABLE sys_user
  ADD COLUMN must_change_password TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1: the next login may only change the password' AFTER disabled_until;
@unless-column sys_user.password_changed_at ALTER TABLE sys_user
  ADD COLUMN password_changed_at DATETIME(3) NULL COMMENT 'UTC time of the last password change' AFTER must_change_password;
@unless-column sys_user.email ALTER TABLE sys_user
  ADD COLUMN email VARCHAR(254) NULL COMMENT 'e-mail address as given' AFTER password_changed_at;
@unless-column sys_user.email_folded ALTER TABLE sys_user
  ADD COLUMN email_folded VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL COMMENT 'email trimmed, then lower case (written by the application)' AFTER email;
@unless-column sys_user.email_verified ALTER TABLE sys_user
  ADD COLUMN email_verified TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1: the address was confirmed' AFTER email_folded;
@unless-index sys_user.uk_sys_user_email_folded ALTER TABLE sys_user
  ADD UNIQUE KEY uk_sys_user_email_folded (email_folded);

@unless-column member.disabled_reason ALTER TABLE member
  ADD COLUMN disabled_reason VARCHAR(255) NULL COMMENT 'why the account is disabled (shown to administrators)' AFTER status;
@unless-column member.disabled_until ALTER TABLE member
  ADD COLUMN disabled_until DATETIME(3) NULL COMMENT 'UTC end of a timed ban; NULL: until enabled again' AFTER disabled_reason;
@unless-column member.must_change_password ALTER TABLE member
  ADD COLUMN must_change_password TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1: the next login may only change the password' AFTER disabled_until;
@unless-column member.password_changed_at ALTER TABLE member
  ADD COLUMN password_changed_at DATETIME(3) NULL COMMENT 'UTC time of the last password change' AFTER must_change_password;
@unless-column member.email ALTER TABLE member
  ADD COLUMN email VARCHAR(254) NULL COMMENT 'e-mail address as given' AFTER password_changed_at;
@unless-column member.email_folded ALTER TABLE member
  ADD COLUMN email_folded VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL COMMENT 'email trimmed, then lower case (written by the application)' AFTER email;
@unless-column member.email_verified ALTER TABLE member
  ADD COLUMN email_verified TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1: the address was confirmed' AFTER email_folded;
@unless-index member.uk_member_email_folded ALTER TABLE member
  ADD UNIQUE KEY uk_member_email_folded (email_folded);

CREATE TABLE IF NOT EXISTS account_password_history (
  id           BIGINT                  NOT NULL AUTO_INCREMENT,
  account_type ENUM('admin', 'member') NOT NULL COMMENT 'admin: sys_user.id; member: member.id',
  user_id      BIGINT                  NOT NULL,
  password     VARCHAR(100)            NOT NULL COMMENT 'an earlier BCrypt hash of the account, never plaintext',
  create_time  DATETIME(3)             NOT NULL DEFAULT CURRENT_TIMESTAMP(3) COMMENT 'when it was replaced',
  PRIMARY KEY (id),
  KEY idx_account_password_history_user (account_type, user_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
