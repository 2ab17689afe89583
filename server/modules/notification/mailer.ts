// Outgoing e-mail. With SMTP_URL set, messages go through a pooled SMTP
// transport; without it (development, tests) each message is written as a
// real RFC 822 .eml file into OUTBOX_DIR, which any mail client opens.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export interface MailerConfig {
  SMTP_URL?: string;
  MAIL_FROM: string;
  OUTBOX_DIR: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files sent with the message (the visa infos' e-visas, issue 11). */
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export interface SendResult {
  delivered: 'smtp' | 'outbox';
  /** Also the local part of the Message-ID header and, in the outbox, of the file name. */
  id: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<SendResult>;
  /** Closes pooled SMTP connections (no-op for the outbox). */
  close(): void;
}

/** Timeouts of the SMTP connection, milliseconds: a stuck server fails the send instead of hanging it. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000, dnsTimeout: 10_000 } as const;

/** The domain of the sender address, for Message-ID headers. */
function senderDomain(from: string): string {
  const match = /@([^\s>]+)>?\s*$/.exec(from);
  return match?.[1] ?? 'localhost';
}

/** 2026-11-21T04:49:05.123Z → 20261121T044905123Z: sortable and safe in any file system. */
function fileTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:.]/g, '');
}

export function createMailer(config: MailerConfig): Mailer {
  const domain = senderDomain(config.MAIL_FROM);
  const compose = (message: MailMessage, id: string) => ({
    from: config.MAIL_FROM,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    ...(message.attachments?.length ? { attachments: message.attachments } : {}),
    messageId: `<${id}@${domain}>`,
    // Never let a header value or an address turn into a file path or URL fetch.
    disableFileAccess: true,
    disableUrlAccess: true,
  });

  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport({
      url: config.SMTP_URL,
      pool: true,
      maxConnections: 3,
      maxMessages: 100,
      idleTimeout: 60_000,
      ...SMTP_TIMEOUTS,
    });
    return {
      async send(message) {
        const id = randomUUID();
        await transport.sendMail(compose(message, id));
        return { delivered: 'smtp', id };
      },
      close() {
        transport.close();
      },
    };
  }

  // CRLF line ends, as RFC 5322 (822) has them and as SMTP would deliver the message.
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    async send(message) {
      const id = randomUUID();
      const info = await builder.sendMail(compose(message, id));
      if (!Buffer.isBuffer(info.message)) throw new Error('stream transport did not return a buffer');
      await mkdir(config.OUTBOX_DIR, { recursive: true });
      const file = join(config.OUTBOX_DIR, `${fileTimestamp(new Date())}-${id}.eml`);
      // Written aside then renamed, so whoever watches the folder never sees half a message.
      await writeFile(`${file}.part`, info.message);
      await rename(`${file}.part`, file);
      return { delivered: 'outbox', id };
    },
    close() {},
  };
}
