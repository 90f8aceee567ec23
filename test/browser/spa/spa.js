/* The test SPA's script (see index.html). Plain ES2020, no dependency. */
'use strict';

const $ = (id) => document.getElementById(id);
let token = null;
let records = [];

async function api(path, init = {}) {
  const headers = { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...init.headers };
  const res = await fetch(path, { ...init, headers });
  const body = res.status === 304 ? null : await res.json();
  if (body !== null && body.code !== 0) throw new Error(`${path}: ${body.code} ${body.message}`);
  return { res, data: body === null ? null : body.data };
}

/** The login password, RSA-OAEP (SHA-256) encrypted with the SPKI key of /auth/getConfig, base64. */
async function encrypt(pem, password) {
  const der = Uint8Array.from(atob(pem.replace(/-----[^-]+-----|\s/g, '')), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('spki', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(password)));
  return btoa(String.fromCharCode(...sealed));
}

/** vue-pure-admin's addAsyncRoutes, in miniature: route records whose component is a loader of the named view. */
function toRecords(routes) {
  return routes.map((r) => ({
    path: r.path,
    name: r.name,
    ...(r.redirect ? { redirect: r.redirect } : {}),
    ...(r.component ? { component: () => Promise.resolve({ view: r.component }) } : {}),
    meta: r.meta,
    children: toRecords(r.children),
  }));
}

/** The chain of records a path matches (vue-router's `matched`), following redirects. */
function resolve(path, list = records, chain = []) {
  for (const r of list) {
    if (r.path === path) return r.redirect ? resolve(r.redirect) : [...chain, r];
    const below = resolve(path, r.children, [...chain, r]);
    if (below.length > 0) return below;
  }
  return [];
}

function renderMenu(list, depth = 0) {
  return list
    .filter((r) => r.meta.showLink)
    .map((r) => `<li data-path="${r.path}" data-depth="${depth}">${r.meta.title}<ul>${renderMenu(r.children, depth + 1)}</ul></li>`)
    .join('');
}

/** Opens `path` as the router would: its view, and the buttons its meta.auths allow (v-auth). */
async function open(path) {
  const matched = resolve(path);
  const leaf = matched[matched.length - 1];
  if (!leaf || !leaf.component) {
    $('page').textContent = `no route for ${path}`;
    return;
  }
  const view = await leaf.component();
  const buttons = ['add', 'edit', 'remove'].filter((verb) => leaf.meta.auths.some((a) => a.endsWith(`:${verb}`)));
  $('page').innerHTML =
    `<h1 data-view="${view.view}">${matched.map((r) => r.meta.title).join(' / ')}</h1>` +
    buttons.map((b) => `<button class="auth" data-auth="${b}">${b}</button>`).join('');
}

async function login(event) {
  event.preventDefault();
  try {
    $('status').textContent = 'logging in';
    const config = (await api('/auth/getConfig')).data;
    const password = await encrypt(config.publicKey, $('password').value);
    const session = (await api('/auth/login', { method: 'POST', body: JSON.stringify({ username: $('username').value, password }) })).data;
    token = session.accessToken;
    const first = await api('/auth/routes');
    records = toRecords(first.data);
    const again = await api('/auth/routes', { headers: { 'If-None-Match': first.res.headers.get('ETag') } });
    $('menu').innerHTML = `<ul>${renderMenu(records)}</ul>`;
    $('records').textContent = JSON.stringify(records, (k, v) => (k === 'component' ? 'loader' : v));
    window.spa = { open, revalidated: again.res.status };
    $('status').textContent = `ready (${records.length} top-level routes, revalidation ${again.res.status})`;
  } catch (e) {
    $('status').textContent = `error: ${e.message}`;
  }
}

$('login').addEventListener('submit', login);
