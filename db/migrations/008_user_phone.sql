-- 008: the phone number of an admin account (PUT /system/user/{id}: nickname, avatar, e-mail, phone), as given
-- (trimmed; the route checks its form: digits, spaces, hyphens, brackets, an optional leading +). NULL: none.
-- Not unique: a desk phone may be shared. Every statement can run again.

@unless-column sys_user.phone ALTER TABLE sys_user
  ADD COLUMN phone VARCHAR(32) NULL COMMENT 'phone number as given; NULL: none' AFTER email_verified;
