// The small Redis client of the replay store (decision 0016, "Redis client"):
// the wire format on its own, then against the local Redis (TEST_REDIS_URL,
// default redis://127.0.0.1:6379): batches, error replies, the database number,
// a login, a lost connection, a Redis that stops answering, and TLS through a
// local TLS proxy in front of that Redis.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { haveRedis, TEST_REDIS_URL, warnIfNoRedis } from '../test-support/redis.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { newRequestId } from '../../common/signing.ts';
import { encodeCommands, openRedisConnection, parseRedisUrl, parseReply, RedisReplyError, type RedisReply } from './redis-connection.ts';

const REDIS_URL = TEST_REDIS_URL;
warnIfNoRedis('Redis client tests against a server');

/** Every reply in `wire`, parsed as the client does: chunk by chunk, keeping what is incomplete. */
function parseAll(chunks: Buffer[]): RedisReply[] {
  const replies: RedisReply[] = [];
  let unread = Buffer.alloc(0);
  for (const chunk of chunks) {
    unread = Buffer.concat([unread, chunk]);
    let pos = 0;
    for (let reply = parseReply(unread, pos); reply; reply = parseReply(unread, pos)) {
      replies.push(reply.value);
      pos = reply.next;
    }
    unread = unread.subarray(pos);
  }
  expect(unread.length).toBe(0);
  return replies;
}

describe('Redis wire format (RESP2)', () => {
  const wire = Buffer.from('+OK\r\n$-1\r\n:42\r\n-ERR wrong type\r\n$8\r\n签证\r\n\r\n*3\r\n:1\r\n*-1\r\n*1\r\n$0\r\n\r\n$2\r\nOK\r\n', 'utf8');
  const expected = ['OK', null, 42, new RedisReplyError('ERR wrong type'), '签证\r\n', [1, null, ['']], 'OK'];

  it('reads every reply type, in one chunk', () => {
    const replies = parseAll([wire]);
    expect(replies).toEqual(expected);
    expect(replies[3]).toBeInstanceOf(RedisReplyError);
  });

  it('reads the same when the bytes arrive split at any point', () => {
    for (let cut = 1; cut < wire.length; cut += 1) {
      expect(parseAll([wire.subarray(0, cut), wire.subarray(cut)])).toEqual(expected);
    }
  });

  it('refuses a reply type it does not know', () => {
    expect(() => parseReply(Buffer.from('!3\r\nerr\r\n'), 0)).toThrow(/unexpected reply/);
    expect(() => parseReply(Buffer.from('+OK\rX\n'), 0)).toThrow(/CRLF/);
  });

  it('writes commands as arrays of bulk strings whose lengths count bytes', () => {
    expect(encodeCommands([['SET', 'k', '签'], ['PING']])).toBe('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\n签\r\n*1\r\n$4\r\nPING\r\n');
  });

  it('reads host, port, login, database and TLS from the URL', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6390/3')).toMatchObject({ host: '127.0.0.1', port: 6390, db: 3, tls: false, username: '', password: '' });
    expect(parseRedisUrl('rediss://app:p%40ss@cache.example')).toMatchObject({
      host: 'cache.example',
      port: 6379,
      db: 0,
      tls: true,
      username: 'app',
      password: 'p@ss',
    });
    expect(parseRedisUrl('redis://[::1]:6379')).toMatchObject({ host: '::1' });
    expect(() => parseRedisUrl('http://127.0.0.1')).toThrow(/redis:\/\//);
    expect(() => parseRedisUrl('redis://127.0.0.1/x')).toThrow(/number/);
  });
});

