-- 009: session token ids grew from 16 to 32 hex digits (the first 128 bits of the token hash, which also
-- name the session's key in Redis: docs/sessions.md, "Session keys in Redis"). Events of sessions of an
-- earlier release keep their 16-digit ids. Every statement can run again.

ALTER TABLE sys_login_log
  MODIFY token_id VARCHAR(32) NULL COMMENT 'the session token id (32 hex digits; 16 before migration 009), never a token';
