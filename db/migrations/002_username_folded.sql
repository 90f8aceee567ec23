-- 002: one account per name, whatever its case. Usernames are compared by their folded form
-- (Unicode NFKC, then lower case: src/domain/username.ts). The adapters write it beside the stored
-- spelling into username_folded, and a unique index on it keeps the rule under concurrent inserts.
-- SQL cannot fold (LOWER() is not NFKC), so the runner computes the column for existing rows (the @
-- steps, src/adapters/sql/migration-steps.ts), and refuses, before changing anything, when two
-- existing names of a table fold to the same name, naming them.
-- The column is 191 characters wide so that its index fits in any InnoDB row format (767 bytes).

@refuse-folded-clashes sys_user member;

@unless-column sys_user.username_folded ALTER TABLE sys_user
  ADD COLUMN username_folded VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL AFTER username;
@unless-column member.username_folded ALTER TABLE member
  ADD COLUMN username_folded VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL AFTER username;

@fill-folded-usernames sys_user;
@fill-folded-usernames member;

@unless-index sys_user.uk_sys_user_username_folded ALTER TABLE sys_user
  MODIFY COLUMN username_folded VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL COMMENT 'username folded: NFKC, then lower case (written by the application)',
  ADD UNIQUE KEY uk_sys_user_username_folded (username_folded);
@unless-index member.uk_member_username_folded ALTER TABLE member
  MODIFY COLUMN username_folded VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL COMMENT 'username folded: NFKC, then lower case (written by the application)',
  ADD UNIQUE KEY uk_member_username_folded (username_folded);
