-- 006: the audit trail's `sql` sink (docs/audit.md): security events of the login log in sys_login_log,
-- administrators' operations in sys_oper_log (RuoYi's sys_logininfor / sys_oper_log, by the trail's own
-- names). event_id is the event's UUIDv7, unique, so a batch written again (a retry) is kept once. Times
-- are UTC. status follows RuoYi: '0' success, '1' failure. Rows older than svc.audit.retention-days are
-- deleted by the sink. Every statement can run again.

CREATE TABLE IF NOT EXISTS sys_login_log (
  id           BIGINT       NOT NULL AUTO_INCREMENT,
  event_id     CHAR(36)     NOT NULL COMMENT 'the event id (UUIDv7)',
  login_type   VARCHAR(16)  NOT NULL COMMENT 'admin or web',
  event_type   VARCHAR(32)  NOT NULL COMMENT 'login, logout, refresh-reused, access-denied, ...',
  status       CHAR(1)      NOT NULL COMMENT '0 success, 1 failure',
  reason       VARCHAR(64)  NULL COMMENT 'the refusal reason (error catalogue)',
  user_id      VARCHAR(64)  NULL,
  username     VARCHAR(64)  NULL,
  token_id     CHAR(16)     NULL COMMENT 'the session token id, never a token',
  ipaddr       VARCHAR(45)  NULL,
  os           VARCHAR(40)  NULL,
  browser      VARCHAR(40)  NULL,
  device_type  VARCHAR(16)  NULL,
  request_id   VARCHAR(128) NULL,
  target       VARCHAR(128) NULL,
  event_time   DATETIME(3)  NOT NULL COMMENT 'UTC',
  PRIMARY KEY (id),
  UNIQUE KEY uk_sys_login_log_event (event_id),
  KEY idx_sys_login_log_time (login_type, event_time),
  KEY idx_sys_login_log_user (login_type, username, event_time)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='security events of the login log (audit trail, sql sink)';

CREATE TABLE IF NOT EXISTS sys_oper_log (
  id           BIGINT       NOT NULL AUTO_INCREMENT,
  event_id     CHAR(36)     NOT NULL COMMENT 'the event id (UUIDv7)',
  login_type   VARCHAR(16)  NOT NULL,
  event_type   VARCHAR(32)  NOT NULL COMMENT 'user-created, roles-changed, user-disabled, kickout, ...',
  action       VARCHAR(64)  NOT NULL COMMENT 'user.create, user.roles, user.disable, session.kickout, ...',
  actor        VARCHAR(64)  NULL COMMENT 'who acted',
  target       VARCHAR(128) NULL COMMENT 'what it was done to',
  summary      VARCHAR(256) NULL COMMENT 'the request summarised, never copied',
  status       CHAR(1)      NOT NULL COMMENT '0 success, 1 failure',
  reason       VARCHAR(64)  NULL,
  user_id      VARCHAR(64)  NULL,
  username     VARCHAR(64)  NULL,
  ipaddr       VARCHAR(45)  NULL,
  os           VARCHAR(40)  NULL,
  browser      VARCHAR(40)  NULL,
  device_type  VARCHAR(16)  NULL,
  request_id   VARCHAR(128) NULL,
  event_time   DATETIME(3)  NOT NULL COMMENT 'UTC',
  PRIMARY KEY (id),
  UNIQUE KEY uk_sys_oper_log_event (event_id),
  KEY idx_sys_oper_log_time (event_time),
  KEY idx_sys_oper_log_actor (actor, event_time)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='administrators operations (audit trail, sql sink)';
