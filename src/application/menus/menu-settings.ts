/** What the menu use cases read from the configuration. */
export interface MenuSettings {
  /** svc.menus.cache-seconds: how long the menu tree of `GET /auth/routes` is kept before it is read again. */
  readonly cacheSeconds: number;
}
