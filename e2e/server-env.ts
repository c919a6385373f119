/**
 * The environment of a `perfilseguro dev` server for the specs: test mode on its own address,
 * database and Redis DB. Used by playwright.config.ts for the suite's server and by specs that
 * start a second one (payments-off.spec.ts).
 */
/**
 * What tells a shard's files apart (scripts/test.sh runs shards at once, each on its own
 * E2E_PORT): '' for the default port, so a single run keeps the plain names, else '-<port>'.
 */
const shardPort = Number(process.env.E2E_PORT ?? 8089);
export const shardSuffix = shardPort === 8089 ? '' : `-${shardPort}`;

export function devServerEnv(o: { port: number; database: string; redisDB: number | string }): Record<string, string> {
  const baseURL = `http://127.0.0.1:${o.port}`;
  return {
    APP_ENV: 'test',
    HTTP_ADDR: `127.0.0.1:${o.port}`,
    PUBLIC_BASE_URL: baseURL,
    // Development certificates and keys, made on first start: one folder per shard (scripts/test.sh
    // starts the shards' servers at once), shared by a shard's second servers.
    DATA_DIR: `.dev${shardSuffix}`,
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${o.database}?sslmode=disable`,
    REDIS_URL: `redis://127.0.0.1:6379/${o.redisDB}`,
    // Every spec comes from 127.0.0.1: raise the per-IP code, admin sign-in and public-lookup
    // limits so the suite (its retries, and repeated local runs within the hour) never hits them.
    RATE_LIMIT_SEND_PER_IP: '1000',
    RATE_LIMIT_VERIFY_PER_IP: '2000',
    RATE_LIMIT_ADMIN_LOGIN_PER_IP: '1000',
    PUBLIC_MISSES_PER_MINUTE: '1000',
    PUBLIC_MISS_BURST: '1000',
    PUBLIC_HITS_PER_MINUTE: '100000',
    PUBLIC_HIT_BURST: '10000',
  };
}
