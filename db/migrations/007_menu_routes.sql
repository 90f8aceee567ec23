-- 007: menus as data: sys_menu gains what an admin SPA's route needs (RuoYi's columns, docs/sql-directory.md).
-- name stays the menu's title (RuoYi's menu_name); the vue-router route name is route_name. menu_type is RuoYi's:
-- 'M' directory, 'C' page (a route with a component), 'F' button (a permission on its page). A menu written before
-- this migration becomes a top-level button: it keeps granting its permission and routes nowhere, so nobody's
-- permissions change. parent_id references sys_menu (a menu with children cannot be deleted); the service refuses a
-- cycle. sys_role gains its display order and a remark. Every statement can run again.

@unless-column sys_menu.parent_id ALTER TABLE sys_menu
  ADD COLUMN parent_id BIGINT NULL COMMENT 'the directory or page above; NULL: top level' AFTER id;
@unless-column sys_menu.menu_type ALTER TABLE sys_menu
  ADD COLUMN menu_type CHAR(1) NOT NULL DEFAULT 'F' COMMENT 'M directory, C page, F button' CHECK (menu_type IN ('M', 'C', 'F')) AFTER parent_id;
@unless-column sys_menu.route_name ALTER TABLE sys_menu
  ADD COLUMN route_name VARCHAR(64) NOT NULL DEFAULT '' COMMENT 'vue-router route name; empty: derived from path' AFTER name;
@unless-column sys_menu.path ALTER TABLE sys_menu
  ADD COLUMN path VARCHAR(255) NOT NULL DEFAULT '' COMMENT 'route path; empty for buttons' AFTER route_name;
@unless-column sys_menu.component ALTER TABLE sys_menu
  ADD COLUMN component VARCHAR(255) NULL COMMENT 'view under the SPA views (system/user/index); NULL for directories and buttons' AFTER path;
@unless-column sys_menu.icon ALTER TABLE sys_menu
  ADD COLUMN icon VARCHAR(100) NOT NULL DEFAULT '' AFTER component;
@unless-column sys_menu.order_num ALTER TABLE sys_menu
  ADD COLUMN order_num INT NOT NULL DEFAULT 0 COMMENT 'order among siblings (vue-pure-admin rank)' AFTER icon;
@unless-column sys_menu.visible ALTER TABLE sys_menu
  ADD COLUMN visible TINYINT(1) NOT NULL DEFAULT 1 COMMENT '0: routed, not shown in the menu' AFTER order_num;
@unless-column sys_menu.keep_alive ALTER TABLE sys_menu
  ADD COLUMN keep_alive TINYINT(1) NOT NULL DEFAULT 0 COMMENT '1: the SPA keeps the page alive' AFTER visible;
@unless-index sys_menu.idx_sys_menu_parent ALTER TABLE sys_menu
  ADD KEY idx_sys_menu_parent (parent_id, order_num);
@unless-constraint sys_menu.fk_sys_menu_parent ALTER TABLE sys_menu
  ADD CONSTRAINT fk_sys_menu_parent FOREIGN KEY (parent_id) REFERENCES sys_menu (id);

@unless-column sys_role.order_num ALTER TABLE sys_role
  ADD COLUMN order_num INT NOT NULL DEFAULT 0 COMMENT 'display order' AFTER name;
@unless-column sys_role.remark ALTER TABLE sys_role
  ADD COLUMN remark VARCHAR(255) NOT NULL DEFAULT '' AFTER status;