/** A TCP server on a free port that hands each connection to `onConnection`. */
async function fakeRedis(onConnection: (socket: Socket) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(onConnection);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return { url: `redis://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, server };
}

describe('Redis client against servers that misbehave', () => {
  it('fails a batch that gets no answer within the time-out, and drops the connection', async () => {
    let silent = false;
    const { url, server } = await fakeRedis((socket) =>
      socket.on('data', () => {
        if (!silent) socket.write('+PONG\r\n');
      }),
    );
    const redis = await openRedisConnection(url, { timeoutMs: 150 });
    silent = true;
    const started = Date.now();
    await expect(redis.send([['SET', 'k', '1']])).rejects.toThrow(/did not answer within 150 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
    silent = false;
    // A new connection serves the next batch.
    expect(await redis.send([['PING']])).toEqual(['PONG']);
    await redis.close();
    server.close();
  });

  it('fails the batches in flight when the connection closes, and connects again for the next', async () => {
    let connections = 0;
    const { url, server } = await fakeRedis((socket) => {
      connections += 1;
      const mine = connections;
      socket.on('data', (data) => {
        // The second connection's first command is answered; the first one's SET is cut off.
        if (String(data).includes('PING') || mine > 1) socket.write('+PONG\r\n');
        else socket.destroy();
      });
    });
    const redis = await openRedisConnection(url);
    await expect(redis.send([['SET', 'k', '1']])).rejects.toThrow();
    expect(await redis.send([['PING']])).toEqual(['PONG']);
    expect(connections).toBe(2);
    await redis.close();
    server.close();
  });

  it('refuses to start when nothing listens, and after a failed attempt fails calls at once for a moment', async () => {
    const sockets: Socket[] = [];
    const { url, server } = await fakeRedis((socket) => {
      sockets.push(socket);
      socket.on('data', () => socket.write('+PONG\r\n'));
    });
    const redis = await openRedisConnection(url, { retryAfterMs: 60_000 });
    server.close();
    for (const socket of sockets) socket.destroy();
    await once(server, 'close');
    // The first call after the loss tries to connect and is refused ...
    await expect(redis.send([['PING']]).catch(() => redis.send([['PING']]))).rejects.toThrow(/ECONNREFUSED/);
    // ... and the next one does not try again yet.
    await expect(redis.send([['PING']])).rejects.toThrow(/Redis is unreachable: .*ECONNREFUSED/);
    await redis.close();
    await expect(openRedisConnection(url)).rejects.toThrow(/^Redis at redis:\/\/127\.0\.0\.1:\d+\/0 cannot be reached: .*ECONNREFUSED/);
  });

  it('drops a connection whose server answers a command that was not sent', async () => {
    let connections = 0;
    const { url, server } = await fakeRedis((socket) => {
      connections += 1;
      socket.on('data', (data) => socket.write(String(data).includes('TWICE') ? '+ONE\r\n+TWO\r\n' : '+PONG\r\n'));
    });
    const redis = await openRedisConnection(url);
    expect(await redis.send([['TWICE']])).toEqual(['ONE']);
    // The extra +TWO dropped that connection; the next call opens another.
    expect(await redis.send([['PING']])).toEqual(['PONG']);
    expect(connections).toBe(2);
    await redis.close();
    server.close();
  });

  it('refuses to start when Redis wants a login the URL does not give', async () => {
    const { url, server } = await fakeRedis((socket) => socket.on('data', () => socket.write('-NOAUTH Authentication required.\r\n')));
    await expect(openRedisConnection(url)).rejects.toThrow(/NOAUTH/);
    server.close();
  });
});

describe.skipIf(!haveRedis)('Redis client against the local Redis', () => {
  const key = () => `test:redis-connection:${newRequestId()}`;

  it('answers a batch in order, one reply per command, an error reply failing only its command', async () => {
    const redis = await openRedisConnection(REDIS_URL);
    const k = key();
    const replies = await redis.send([
      ['SET', k, 'a', 'NX', 'PX', '60000'],
      ['SET', k, 'b', 'NX', 'PX', '60000'],
      ['INCR', k],
      ['GET', k],
      ['DEL', k],
    ]);
    expect(replies.slice(0, 2)).toEqual(['OK', null]);
    expect(replies[2]).toBeInstanceOf(RedisReplyError);
    expect(replies.slice(3)).toEqual(['a', 1]);
    await redis.close();
  });

  it('keeps batches apart when many are in flight at once', async () => {
    const redis = await openRedisConnection(REDIS_URL);
    const keys = Array.from({ length: 200 }, key);
    const answers = await Promise.all(
      keys.map((k, i) =>
        redis.send([
          ['SET', k, String(i), 'PX', '60000'],
          ['GET', k],
          ['DEL', k],
        ]),
      ),
    );
    answers.forEach((replies, i) => expect(replies).toEqual(['OK', String(i), 1]));
    await redis.close();
  });

  it('uses the database number of the URL', async () => {
    const k = key();
    const inDb5 = await openRedisConnection(`${REDIS_URL.replace(/\/\d*$/, '')}/5`);
    const inDb0 = await openRedisConnection(REDIS_URL);
    await inDb5.send([['SET', k, 'five', 'PX', '60000']]);
    expect(await inDb5.send([['GET', k]])).toEqual(['five']);
    expect(await inDb0.send([['GET', k]])).toEqual([null]);
    await inDb5.send([['DEL', k]]);
    await inDb5.close();
    await inDb0.close();
  });

  it('logs in with the URL user and password, and refuses to start with a wrong one', async () => {
    const admin = await openRedisConnection(REDIS_URL);
    const user = `visa_test_${process.pid}`;
    const setUser = await admin.send([['ACL', 'SETUSER', user, 'reset', 'on', '>s3cret pass', '~test:*', '+get', '+set', '+del', '+ping', '+select']]);
    expect(setUser).toEqual(['OK']);
    try {
      const { host } = new URL(REDIS_URL);
      const good = await openRedisConnection(`redis://${user}:${encodeURIComponent('s3cret pass')}@${host}`);
      const k = key();
      expect(await good.send([['SET', k, '1', 'PX', '60000'], ['DEL', k], ['FLUSHALL']])).toEqual(['OK', 1, expect.any(RedisReplyError)]);
      await good.close();
      const refused: unknown = await openRedisConnection(`redis://${user}:n0tthis@${host}`).then(
        (connection) => connection,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toMatch(/^Redis at redis:\/\/\S+ refused the connection: WRONGPASS/);
      // The log may show where, never the password.
      expect((refused as Error).message).not.toContain('n0tthis');
    } finally {
      await admin.send([['ACL', 'DELUSER', user]]);
      await admin.close();
    }
  });

  it('connects again after Redis drops the connection', async () => {
    const redis = await openRedisConnection(REDIS_URL);
    const admin = await openRedisConnection(REDIS_URL);
    const [id] = (await redis.send([['CLIENT', 'ID']])) as [number];
    expect(await admin.send([['CLIENT', 'KILL', 'ID', String(id)]])).toEqual([1]);
    // The kill may be seen by the next call (it fails, and the one after reconnects) or before it.
    const next = await redis.send([['PING']]).catch(() => redis.send([['PING']]));
    expect(next).toEqual(['PONG']);
    await redis.close();
    await admin.close();
  });
});

