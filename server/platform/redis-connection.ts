// One connection to Redis that writes a batch of commands in one write and
// hands the batch its replies, in order (Redis answers a connection's commands
// in the order they came). RESP2, the protocol every Redis speaks by default;
// redis:// and rediss:// (TLS) URLs with a user, password and database number.
//
// Why our own and not node-redis or ioredis (decision 0016, "Redis client"):
// the replay store sends one SET NX PX per signed call, and on this path those
// clients spent 12–17 µs of the server's CPU per call (command objects, a
// second scheduling turn, per-command promises and type mapping), more than
// the HMAC itself; bench:api went from 0.62 to 0.82–0.87. This file does only
// what the replay store and its tests need: send commands, read the five
// reply types, reconnect after a loss, and time out a Redis that stops answering.
import { once } from 'node:events';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls, type ConnectionOptions } from 'node:tls';

export type RedisReply = string | number | null | RedisReplyError | RedisReply[];

/** An error reply (`-ERR …`): it answers one command; the others of its batch keep theirs. */
export class RedisReplyError extends Error {}

export interface RedisConnection {
  /** Writes the commands in one write; resolves with one reply per command, or rejects if the connection is lost first. */
  send(commands: readonly (readonly string[])[]): Promise<RedisReply[]>;
  close(): Promise<void>;
}

export interface RedisConnectionOptions {
  /** A batch with no reply for this long fails, and the connection is dropped. */
  timeoutMs?: number;
  /** After a connection attempt fails, commands fail at once for this long instead of each trying again. */
  retryAfterMs?: number;
  /** Shown by CLIENT LIST, to tell this app's connections apart (no spaces). */
  name?: string;
  /** Extra TLS options for rediss:// (a private CA in tests; NODE_EXTRA_CA_CERTS does it for the app). */
  tls?: ConnectionOptions;
}

interface Target {
  host: string;
  port: number;
  tls: boolean;
  username: string;
  password: string;
  db: number;
}

export function parseRedisUrl(url: string): Target {
  const parsed = new URL(url);
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new Error(`not a redis:// or rediss:// URL: ${parsed.protocol}`);
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new Error(`the Redis database must be a number: ${parsed.pathname}`);
  return {
    // new URL keeps IPv6 hosts in brackets; net.connect wants them without.
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    port: Number(parsed.port || 6379),
    tls: parsed.protocol === 'rediss:',
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    db,
  };
}

/** The commands in RESP: an array of bulk strings each; lengths count bytes. */
export function encodeCommands(commands: readonly (readonly string[])[]): string {
  let out = '';
  for (const args of commands) {
    out += `*${args.length}\r\n`;
    for (const arg of args) out += `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`;
  }
  return out;
}

class RedisProtocolError extends Error {}

/** One reply starting at `pos`, or undefined when the buffer does not hold all of it yet. */
export function parseReply(buffer: Buffer, pos: number): { value: RedisReply; next: number } | undefined {
  // A number needle: Buffer#indexOf would encode a string needle on every call.
  const end = buffer.indexOf(0x0d, pos);
  if (end < 0 || end + 1 >= buffer.length) return undefined;
  if (buffer[end + 1] !== 0x0a) throw new RedisProtocolError('a reply line from Redis does not end in CRLF');
  const line = buffer.toString('latin1', pos + 1, end);
  const next = end + 2;
  switch (buffer[pos]) {
    case 0x2b: // + simple string
      return { value: line, next };
    case 0x2d: // - error
      return { value: new RedisReplyError(buffer.toString('utf8', pos + 1, end)), next };
    case 0x3a: // : integer
      return { value: Number(line), next };
    case 0x24: {
      // $ bulk string, $-1 is null
      const length = Number(line);
      if (length < 0) return { value: null, next };
      if (buffer.length < next + length + 2) return undefined;
      return { value: buffer.toString('utf8', next, next + length), next: next + length + 2 };
    }
    case 0x2a: {
      // * array, *-1 is null
      const count = Number(line);
      if (count < 0) return { value: null, next };
      const items: RedisReply[] = [];
      let at = next;
      for (let i = 0; i < count; i += 1) {
        const item = parseReply(buffer, at);
        if (!item) return undefined;
        items.push(item.value);
        at = item.next;
      }
      return { value: items, next: at };
    }
    default:
      throw new RedisProtocolError(`unexpected reply from Redis: ${JSON.stringify(buffer.toString('latin1', pos, Math.min(end, pos + 40)))}`);
  }
}

interface Waiting {
  count: number;
  sentAt: number;
  replies: RedisReply[];
  resolve(replies: RedisReply[]): void;
  reject(error: unknown): void;
  /** The login's batch: an error reply there fails the connection before any later reply is handed out. */
  login?: true;
}

