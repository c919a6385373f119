import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { devServerEnv } from './server-env';

/**
 * A second `perfilseguro dev` beside the suite's server, for the specs that need another
 * configuration (PAYMENTS=off, a localhost relying party for passkeys): its own port (the
 * suite's + offset), database (suffix, dropped and created afresh) and Redis DB (flushed),
 * started before the describe's tests and stopped after them. Call it inside a test.describe.
 */
export function useSecondServer(o: { offset: number; suffix: string; host?: string; env?: Record<string, string> }) {
  const port = Number(process.env.E2E_PORT ?? 8089) + o.offset;
  const baseURL = `http://${o.host ?? '127.0.0.1'}:${port}`;
  const database = `${process.env.E2E_DATABASE ?? 'perfilseguro_e2e'}_${o.suffix}`;
  const redisDB = Number(process.env.E2E_REDIS_DB ?? 5) + o.offset;
  const env = { ...process.env, ...devServerEnv({ port, database, redisDB }), PUBLIC_BASE_URL: baseURL, ...o.env };
  let server: ChildProcess | undefined;

  test.use({ baseURL });
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'postgres', '-w', '-X', '-q', '-v', 'ON_ERROR_STOP=1',
      '-c', `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`, '-c', `CREATE DATABASE ${database}`], { stdio: 'pipe' });
    await flushRedisDB(redisDB);
    const log = openSync(path.resolve(__dirname, `server-${o.suffix.replaceAll('_', '-')}.log`), 'w');
    server = spawn(path.resolve(__dirname, '..', 'bin', 'perfilseguro'), ['dev'], { env, stdio: ['ignore', log, log] });
    await expect
      .poll(async () => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status, () => 0), { timeout: 60_000 })
      .toBe(200);
  });
  test.afterAll(async () => {
    if (!server) return;
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  });
  return { port, baseURL, database, redisDB, env };
}

/** flushRedisDB empties Redis DB n (no redis-cli needed). */
function flushRedisDB(n: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(6379, '127.0.0.1', () => socket.write(`SELECT ${n}\r\nFLUSHDB\r\n`));
    let replies = '';
    socket.on('data', (chunk) => {
      replies += chunk.toString();
      if ((replies.match(/\r\n/g) ?? []).length >= 2) {
        socket.end();
        if (replies.startsWith('+OK\r\n+OK')) resolve();
        else reject(new Error(`Redis answered ${JSON.stringify(replies)}`));
      }
    });
    socket.on('error', reject);
  });
}