// rediss://: a TLS proxy with a certificate made here for 127.0.0.1, in front of the local Redis.
const haveOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (haveRedis && !haveOpenssl) console.warn('\n!!! Redis over TLS test SKIPPED: openssl is not installed to make its certificate !!!\n');

describe.skipIf(!haveRedis || !haveOpenssl)('Redis client over TLS (rediss://)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'visa-redis-tls-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('speaks to Redis through TLS, trusting the CA it is given, and refuses a certificate it cannot trust', async () => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const cert = readFileSync(join(dir, 'cert.pem'));
    const { hostname, port } = new URL(REDIS_URL);
    const proxy = createTlsServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (client) => {
      const upstream = createConnection({ host: hostname, port: Number(port || 6379) });
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    const address = proxy.address();
    const url = `rediss://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const redis = await openRedisConnection(url, { tls: { ca: cert } });
      const k = `test:redis-connection:${newRequestId()}`;
      expect(
        await redis.send([
          ['SET', k, 'tls', 'PX', '60000'],
          ['GET', k],
          ['DEL', k],
        ]),
      ).toEqual(['OK', 'tls', 1]);
      await redis.close();
      await expect(openRedisConnection(url)).rejects.toThrow(/self.signed|certificate/i);
    } finally {
      proxy.close();
    }
  });
});
