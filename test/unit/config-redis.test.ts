import assert from 'node:assert/strict';
import { loadConfig } from '../../src/main/config';
import { prodEnv } from '../support/prod-env';
import { emptyConfigDir, problemsOf } from '../support/config-problems';

const SENTINEL = { SVC_STORE: 'redis', SVC_REDIS_MODE: 'sentinel', SVC_REDIS_SENTINELS: '10.0.0.1:26379, 10.0.0.2:26380,[::1]:26381' };

describe('configuration: Redis topology', () => {
  it('defaults to standalone, master name mymaster, no replica wait', () => {
    const c = loadConfig({ env: {}, configDir: emptyConfigDir() });
    assert.equal(c.redis.mode, 'standalone');
    assert.equal(c.redis.masterName, 'mymaster');
    assert.equal(c.redis.waitReplicas, 0);
    assert.deepEqual(c.redis.sentinels, []);
  });

  it('reads sentinel mode from the environment: addresses, master name, passwords, wait-replicas', () => {
    const c = loadConfig({
      env: {
        ...SENTINEL,
        SVC_REDIS_MASTER_NAME: 'auth',
        SVC_REDIS_SENTINEL_PASSWORD: 'sp',
        SVC_REDIS_PASSWORD: 'dp',
        SVC_REDIS_WAIT_REPLICAS: '1',
      },
      configDir: emptyConfigDir(),
    });
    assert.equal(c.redis.mode, 'sentinel');
    assert.deepEqual(c.redis.sentinels, [
      { host: '10.0.0.1', port: 26379 },
      { host: '10.0.0.2', port: 26380 },
      { host: '::1', port: 26381 },
    ]);
    assert.equal(c.redis.masterName, 'auth');
    assert.equal(c.redis.sentinelPassword, 'sp');
    assert.equal(c.redis.password, 'dp');
    assert.equal(c.redis.waitReplicas, 1);
  });

  it('takes the data password from the URL when svc.redis.password is not set', () => {
    const c = loadConfig({ env: { SVC_STORE: 'redis', SVC_REDIS_URL: 'redis://:p%40ss@127.0.0.1:6379' }, configDir: emptyConfigDir() });
    assert.equal(c.redis.password, 'p@ss');
  });

  const CLUSTER = {
    SVC_STORE: 'redis',
    SVC_REDIS_MODE: 'cluster',
    SVC_REDIS_NODES: '10.0.0.1:7000, 10.0.0.2:7001,[::1]:7002',
    SVC_REDIS_PASSWORD: 'cp',
  };

  it('reads cluster mode from the environment: seed nodes, the data password from svc.redis.password or the URL', () => {
    const c = loadConfig({ env: CLUSTER, configDir: emptyConfigDir() });
    assert.equal(c.redis.mode, 'cluster');
    assert.deepEqual(c.redis.nodes, [
      { host: '10.0.0.1', port: 7000 },
      { host: '10.0.0.2', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
    assert.equal(c.redis.password, 'cp');
    const fromUrl = loadConfig({
      env: { ...CLUSTER, SVC_REDIS_PASSWORD: '', SVC_REDIS_URL: 'redis://app:p%40ss@ignored:1' },
      configDir: emptyConfigDir(),
    });
    assert.equal(fromUrl.redis.password, 'p@ss');
  });

  const bad: Array<[string, Record<string, string>, RegExp]> = [
    ['an unknown mode', { SVC_REDIS_MODE: 'replicated' }, /^svc\.redis\.mode \(SVC_REDIS_MODE\)/],
    [
      'cluster mode without seed nodes',
      { ...CLUSTER, SVC_REDIS_NODES: '' },
      /^svc\.redis\.nodes \(SVC_REDIS_NODES\): required when svc\.redis\.mode=cluster/,
    ],
    [
      'a seed node without a port',
      { ...CLUSTER, SVC_REDIS_NODES: '10.0.0.1:7000,10.0.0.2' },
      /^svc\.redis\.nodes \(SVC_REDIS_NODES\): "10\.0\.0\.2" is not host:port/,
    ],
    [
      'seed nodes in sentinel mode',
      { ...SENTINEL, SVC_REDIS_NODES: 'a:7000' },
      /^svc\.redis\.nodes \(SVC_REDIS_NODES\): only used when svc\.redis\.mode=cluster \(svc\.redis\.mode is sentinel\)/,
    ],
    [
      'a key prefix with a hash tag in cluster mode',
      { ...CLUSTER, SVC_REDIS_KEY_PREFIX: '{ag}:' },
      /^svc\.redis\.key-prefix \(SVC_REDIS_KEY_PREFIX\): must not contain "\{" or "\}" when svc\.redis\.mode=cluster/,
    ],
    [
      'a key prefix with a lone brace in cluster mode',
      { ...CLUSTER, SVC_REDIS_KEY_PREFIX: 'ag}' },
      /^svc\.redis\.key-prefix \(SVC_REDIS_KEY_PREFIX\)/,
    ],
    [
      'a database other than 0 in cluster mode',
      { ...CLUSTER, SVC_REDIS_URL: 'redis://:cp@h:1/2' },
      /^svc\.redis\.url \(SVC_REDIS_URL or REDIS_URL\): a Redis Cluster has database 0 only/,
    ],
    [
      'a sentinel password in cluster mode',
      { ...CLUSTER, SVC_REDIS_SENTINEL_PASSWORD: 'x' },
      new RegExp(
        String.raw`^svc\.redis\.sentinel-password \(SVC_REDIS_SENTINEL_PASSWORD\): only` +
          String.raw` used when svc\.redis\.mode=sentinel \(svc\.redis\.mode is cluster\)`,
      ),
    ],
    [
      'sentinel mode without sentinels',
      { SVC_STORE: 'redis', SVC_REDIS_MODE: 'sentinel' },
      /^svc\.redis\.sentinels \(SVC_REDIS_SENTINELS\): required/,
    ],
    [
      'a sentinel address without a port',
      { ...SENTINEL, SVC_REDIS_SENTINELS: '10.0.0.1' },
      /^svc\.redis\.sentinels \(SVC_REDIS_SENTINELS\): "10\.0\.0\.1" is not host:port/,
    ],
    ['a sentinel port out of range', { ...SENTINEL, SVC_REDIS_SENTINELS: 'a:70000' }, /^svc\.redis\.sentinels \(SVC_REDIS_SENTINELS\)/],
    [
      'sentinels in standalone mode',
      { SVC_REDIS_SENTINELS: 'a:26379' },
      /^svc\.redis\.sentinels \(SVC_REDIS_SENTINELS\): only used when svc\.redis\.mode=sentinel/,
    ],
    [
      'a sentinel password in standalone mode',
      { SVC_REDIS_SENTINEL_PASSWORD: 'x' },
      /^svc\.redis\.sentinel-password \(SVC_REDIS_SENTINEL_PASSWORD\): only used/,
    ],
    ['an empty master name', { ...SENTINEL, SVC_REDIS_MASTER_NAME: '' }, /^svc\.redis\.master-name \(SVC_REDIS_MASTER_NAME\)/],
    ['a negative wait-replicas', { SVC_REDIS_WAIT_REPLICAS: '-1' }, /^svc\.redis\.wait-replicas \(SVC_REDIS_WAIT_REPLICAS\)/],
    ['a non-numeric wait-replicas', { SVC_REDIS_WAIT_REPLICAS: 'all' }, /^svc\.redis\.wait-replicas \(SVC_REDIS_WAIT_REPLICAS\)/],
    [
      'two different passwords',
      { SVC_STORE: 'redis', SVC_REDIS_URL: 'redis://:a@127.0.0.1:6379', SVC_REDIS_PASSWORD: 'b' },
      /^svc\.redis\.password \(SVC_REDIS_PASSWORD\): differs from the password in svc\.redis\.url/,
    ],
  ];
  for (const [what, env, expected] of bad) {
    it(`refuses ${what}, naming the key`, () => {
      const problems = problemsOf(env);
      assert.ok(
        problems.some((p) => expected.test(p)),
        problems.join('\n'),
      );
    });
  }

  it('sentinel mode needs no URL outside prod', () => {
    assert.equal(loadConfig({ env: SENTINEL, configDir: emptyConfigDir() }).redis.url, '');
  });

  describe('prod: a password in every mode', () => {
    it('sentinel mode without any data password is refused, naming svc.redis.password', () => {
      const problems = problemsOf(prodEnv({ ...SENTINEL, SVC_REDIS_URL: '' }));
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0] ?? '', /^svc\.redis\.password \(SVC_REDIS_PASSWORD\): required in prod/);
    });

    it("sentinel mode starts with svc.redis.password, or with the URL's credentials", () => {
      assert.equal(
        loadConfig({ env: prodEnv({ ...SENTINEL, SVC_REDIS_URL: '', SVC_REDIS_PASSWORD: 'pw' }), configDir: emptyConfigDir() }).redis
          .password,
        'pw',
      );
      assert.equal(
        loadConfig({ env: prodEnv({ ...SENTINEL, SVC_REDIS_URL: 'redis://:pw2@ignored:1' }), configDir: emptyConfigDir() }).redis.password,
        'pw2',
      );
    });

    it('cluster mode without any data password is refused, naming svc.redis.password', () => {
      const problems = problemsOf(prodEnv({ ...CLUSTER, SVC_REDIS_URL: '', SVC_REDIS_PASSWORD: '' }));
      assert.ok(
        problems.some((p) =>
          /^svc\.redis\.password \(SVC_REDIS_PASSWORD\): required in prod in every mode \(svc\.redis\.mode is cluster\)/.test(p),
        ),
        problems.join('\n'),
      );
      assert.equal(problems.length, 1, problems.join('\n'));
    });

    it("cluster mode starts with svc.redis.password, or with the URL's credentials", () => {
      assert.equal(loadConfig({ env: prodEnv({ ...CLUSTER, SVC_REDIS_URL: '' }), configDir: emptyConfigDir() }).redis.password, 'cp');
      assert.equal(
        loadConfig({
          env: prodEnv({ ...CLUSTER, SVC_REDIS_URL: 'redis://:pw2@ignored:1', SVC_REDIS_PASSWORD: '' }),
          configDir: emptyConfigDir(),
        }).redis.password,
        'pw2',
      );
    });

    it('standalone mode accepts svc.redis.password beside a URL without one', () => {
      const c = loadConfig({
        env: prodEnv({ SVC_REDIS_URL: 'redis://127.0.0.1:6379', SVC_REDIS_PASSWORD: 'pw' }),
        configDir: emptyConfigDir(),
      });
      assert.equal(c.redis.password, 'pw');
    });
  });
});
