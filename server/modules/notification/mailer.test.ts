// The mailer against a real SMTP server on 127.0.0.1 and against the outbox
// folder. What arrives is read back as MIME (headers unfolded, encoded words
// and part bodies decoded) rather than compared as raw text.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from './mailer.ts';

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end < 0 ? normalized : normalized.slice(0, end);
  const body = end < 0 ? '' : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(value: string): Buffer {
  const bytes: number[] = [];
  const text = value.replace(/=\n/g, '');
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes);
}

/** RFC 2047: =?UTF-8?B?…?= and =?UTF-8?Q?…?=, whitespace between adjacent words dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
    );
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body).toString('utf8');
  return part.body;
}

/** The leaf parts of a (possibly nested) multipart message. */
function leafParts(raw: string): Part[] {
  const part = splitHeaders(raw);
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [part];
  const sections = part.body.split(`--${boundary}`).slice(1);
  return sections.filter((section) => !section.startsWith('--')).flatMap((section) => leafParts(section.replace(/^\n/, '')));
}

function readMessage(raw: string) {
  const { headers } = splitHeaders(raw);
  const parts = leafParts(raw);
  const byType = (type: string) => {
    const part = parts.find((p) => (p.headers.get('content-type') ?? '').toLowerCase().startsWith(type));
    return part ? decodeBody(part) : undefined;
  };
  return {
    headers,
    subject: decodeWords(headers.get('subject') ?? ''),
    from: decodeWords(headers.get('from') ?? ''),
    to: headers.get('to') ?? '',
    text: byType('text/plain'),
    html: byType('text/html'),
  };
}

const MESSAGE = {
  to: 'traveller@example.com',
  subject: '【易签通】日本 旅游签证 单次入境 材料清单（在职人员）— a long subject so that it is folded over more than one encoded word',
  text: '您好：\n\n电子资料\n* 护照首页扫描件\n\n查看商品：https://www.example.com/visa/product/7\n',
  html: '<p>您好：</p><h2>电子资料</h2><ul><li>护照首页扫描件 <b>*</b></li></ul>',
};
const FROM = '易签通 <no-reply@yiqiantong.example>';

describe('mailer over SMTP', () => {
  const received: Array<{ from: string; to: string[]; raw: string }> = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers a UTF-8 multipart message to the SMTP server', async () => {
    const mailer = createMailer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: FROM, OUTBOX_DIR: '/nonexistent/never-used' });
    try {
      const result = await mailer.send(MESSAGE);
      expect(result.delivered).toBe('smtp');
      expect(result.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(received).toHaveLength(1);
      const envelope = received[0]!;
      expect(envelope.from).toBe('no-reply@yiqiantong.example');
      expect(envelope.to).toEqual(['traveller@example.com']);
      const message = readMessage(envelope.raw);
      expect(message.subject).toBe(MESSAGE.subject);
      expect(message.from).toContain('易签通');
      expect(message.to).toBe('traveller@example.com');
      expect(message.headers.get('message-id')).toBe(`<${result.id}@yiqiantong.example>`);
      expect(message.headers.get('content-type')).toMatch(/^multipart\/alternative/);
      expect(message.text).toContain('* 护照首页扫描件');
      expect(message.text).toContain('https://www.example.com/visa/product/7');
      expect(message.html).toContain('<li>护照首页扫描件 <b>*</b></li>');
    } finally {
      mailer.close();
    }
  });

  it('sends concurrent messages through the pool', async () => {
    const mailer = createMailer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: FROM, OUTBOX_DIR: '/nonexistent/never-used' });
    const before = received.length;
    try {
      const results = await Promise.all([1, 2, 3].map((n) => mailer.send({ ...MESSAGE, to: `user${n}@example.com`, subject: `第${n}封` })));
      expect(new Set(results.map((r) => r.id)).size).toBe(3);
      const subjects = received
        .slice(before)
        .map((r) => readMessage(r.raw).subject)
        .sort();
      expect(subjects).toEqual(['第1封', '第2封', '第3封']);
    } finally {
      mailer.close();
    }
  });

  it('fails the send when no server answers', async () => {
    const closed = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false });
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const deadPort = (closed.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const mailer = createMailer({ SMTP_URL: `smtp://127.0.0.1:${deadPort}`, MAIL_FROM: FROM, OUTBOX_DIR: '/nonexistent/never-used' });
    try {
      await expect(mailer.send(MESSAGE)).rejects.toThrow();
    } finally {
      mailer.close();
    }
  });
});

describe('mailer without SMTP (outbox)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'visa-outbox-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a complete .eml file, creating the folder', async () => {
    const outbox = join(dir, 'nested', 'outbox');
    const mailer = createMailer({ MAIL_FROM: FROM, OUTBOX_DIR: outbox });
    const result = await mailer.send(MESSAGE);
    expect(result.delivered).toBe('outbox');
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^\\d{8}T\\d{9}Z-${result.id}\\.eml$`));
    const raw = readFileSync(join(outbox, files[0]!), 'utf8');
    expect(raw).toMatch(/^Content-Type: multipart\/alternative;\r$/m);
    expect(raw).toMatch(/^MIME-Version: 1\.0\r$/m);
    expect(raw.replace(/\r\n/g, '')).not.toContain('\n'); // CRLF throughout, as RFC 5322 wants
    const message = readMessage(raw);
    expect(message.subject).toBe(MESSAGE.subject);
    expect(message.to).toBe('traveller@example.com');
    expect(message.headers.get('message-id')).toBe(`<${result.id}@yiqiantong.example>`);
    expect(message.headers.get('date')).toBeTruthy();
    expect(message.text).toContain('* 护照首页扫描件');
    expect(message.html).toContain('<h2>电子资料</h2>');
    // Every header line is 7-bit: the UTF-8 subject is MIME-encoded.
    const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
    expect(head).toMatch(/^Subject: =\?UTF-8\?[BQ]\?/m);
    // eslint-disable-next-line no-control-regex -- any byte outside 7-bit ASCII
    expect(/[^\x00-\x7f]/.test(head)).toBe(false);
  });

  it('gives each message its own file', async () => {
    const outbox = join(dir, 'many');
    const mailer = createMailer({ MAIL_FROM: FROM, OUTBOX_DIR: outbox });
    const results = await Promise.all([1, 2, 3, 4].map(() => mailer.send(MESSAGE)));
    const files = readdirSync(outbox).sort();
    expect(files).toHaveLength(4);
    expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
    for (const { id } of results) expect(files.some((f) => f.includes(id))).toBe(true);
  });
});