/** Connects, logs in and selects the database; rejects if Redis cannot be reached or refuses. */
export async function openRedisConnection(url: string, options: RedisConnectionOptions = {}): Promise<RedisConnection> {
  const target = parseRedisUrl(url);
  const timeoutMs = options.timeoutMs ?? 5_000;
  const retryAfterMs = options.retryAfterMs ?? 500;
  let socket: Socket | undefined;
  let waiting: Waiting[] = [];
  let unread: Buffer | undefined;
  let failedAt = -Infinity;
  let lastFailure: unknown;
  let closing = false;

  function write(to: Socket, commands: readonly (readonly string[])[], login?: true): Promise<RedisReply[]> {
    return new Promise((resolve, reject) => {
      waiting.push({ count: commands.length, sentAt: Date.now(), replies: [], resolve, reject, login });
      to.write(encodeCommands(commands));
    });
  }

  /** Hands out the replies in `chunk`; throws (and the caller drops the connection) on a reply it cannot place. */
  function receive(chunk: Buffer) {
    const buffer = unread ? Buffer.concat([unread, chunk]) : chunk;
    let pos = 0;
    for (let reply = parseReply(buffer, pos); reply; reply = parseReply(buffer, pos)) {
      pos = reply.next;
      const head = waiting[0];
      if (!head) throw new RedisProtocolError('Redis answered a command that was not sent');
      head.replies.push(reply.value);
      if (head.replies.length === head.count) {
        const refusal = head.login && head.replies.find((item) => item instanceof RedisReplyError);
        if (refusal) throw refusal;
        waiting.shift();
        head.resolve(head.replies);
      }
    }
    unread = pos < buffer.length ? buffer.subarray(pos) : undefined;
  }

  function open(): Socket {
    const address = { host: target.host, port: target.port };
    const opened = target.tls ? connectTls({ ...address, servername: target.host, ...options.tls }) : connectTcp(address);
    let connected = false;
    // Forgets this connection at once, so that a call made before its 'close'
    // event opens a new one instead of writing to a socket that is going away.
    const drop = (error: unknown) => {
      if (opened !== socket) return;
      socket = undefined;
      unread = undefined;
      clearInterval(watch);
      // A Redis that cannot be reached, or refuses the login, is not tried again at once by every call.
      if (!connected || error instanceof RedisReplyError) failedAt = Date.now();
      lastFailure = error;
      const failed = waiting;
      waiting = [];
      const reason = error instanceof Error ? error : new Error('the connection to Redis closed');
      for (const batch of failed) batch.reject(reason);
      opened.destroy();
    };
    opened.once(target.tls ? 'secureConnect' : 'connect', () => (connected = true));
    opened.setNoDelay(true);
    opened.setKeepAlive(true, 30_000);
    // Idle is fine; silence while commands wait is not. A timer that looks at
    // the oldest batch, not socket.setTimeout, which re-arms on every read and write.
    const watch = setInterval(
      () => {
        if (waiting.length > 0 && Date.now() - waiting[0]!.sentAt > timeoutMs) drop(new Error(`Redis did not answer within ${timeoutMs} ms`));
      },
      Math.max(10, timeoutMs / 4),
    );
    watch.unref();
    opened.on('data', (chunk: Buffer) => {
      if (opened !== socket) return;
      try {
        receive(chunk);
      } catch (error) {
        drop(error);
      }
    });
    let socketError: unknown;
    opened.on('error', (error) => (socketError = error));
    opened.on('close', () => drop(socketError));
    socket = opened;
    // Written before any command, so they run first.
    const login: string[][] = [];
    if (target.password) login.push(target.username ? ['AUTH', target.username, target.password] : ['AUTH', target.password]);
    if (target.db) login.push(['SELECT', String(target.db)]);
    if (options.name) login.push(['CLIENT', 'SETNAME', options.name]);
    if (login.length > 0) write(opened, login, true).catch(() => {});
    return opened;
  }

  const connection: RedisConnection = {
    send(commands) {
      if (closing) return Promise.reject(new Error('the Redis connection is closed'));
      if (!socket) {
        if (Date.now() - failedAt < retryAfterMs) {
          return Promise.reject(new Error(`Redis is unreachable: ${lastFailure instanceof Error ? lastFailure.message : 'connection failed'}`));
        }
        open();
      }
      return write(socket!, commands);
    },
    async close() {
      closing = true;
      const current = socket;
      if (!current) return;
      // end() lets the commands already written be answered first.
      current.end();
      await once(current, 'close');
    },
  };
  // Fails the start on an unreachable Redis, a refused login, or one that wants a login (NOAUTH).
  // The message names the server (never the password), for the operator reading the start's log.
  const where = `${target.tls ? 'rediss' : 'redis'}://${target.host}:${target.port}/${target.db}`;
  let pong: RedisReply | undefined;
  try {
    [pong] = await connection.send([['PING']]);
  } catch (error) {
    // An error reply here is the login's (AUTH, SELECT): it dropped the connection.
    const what = error instanceof RedisReplyError ? 'refused the connection' : 'cannot be reached';
    throw new Error(`Redis at ${where} ${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (pong instanceof RedisReplyError) {
    await connection.close();
    throw new Error(`Redis at ${where} refused the connection: ${pong.message}`, { cause: pong });
  }
  return connection;
}
