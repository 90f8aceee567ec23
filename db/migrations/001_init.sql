-- 001: the admin user directory in the RuoYi / vue-pure-admin shape, and the web app's members.
-- status is CHAR(1): '0' enabled, '1' disabled (the RuoYi convention). Every statement is
-- idempotent (IF NOT EXISTS) so a migration interrupted half-way can simply be run again.

CREATE TABLE IF NOT EXISTS sys_user (
  id          BIGINT       NOT NULL AUTO_INCREMENT,
  username    VARCHAR(64)  NOT NULL COLLATE utf8mb4_bin,
  nickname    VARCHAR(64)  NOT NULL DEFAULT '',
  avatar      VARCHAR(255) NOT NULL DEFAULT '',
  password    VARCHAR(100) NOT NULL COMMENT 'BCrypt hash ($2a$/$2b$/$2y$), never plaintext',
  status      CHAR(1)      NOT NULL DEFAULT '0' COMMENT '0 enabled, 1 disabled',
  create_time DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  update_time DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_sys_user_username (username),
  CONSTRAINT ck_sys_user_status CHECK (status IN ('0', '1'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS sys_role (
  id          BIGINT       NOT NULL AUTO_INCREMENT,
  role_key    VARCHAR(64)  NOT NULL COLLATE utf8mb4_bin,
  name        VARCHAR(64)  NOT NULL,
  status      CHAR(1)      NOT NULL DEFAULT '0' COMMENT '0 enabled, 1 disabled',
  create_time DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  update_time DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_sys_role_key (role_key),
  CONSTRAINT ck_sys_role_status CHECK (status IN ('0', '1'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS sys_menu (
  id          BIGINT       NOT NULL AUTO_INCREMENT,
  name        VARCHAR(64)  NOT NULL,
  permission  VARCHAR(255) NULL COMMENT 'permission string(s), e.g. system:user:list; comma-separated like RuoYi perms',
  status      CHAR(1)      NOT NULL DEFAULT '0' COMMENT '0 enabled, 1 disabled',
  create_time DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  update_time DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  CONSTRAINT ck_sys_menu_status CHECK (status IN ('0', '1'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE IF NOT EXISTS sys_user_role (
  user_id BIGINT NOT NULL,
  role_id BIGINT NOT NULL,
  PRIMARY KEY (user_id, role_id),
  KEY idx_sys_user_role_role (role_id),
  CONSTRAINT fk_sys_user_role_user FOREIGN KEY (user_id) REFERENCES sys_user (id) ON DELETE CASCADE,
  CONSTRAINT fk_sys_user_role_role FOREIGN KEY (role_id) REFERENCES sys_role (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE IF NOT EXISTS sys_role_menu (
  role_id BIGINT NOT NULL,
  menu_id BIGINT NOT NULL,
  PRIMARY KEY (role_id, menu_id),
  KEY idx_sys_role_menu_menu (menu_id),
  CONSTRAINT fk_sys_role_menu_role FOREIGN KEY (role_id) REFERENCES sys_role (id) ON DELETE CASCADE,
  CONSTRAINT fk_sys_role_menu_menu FOREIGN KEY (menu_id) REFERENCES sys_menu (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

CREATE TABLE IF NOT EXISTS member (
  id          BIGINT       NOT NULL AUTO_INCREMENT,
  username    VARCHAR(64)  NOT NULL COLLATE utf8mb4_bin,
  nickname    VARCHAR(64)  NOT NULL DEFAULT '',
  avatar      VARCHAR(255) NOT NULL DEFAULT '',
  password    VARCHAR(100) NOT NULL COMMENT 'BCrypt hash',
  status      CHAR(1)      NOT NULL DEFAULT '0' COMMENT '0 enabled, 1 disabled',
  create_time DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  update_time DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_member_username (username),
  CONSTRAINT ck_member_status CHECK (status IN ('0', '1'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
